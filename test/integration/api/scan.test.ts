// The scan's counts against the server's own, unit by unit and value by value, on a demo whose tasks
// stand still (live changes slowed to nothing), and the planner's choice on it.
import { describe, expect, it } from 'vitest';
import { choosePlan, probeList, verifyScan } from '../../../src/api/fanout/plan.js';
import { scanCounts } from '../../../src/api/fanout/scan.js';
import { loadUnits } from '../../../src/api/fanout/units.js';
import { Session } from '../../../src/api/session/session.js';
import { demoRequest, useDemo } from '../../helpers/demo.js';

const demo = useDemo({ tenants: 6, taskSpeed: 1e-9 });
const session = () =>
  new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, ratePerSecond: 1000 });

/** The server's count of tasks in a unit's scope, under a filter. */
async function serverCount(unit: string, filter?: Record<string, unknown>): Promise<number> {
  const query = filter === undefined ? '' : `&filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const response = await demoRequest(demo.region, `/tasks?limit=1${query}`, {
    headers: { 'x-service-organizationalunit-context': unit },
  });
  expect(response.status).toBe(200);
  return response.body.total_count as number;
}

describe('counting by one scan', () => {
  it("gives every unit the server's own total and per-value counts, in the root's pages", async () => {
    const client = session();
    const units = (await loadUnits(client))!;
    const before = client.traffic.requests;
    const scan = await scanCounts(client, units, { resource: 'tasks' }, 'status');
    expect(scan.unitField).toBe('organizational_unit_id');
    expect(scan.unplaced).toBe(0);
    const root = units.find((unit) => unit.depth === 0)!;
    expect(scan.records).toBe(await serverCount(root.id));
    // The refused probe of 1,000, then pages of 100.
    expect(client.traffic.requests - before).toBe(1 + Math.ceil(scan.records / 100));
    const cells = units.flatMap((unit) => [undefined, ...scan.values].map((value) => ({ unit, value })));
    const server = await Promise.all(
      cells.map(({ unit, value }) =>
        serverCount(unit.id, value === undefined ? undefined : { status: { $eq: value } }),
      ),
    );
    const scanned = cells.map(({ unit, value }) => {
      const counted = scan.counts.get(unit.id);
      return value === undefined ? (counted?.total ?? 0) : (counted?.byValue.get(JSON.stringify(value)) ?? 0);
    });
    expect(scanned).toEqual(server);
  });

  it('counts only what the filter lets through', async () => {
    const client = session();
    const units = (await loadUnits(client))!;
    const filter = { category: { $eq: 'restore' } };
    const scan = await scanCounts(client, units, { resource: 'tasks', filter: JSON.stringify(filter) }, 'status');
    const tenant = units.find((unit) => unit.depth === 1)!;
    expect(scan.counts.get(tenant.id)?.total).toBe(await serverCount(tenant.id, filter));
  });

  it('is verified against every tenant and random cells, and a wrong count is caught', async () => {
    const client = session();
    const units = (await loadUnits(client))!;
    const scan = await scanCounts(client, units, { resource: 'tasks' }, 'status');
    const tenants = units.filter((unit) => unit.depth === 1).map((unit) => unit.id);
    const cells = units.flatMap((unit) => scan.values.map((value) => ({ unit: unit.id, value })));
    const checks = await verifyScan(client, scan, { tenants, cells }, { resource: 'tasks' }, 'status');
    expect(checks).toHaveLength(tenants.length + 3);
    expect(checks.every((check) => check.server === check.scanned)).toBe(true);
    scan.counts.get(tenants[0]!)!.total += 1;
    const again = await verifyScan(client, scan, { tenants, cells }, { resource: 'tasks' }, 'status');
    expect(again.filter((check) => check.server !== check.scanned).map((check) => check.unit)).toEqual([tenants[0]]);
  });

  it('the planner probes with at most 2 list requests and picks the scan here', async () => {
    const client = session();
    const units = (await loadUnits(client))!;
    const probe = await probeList(client, units, { resource: 'tasks' });
    expect(probe.requests).toBeLessThanOrEqual(2);
    expect(probe).toMatchObject({ pageSize: 100, unitField: 'organizational_unit_id' });
    const choice = choosePlan(probe, { rows: units.length, values: 9, tenants: 6, ratePerSecond: 50 });
    expect(choice.chosen).toBe('scan');
    expect(choice.estimates.scan!.requests).toBe(Math.ceil(probe.total! / 100) + 6 + 3);
    expect(choice.estimates.cells.requests).toBe(units.length * 10);
  });
});

describe("the planner's choice", () => {
  it('keeps cells for a few units over a large list, and cells where no field names the unit', () => {
    const few = choosePlan(
      { total: 20_000, pageSize: 100, unitField: 'unit_id', requests: 1 },
      { rows: 7, values: 8, tenants: 3, ratePerSecond: 50 },
    );
    expect(few.chosen).toBe('cells');
    expect(few.estimates).toEqual({
      cells: { requests: 63, seconds: 63 / 50 },
      scan: { requests: 206, seconds: 206 / 50 },
    });
    const blind = choosePlan(
      { total: 500, pageSize: 100, requests: 1 },
      { rows: 266, values: 8, tenants: 40, ratePerSecond: 50 },
    );
    expect(blind).toMatchObject({ chosen: 'cells', scanImpossible: 'no field of the records names their unit' });
    const forced = choosePlan(
      { total: 20_000, pageSize: 100, unitField: 'unit_id', requests: 1 },
      { rows: 7, values: 8, tenants: 3, ratePerSecond: 50 },
      'scan',
    );
    expect(forced.chosen).toBe('scan');
  });
});
