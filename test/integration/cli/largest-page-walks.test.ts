// Every walk at the largest page, on the 40-tenant demo over HTTP, counted in the demo's request log: a
// fan-out over named units and one over profiles, an x-ray's inbound queries — each learning the page
// size once per control plane and list (the demo refuses 1000, naming its range of 1 to 100), not per
// unit. And a merged list read once where the root's list does not hold every unit's records: one
// tenant the demo hides from requests without a unit, found by the counts and read from its own scope.
import { afterAll, describe, expect, it } from 'vitest';
import { demoPages, demoRequest, useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true, hiddenTenants: 1 });
const HEADER = 'x-service-organizationalunit-context';
const env = () => ({
  DPX_BASE_URL: demo.region.baseUrl,
  DPX_TOKEN: demo.region.tokens.personal,
  DPX_RATE: '100000',
  DPX_CONCURRENCY: '16',
});

afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

/** The requests a run sent to one list, as the demo logged them: each one's page size (`limit`), null for none. */
async function logged<T>(
  region: typeof demo.region,
  path: string,
  run: () => Promise<T>,
): Promise<{ result: T; limits: (string | null)[] }> {
  const from = region.requestLog().length;
  const result = await run();
  const limits = region
    .requestLog()
    .slice(from)
    .map((line) => new URL(line.slice(line.indexOf(' ') + 1), region.baseUrl))
    .filter((url) => url.pathname === path)
    .map((url) => url.searchParams.get('limit'));
  return { result, limits };
}

async function total(path: string, unit?: string): Promise<number> {
  const { status, body } = await demoRequest(demo.region, `${path}?limit=1`, {
    headers: unit === undefined ? {} : { [HEADER]: unit },
  });
  expect(status).toBe(200);
  return body.total_count as number;
}

const pagesOf = (records: number) => Math.max(1, Math.ceil(records / 100));

describe('every walk at the largest page', () => {
  it(
    'a fan-out over named units (every tenant but the hidden one): ' +
      'the page size is learned once, by the first unit, and every unit walks at 100',
    async () => {
      const tenants = demo.region.units.filter(
        (unit) => unit.kind === 'tenant' && !demo.region.hiddenTenants.includes(unit),
      );
      const totals = await Promise.all(tenants.map((tenant) => total('/tasks', tenant.id)));
      const { result, limits } = await logged(demo.region, '/tasks', () =>
        dpx(['list', 'tasks', '--ou', tenants.map((tenant) => tenant.id).join(','), '--all', '-o', 'json'], {
          env: env(),
        }),
      );
      expect(result.code, result.stderr).toBe(0);
      const items = (JSON.parse(result.stdout) as { items: { id: string }[] }).items;
      expect(items).toHaveLength(totals.reduce((sum, one) => sum + one, 0));
      // One probe for the list (refused: the demo names its range), then every unit's pages at the largest size.
      expect(limits.filter((limit) => limit === '1000')).toHaveLength(1);
      expect(limits.filter((limit) => limit !== '1000').every((limit) => limit === '100')).toBe(true);
      expect(limits).toHaveLength(1 + totals.reduce((sum, one) => sum + pagesOf(one), 0));
    },
  );

  it('a fan-out over profiles: each control plane learns it once, and walks at 100', async () => {
    await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-env', 'EU_TOKEN']);
    await dpx(['profile', 'add', 'us', '--base-url', demo.otherRegion.baseUrl, '--token-env', 'US_TOKEN']);
    const tokens = {
      EU_TOKEN: demo.region.tokens.personal,
      US_TOKEN: demo.otherRegion.tokens.personal,
      DPX_RATE: '100000',
    };
    const eu = (await demoRequest(demo.region, '/alerts?limit=1')).body.total_count as number;
    const us = (await demoRequest(demo.otherRegion, '/alerts?limit=1')).body.total_count as number;
    const fromUs = demo.otherRegion.requestLog().length;
    const { result, limits } = await logged(demo.region, '/alerts', () =>
      dpx(['list', 'alerts', '--profiles', 'eu,us', '--all', '-o', 'json'], { env: tokens }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toHaveLength(eu + us);
    const usLimits = demo.otherRegion
      .requestLog()
      .slice(fromUs)
      .filter((line) => line.includes('/alerts'))
      .map((line) => new URL(line.split(' ')[1]!, demo.otherRegion.baseUrl).searchParams.get('limit'));
    for (const [seen, records] of [
      [limits, eu],
      [usLimits, us],
    ] as const) {
      expect(seen).toEqual(['1000', ...Array.from({ length: pagesOf(records) }, () => '100')]);
    }
  });

  it('an x-ray: each list it searches is asked at its largest page, learned once per list', async () => {
    const group = (await demoRequest(demo.region, '/protection-groups?limit=1')).body._embedded.items[0] as {
      id: string;
    };
    const from = demo.region.requestLog().length;
    const { code, stdout, stderr } = await dpx(['xray', 'protection-groups', group.id, '-o', 'json'], { env: env() });
    expect(code, stderr).toBe(0);
    const queries = demo.region
      .requestLog()
      .slice(from)
      .map((line) => new URL(line.slice(line.indexOf(' ') + 1), demo.region.baseUrl))
      .filter((url) => url.searchParams.has('filter'));
    const lists = new Set(queries.map((url) => url.pathname));
    expect(lists.size).toBeGreaterThan(1);
    for (const list of lists) {
      const limits = queries.filter((url) => url.pathname === list).map((url) => url.searchParams.get('limit'));
      // Probed once, or not at all where an earlier run of this file (one cache folder) learned it.
      expect(limits.filter((limit) => limit === '1000').length, list).toBeLessThanOrEqual(1);
      expect(
        limits.filter((limit) => limit !== '1000').every((limit) => limit === '100'),
        list,
      ).toBe(true);
    }
    expect(JSON.parse(stdout).requests).toBe(demo.region.requestLog().length - from - 1);
  });
});

describe("a merged list read once, where the root's list lacks a tenant", () => {
  it("reads the tenant from its own scope after the root's list: every record once, within 1.1× the root's pages plus the tenant's", async () => {
    const [hidden] = demo.region.hiddenTenants;
    expect(hidden).toBeDefined();
    const root = await demoPages(demo.region, '/tasks?limit=100');
    const own = await demoPages(demo.region, '/tasks?limit=100', { [HEADER]: hidden!.id });
    const rootUnit = demo.region.units.find((unit) => unit.kind === 'root')!;
    const everything = await total('/tasks', rootUnit.id);
    expect(own.length).toBeGreaterThan(0);
    expect(root.length + own.length).toBe(everything);
    const rootIds = new Set(root.map((task) => task.id as string));
    expect(own.some((task) => rootIds.has(task.id as string))).toBe(false);

    const { result, limits } = await logged(demo.region, '/tasks', () =>
      dpx(['list', 'tasks', '--ou', 'all', '--all', '-o', 'json'], { env: env() }),
    );
    const { code, stdout, stderr } = result;
    expect(code, stderr).toBe(0);
    const items = (
      JSON.parse(stdout) as { items: { id: string; organizational_unit_id: string; _context: { ou: string } }[] }
    ).items;
    // The root's records in the server's order, then the tenant's, in its scope's order: each record once.
    expect(items.map((item) => item.id)).toEqual([...root.map((task) => task.id), ...own.map((task) => task.id)]);
    for (const item of items) expect(item._context.ou).toBe(item.organizational_unit_id);
    expect(stderr).toContain(
      `read once: the root's list lacks ${own.length} of the ${own.length} records ` +
        `of ${rootUnit.name} / ${hidden!.name}: read from its own scope after the root's list`,
    );
    const rootPages = pagesOf(root.length);
    const tenantPages = pagesOf(own.length);
    expect(limits.length).toBeLessThanOrEqual(Math.floor(1.1 * rootPages) + tenantPages);
    // The probe (unless an earlier run of this file learned the size), the root's pages, the counts that
    // found the tenant (the root unit's, then the tenant's: the root's list showed none of it, so it was
    // asked first), and the tenant's pages.
    const probes = limits.filter((limit) => limit === '1000').length;
    expect(probes).toBeLessThanOrEqual(1);
    expect(limits).toHaveLength(probes + rootPages + 2 + tenantPages);
  });
});
