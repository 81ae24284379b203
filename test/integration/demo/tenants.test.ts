// The demo at the size of a managed service provider: --tenants N generates N tenants with 1–3 levels of
// sub-units each, data that grows with the units, and the OU header scoping as with the fixed tree.
import { describe, expect, it } from 'vitest';
import { startDemo } from '../../../src/demo/server.js';
import { demoPages, demoRequest, expectSchema, useDemo } from '../../helpers/demo.js';
import world from '../../../fixtures/demo/world.json' with { type: 'json' };

const HEADER = 'x-service-organizationalunit-context';
const TENANTS = 12;
const demo = useDemo({ tenants: TENANTS });

interface Unit {
  id: string;
  name: string;
  kind: string;
  parent_id: string | null;
}

/** How many levels of units lie below `id` (0 for a unit without children). */
function levelsBelow(units: Unit[], id: string): number {
  const children = units.filter((unit) => unit.parent_id === id);
  return children.length === 0 ? 0 : 1 + Math.max(...children.map((child) => levelsBelow(units, child.id)));
}

/** The unit and every unit below it. */
function subtree(units: Unit[], id: string): Set<string> {
  const ids = new Set([id]);
  for (const child of units.filter((unit) => unit.parent_id === id))
    for (const below of subtree(units, child.id)) ids.add(below);
  return ids;
}

describe('demo control plane: --tenants', () => {
  it('lists the root and N tenants, each with 1 to 3 levels of sub-units, every parent among them', async () => {
    const units = (await demoPages(demo.region, '/organizational-units?limit=100')) as Unit[];
    for (const unit of units) expectSchema('records/organizational-units.v1', unit);
    const ids = new Set(units.map((unit) => unit.id));
    const roots = units.filter((unit) => unit.parent_id === null);
    expect(roots).toHaveLength(1);
    const tenants = units.filter((unit) => unit.parent_id === roots[0]!.id);
    expect(tenants).toHaveLength(TENANTS);
    expect(tenants.every((tenant) => tenant.kind === 'tenant')).toBe(true);
    expect(new Set(tenants.map((tenant) => tenant.name)).size).toBe(TENANTS);
    for (const tenant of tenants) {
      const levels = levelsBelow(units, tenant.id);
      expect(levels, tenant.name).toBeGreaterThanOrEqual(1);
      expect(levels, tenant.name).toBeLessThanOrEqual(3);
    }
    for (const unit of units) if (unit.parent_id !== null) expect(ids.has(unit.parent_id)).toBe(true);
    expect(demo.region.units.map((unit) => unit.id).sort()).toEqual([...ids].sort());
  });

  it("scopes a tenant's lists to it and its descendants, and each of them holds data of its own", async () => {
    const units = (await demoPages(demo.region, '/organizational-units?limit=100')) as Unit[];
    const tenant = units.find((unit) => unit.kind === 'tenant' && levelsBelow(units, unit.id) >= 2)!;
    const below = subtree(units, tenant.id);
    const tasks = await demoPages(demo.region, '/tasks?limit=100', { [HEADER]: tenant.id });
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((task) => below.has(task.organizational_unit_id))).toBe(true);
    const owners = new Set(tasks.map((task) => task.organizational_unit_id));
    for (const id of below) expect(owners.has(id)).toBe(true);
  });

  it("grows the data with the units: the volumes per scale are for the fixture's tree", async () => {
    const placeable = demo.region.units.length - 1;
    const fixed = world.organizational_units.length - 1;
    const users = await demoRequest(demo.region, '/users?limit=1');
    expect(users.body.total_count).toBe(Math.round(world.volumes_per_scale.users * (placeable / fixed)));
  });

  it("draws the same tree for a seed, another for another region, and the fixture's without --tenants", async () => {
    const [again, plain] = [await startDemo({ tenants: TENANTS }), await startDemo()];
    try {
      expect(again.regions[0]!.units).toEqual(demo.region.units);
      expect(again.regions[1]!.units).not.toEqual(demo.region.units);
      expect(plain.regions[0]!.units).toEqual(world.organizational_units);
    } finally {
      await Promise.all([again.close(), plain.close()]);
    }
  });
});
