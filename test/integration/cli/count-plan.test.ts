// The count planner over HTTP: one scan of the root's list answers the same matrix as a request per
// cell, is checked against the server's own counts and given up when they disagree, --explain asks the
// list at most twice, and a few units over a long list keep the per-cell plan.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { startTaggedPlane, type TaggedPlane } from '../../helpers/tagged-plane.js';
import { dpx } from './harness.js';

const demo = useDemo({ tenants: 6, frozen: true });
const demoEnv = () => ({
  DPX_BASE_URL: demo.region.baseUrl,
  DPX_TOKEN: demo.region.tokens.personal,
  DPX_RATE: '100000',
});

interface Check {
  ou: string;
  what: 'total' | 'cell';
  scanned: number;
  server: number | null;
  agrees: boolean;
}

interface Planned {
  rows: { ou: string; counts: Record<string, number>; other: number | null; total: number; counted: boolean }[];
  requests: number;
  plan: {
    chosen: 'cells' | 'scan';
    planned: 'cells' | 'scan';
    estimates: { cells: { requests: number; seconds: number }; scan: { requests: number; seconds: number } | null };
    verification: string | null;
    verified: Check[];
    fallback: string | null;
  };
}

async function count(env: Record<string, string>, args: string[]): Promise<{ document: Planned; stderr: string }> {
  const { code, stdout, stderr } = await dpx(['count', 'tasks', '--ou', 'all', ...args, '--output', 'json'], { env });
  expect(code, stderr).toBe(0);
  return { document: JSON.parse(stdout) as Planned, stderr };
}

let plane: TaggedPlane | undefined;
afterEach(async () => {
  await plane?.close();
  plane = undefined;
});
const planeEnv = (server: TaggedPlane) => ({ DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'any', DPX_RATE: '100000' });

describe('dpx count --plan', () => {
  it('scan and cells give the same rows on the demo; the scan is verified against every tenant and 3 cells', async () => {
    const [scan, cells] = [
      await count(demoEnv(), ['--by', 'status', '--plan', 'scan']),
      await count(demoEnv(), ['--by', 'status', '--plan', 'cells']),
    ];
    expect(scan.document.rows).toEqual(cells.document.rows);
    expect(scan.document.rows.length).toBeGreaterThan(6);
    expect(scan.document.rows.every((row) => !row.counted && row.other === 0)).toBe(true);
    expect(scan.document.plan).toMatchObject({ chosen: 'scan', verification: 'verified', fallback: null });
    const { verified } = scan.document.plan;
    expect(verified.filter((check) => check.what === 'total')).toHaveLength(6);
    expect(verified.filter((check) => check.what === 'cell')).toHaveLength(3);
    expect(verified.every((check) => check.agrees && check.server === check.scanned)).toBe(true);
    expect(cells.document.plan).toMatchObject({ chosen: 'cells', verified: [], estimates: { scan: null } });
    expect(scan.document.requests).toBeLessThan(cells.document.requests);
    expect(scan.stderr).toBe('');
  });

  it('a matrix cheaper than any scan is counted per cell without a probe', async () => {
    const sent = async (plan: string[]) => {
      const before = demo.region.requestsTo('/tasks');
      const { code, stdout, stderr } = await dpx(
        [
          'count',
          'tasks',
          '--by',
          'status',
          '--values',
          'failed',
          '--ou',
          demo.region.units[1]!.id,
          ...plan,
          '--output',
          'json',
        ],
        { env: demoEnv() },
      );
      expect(code, stderr).toBe(0);
      return { document: JSON.parse(stdout) as Planned, tasks: demo.region.requestsTo('/tasks') - before };
    };
    const [auto, forced] = [await sent([]), await sent(['--plan', 'cells'])];
    expect(auto.document.plan).toMatchObject({ chosen: 'cells', estimates: { cells: { requests: 2 }, scan: null } });
    expect(auto.tasks).toBe(forced.tasks);
  });

  it('--plan names an unknown plan as a usage error', async () => {
    const wrong = await dpx(['count', 'tasks', '--plan', 'fast'], { env: demoEnv() });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--plan fast: no such plan/);
  });

  it('--explain prints both estimates and the choice, asking the list at most twice', async () => {
    const before = demo.region.requestsTo('/tasks');
    const { code, stdout, stderr } = await dpx(['count', 'tasks', '--by', 'status', '--ou', 'all', '--explain'], {
      env: demoEnv(),
    });
    expect(code, stderr).toBe(0);
    // One page to see the total, the unit field and the page size, and the probe's refusal unless an
    // earlier command of this file (one cache folder) learned the page size.
    const toList = demo.region.requestsTo('/tasks') - before;
    expect(toList).toBeGreaterThanOrEqual(1);
    expect(toList).toBeLessThanOrEqual(2);
    expect(stdout).toMatch(/^ {2}cells +[\d,]+ requests +[\d.]+ s {2}a request per unit and value/m);
    expect(stdout).toMatch(
      new RegExp(
        String.raw`^ {2}scan +[\d,]+ requests +[\d.]+ s {2}the root's list read once: [\d,]+ pages of 100 ` +
          String.raw`\([\d,]+ records; unit field organizational_unit_id\), ` +
          "then 6 tenants' totals and 3 random cells checked$",
        'm',
      ),
    );
    expect(stdout).toMatch(/^chosen: scan; the scan is 0\.\d\d× the requests of cells/m);
    expect(stdout).toMatch(
      new RegExp(`^sent to plan it: \\d+ requests \\(the index, the unit list, ${toList} to the list\\)$`, 'm'),
    );
  });
});

describe('the scan checked against the server', () => {
  it("records of one tenant, chosen at random, tagged with another tenant's unit: the scan is not used, and stderr says so", async () => {
    const tenants = 8;
    const mislabelled = Math.floor(Math.random() * tenants);
    // 17 units (the root, 8 tenants, a child each), 200 records each.
    plane = await startTaggedPlane({ tenants, records: 17 * 200, mislabelled });
    const { document, stderr } = await count(planeEnv(plane), ['--by', 'status']);
    expect(document.plan).toMatchObject({
      planned: 'scan',
      chosen: 'cells',
      verification: 'mismatch: counted per cell instead',
    });
    expect(
      document.plan.verified.some(
        (check) => check.ou === `u-${mislabelled}` && check.what === 'total' && !check.agrees,
      ),
    ).toBe(true);
    // stderr names the first tenant found wrong: the one that lost its records or the one that gained them.
    const wrong = `(${mislabelled}|${(mislabelled + 1) % tenants})`;
    expect(stderr).toMatch(
      new RegExp(
        `the scan of tasks at .* was not used \\(Global / Tenant ${wrong}, total: the scan counted \\d+, the server \\d+\\): counted per cell instead`,
      ),
    );
    // The rows are the server's own counts: each tenant and child holds an equal share.
    const tenant = document.rows.find((row) => row.ou === `u-${mislabelled}`)!;
    expect(tenant.total).toBe(400);
  });

  it('a list that gives no counts cannot verify a forced scan: "counted, not verified" in json and on screen', async () => {
    plane = await startTaggedPlane({ tenants: 3, records: 700, noCounts: true });
    const { document, stderr } = await count(planeEnv(plane), ['--plan', 'scan']);
    expect(document.plan).toMatchObject({ chosen: 'scan', verification: 'counted, not verified' });
    expect(document.rows[0]!.total).toBe(700);
    expect(document.rows.every((row) => row.counted)).toBe(true);
    expect(stderr).toMatch(/counted, not verified/);
    const table = await dpx(['count', 'tasks', '--ou', 'all', '--plan', 'scan'], { env: planeEnv(plane) });
    expect(table.stdout).toMatch(/^counted, not verified: one scan of the root's list counted every number/m);
  });

  it('7 units over 20,000 records keep the per-cell plan', async () => {
    plane = await startTaggedPlane({ tenants: 6, children: false, records: 20_000 });
    const { document } = await count(planeEnv(plane), ['--by', 'status']);
    expect(document.rows).toHaveLength(7);
    expect(document.plan.chosen).toBe('cells');
    expect(document.plan.estimates.cells.requests).toBe(7 * (4 + 1));
    expect(document.plan.estimates.scan!.requests).toBe(200 + 6 + 3);
    expect(document.rows[0]!.total).toBe(20_000);
  });
});
