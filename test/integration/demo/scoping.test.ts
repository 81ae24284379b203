import { describe, expect, it } from 'vitest';
import { demoPages, demoRequest, expectError, expectList, useDemo } from '../../helpers/demo.js';

const demo = useDemo();
const HEADER = 'x-service-organizationalunit-context';

interface Unit {
  id: string;
  name: string;
  kind: string;
  parent_id: string | null;
}

async function units(): Promise<Unit[]> {
  const { body } = await demoRequest(demo.region, '/organizational-units?limit=100');
  return body._embedded.items as Unit[];
}

/** The unit and its descendants, from the parent links of the listed units. */
function subtree(all: Unit[], rootId: string): Set<string> {
  const ids = new Set([rootId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const unit of all) {
      if (unit.parent_id && ids.has(unit.parent_id) && !ids.has(unit.id)) {
        ids.add(unit.id);
        grew = true;
      }
    }
  }
  return ids;
}

describe('demo control plane: organizational-unit scoping', () => {
  it('has a global root, several tenants and nested units', async () => {
    const all = await units();
    expect(all.filter((u) => u.kind === 'root')).toHaveLength(1);
    expect(all.filter((u) => u.kind === 'tenant').length).toBeGreaterThanOrEqual(3);
    const depth = (u: Unit): number => (u.parent_id ? 1 + depth(all.find((p) => p.id === u.parent_id)!) : 0);
    expect(Math.max(...all.map(depth))).toBeGreaterThanOrEqual(3);
  });

  it('limits lists to the unit and its descendants', async () => {
    const all = await units();
    const tenant = all.find((u) => u.kind === 'tenant' && all.some((c) => c.parent_id === u.id))!;
    const allowed = subtree(all, tenant.id);
    const scoped = await demoPages(demo.region, '/users?limit=100', { [HEADER]: tenant.id });
    expect(scoped.length).toBeGreaterThan(0);
    for (const user of scoped) expect(allowed.has(user.organizational_unit_id)).toBe(true);
    expect(new Set(scoped.map((u) => u.organizational_unit_id)).size).toBeGreaterThan(1);
    const everyone = await demoPages(demo.region, '/users?limit=100', {});
    expect(scoped.length).toBe(everyone.filter((u) => allowed.has(u.organizational_unit_id)).length);
    const unitsInScope = await demoRequest(demo.region, '/organizational-units?limit=100', {
      headers: { [HEADER]: tenant.id },
    });
    expectList('organizational-units.v1', unitsInScope.body);
    expect(new Set(unitsInScope.body._embedded.items.map((u: Unit) => u.id))).toEqual(allowed);
  });

  it('gives every tenant failed restore tasks from the last day', async () => {
    const all = await units();
    const since = new Date(Date.now() - 86_400_000).toISOString();
    const filter = encodeURIComponent(
      JSON.stringify({ category: 'restore', status: 'failed', created_timestamp: { $gte: since } }),
    );
    for (const tenant of all.filter((u) => u.kind === 'tenant')) {
      const response = await demoRequest(demo.region, `/tasks?filter=${filter}`, { headers: { [HEADER]: tenant.id } });
      expectList('tasks.v1', response.body);
      expect(response.body.current_count, tenant.name).toBeGreaterThan(0);
    }
  });

  it('hides records outside the unit from reads by id', async () => {
    const all = await units();
    const [first, second] = all.filter((u) => u.kind === 'tenant');
    const { body } = await demoRequest(demo.region, '/tasks?limit=1', { headers: { [HEADER]: first!.id } });
    const taskId = body._embedded.items[0].id as string;
    expect((await demoRequest(demo.region, `/tasks/${taskId}`, { headers: { [HEADER]: first!.id } })).status).toBe(200);
    expectError(
      await demoRequest(demo.region, `/tasks/${taskId}`, { headers: { [HEADER]: second!.id } }),
      404,
      'record_not_found',
    );
  });

  it('answers 403 to an unknown unit and 400 to a malformed one', async () => {
    expectError(
      await demoRequest(demo.region, '/users', { headers: { [HEADER]: '00000000-0000-4000-8000-000000000000' } }),
      403,
      'organizational_unit_forbidden',
    );
    expectError(
      await demoRequest(demo.region, '/users', { headers: { [HEADER]: 'acme' } }),
      400,
      'invalid_organizational_unit',
    );
    expectError(await demoRequest(demo.region, '/', { headers: { [HEADER]: '' } }), 400, 'invalid_organizational_unit');
  });
});
