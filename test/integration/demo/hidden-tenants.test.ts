// The demo's --hidden-tenants: a tenant whose records a request without the OU header does not see —
// not in any list, not by id — while the unit list still shows it, and a request in its context or its
// ancestor's sees them. What a root's list that does not hold every unit's records looks like.
import { describe, expect, it } from 'vitest';
import { demoPages, demoRequest, useDemo } from '../../helpers/demo.js';

const demo = useDemo({ hiddenTenants: 1 });
const HEADER = 'x-service-organizationalunit-context';

describe('demo control plane: a tenant hidden from requests without a unit', () => {
  it("leaves its records (and its sub-units') out of lists and reads without the header, and only those", async () => {
    const [hidden] = demo.region.hiddenTenants;
    expect(hidden?.kind).toBe('tenant');
    const units = await demoPages(demo.region, '/organizational-units?limit=100');
    expect(units.map((unit) => unit.id)).toContain(hidden!.id);
    const root = units.find((unit) => unit.kind === 'root')!;

    const own = await demoPages(demo.region, '/users?limit=100', { [HEADER]: hidden!.id });
    expect(own.length).toBeGreaterThan(0);
    const everyone = await demoPages(demo.region, '/users?limit=100', { [HEADER]: root.id });
    const unscoped = await demoPages(demo.region, '/users?limit=100');
    const ownIds = new Set(own.map((user) => user.id));
    expect(unscoped.map((user) => user.id)).toEqual(everyone.map((user) => user.id).filter((id) => !ownIds.has(id)));

    const user = own[0]!;
    expect((await demoRequest(demo.region, `/users/${user.id}`)).status).toBe(404);
    expect((await demoRequest(demo.region, `/users/${user.id}`, { headers: { [HEADER]: hidden!.id } })).status).toBe(
      200,
    );
  });
});
