// One question across the demo's two regions (`--profiles all`), checked against each region's answer
// computed here from the server over HTTP: the merged groups are the union of the regions' groups, ranked
// as one table, each tenant named from its own region's unit tree; and the merged question costs no more
// than asking region by region.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoRegion } from '../../../src/demo/server.js';
import { demoPages, useDemo } from '../../helpers/demo.js';
import { addRegionProfiles, regionTokens } from '../../helpers/regions.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo({ tenants: 40, frozen: true });
const FILTER = '{"category":{"$eq":"restore"},"status":{"$eq":"failed"}}';

interface Group {
  key: Record<string, string>;
  count: number;
}

beforeAll(async () => {
  await addRegionProfiles(demo, dpx);
});
afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

/** A run from a cold cache of its own, so that its requests are all it needed. */
async function cold(argv: string[], env: Record<string, string> = regionTokens(demo)) {
  return dpx(argv, { env: { ...env, XDG_CACHE_HOME: temporaryFolder('dpx-regions-') } });
}

const groupsByRegion = new Map<DemoRegion, Promise<Group[]>>();
/**
 * A region's failed restores per tenant, from its own units and tasks as the server gives them. The demo is
 * frozen and these tests write nothing, so each region's 200 pages are read once for the file.
 */
function regionGroups(region: DemoRegion): Promise<Group[]> {
  let groups = groupsByRegion.get(region);
  if (groups === undefined) {
    groups = readRegionGroups(region);
    groupsByRegion.set(region, groups);
  }
  return groups;
}

async function readRegionGroups(region: DemoRegion): Promise<Group[]> {
  const units = await demoPages(region, '/organizational-units?limit=100');
  const byId = new Map(units.map((unit) => [unit.id as string, unit]));
  const root = units.find((unit) => !unit.parent_id);
  const tenantOf = (id: string): string => {
    let unit = byId.get(id);
    while (unit?.parent_id && unit.parent_id !== root.id) unit = byId.get(unit.parent_id);
    return unit.name as string;
  };
  const counts = new Map<string, number>();
  for (const task of await demoPages(region, '/tasks?limit=100')) {
    if (task.category !== 'restore' || task.status !== 'failed') continue;
    const tenant = tenantOf(task.organizational_unit_id);
    counts.set(tenant, (counts.get(tenant) ?? 0) + 1);
  }
  return [...counts].map(([tenant, count]) => ({ key: { profile: region.name, '@tenant': tenant }, count }));
}

const ranked = (groups: Group[]) =>
  [...groups].sort(
    (a, b) =>
      b.count - a.count ||
      `${a.key['profile']}\u0000${a.key['@tenant']}`.localeCompare(`${b.key['profile']}\u0000${b.key['@tenant']}`),
  );

const requestsOf = (stderr: string) => Number(/\((\d+) requests\)/.exec(stderr)?.[1]);

describe('dpx list --group-by @tenant --profiles all', () => {
  it("is the union of the regions' answers, ranked as one table, each tenant named in its own region", async () => {
    const question = ['list', 'tasks', '--filter', FILTER, '--ou', 'all', '--group-by', '@tenant'];
    const run = await cold([...question, '--profiles', 'all', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const merged = (JSON.parse(run.stdout) as { groups: Group[] }).groups;
    const [eu, us] = [await regionGroups(demo.region), await regionGroups(demo.otherRegion)];
    expect(merged).toEqual(ranked([...eu, ...us]));
    expect(merged.length).toBe(eu.length + us.length);
    // The worst tenant of either region comes first.
    expect(merged[0]!.count).toBe(Math.max(...[...eu, ...us].map((group) => group.count)));
    // A tenant name in both regions is two rows, each with its region.
    const usNames = new Set(us.map((group) => group.key['@tenant']));
    const shared = eu.map((group) => group.key['@tenant']!).filter((name) => usNames.has(name));
    expect(shared.length).toBeGreaterThan(0);
    for (const name of shared)
      expect(
        merged
          .filter((group) => group.key['@tenant'] === name)
          .map((group) => group.key['profile'])
          .sort(),
      ).toEqual([demo.region.name, demo.otherRegion.name].sort());
    // No raw unit id stands for a tenant.
    expect(merged.some((group) => /^[0-9a-f]{8}-/.test(group.key['@tenant']!))).toBe(false);

    // stderr ends with one line per region: its records and requests.
    const lines = run.stderr.trimEnd().split('\n').slice(-2);
    const total = (groups: Group[]) => groups.reduce((sum, group) => sum + group.count, 0);
    expect(lines[0]).toMatch(new RegExp(`^${demo.region.name}: ${total(eu)} records, \\d+ requests$`));
    expect(lines[1]).toMatch(new RegExp(`^${demo.otherRegion.name}: ${total(us)} records, \\d+ requests$`));

    // Costs at most 1.1× the same question asked region by region.
    const alone = await Promise.all(
      [demo.region.name, demo.otherRegion.name].map((name) => cold([...question, '--profile', name, '-o', 'json'])),
    );
    const separate = alone.reduce((sum, one) => sum + requestsOf(one.stderr), 0);
    expect(requestsOf(run.stderr)).toBeLessThanOrEqual(Math.floor(separate * 1.1));
  });

  it('names each tenant from its own region without --ou too (the records read from the whole list)', async () => {
    const run = await cold([
      'list',
      'tasks',
      '--filter',
      FILTER,
      '--group-by',
      '@tenant',
      '--profiles',
      'all',
      '-o',
      'json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [eu, us] = [await regionGroups(demo.region), await regionGroups(demo.otherRegion)];
    expect((JSON.parse(run.stdout) as { groups: Group[] }).groups).toEqual(ranked([...eu, ...us]));
  });

  it('a table leads with the profile column', async () => {
    const run = await cold([
      'list',
      'tasks',
      '--filter',
      FILTER,
      '--ou',
      'all',
      '--group-by',
      '@tenant',
      '--profiles',
      'all',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^profile\s+@tenant\s+count/);
  });
});

describe('dpx count --depth 1 --sort -total --profiles all', () => {
  it("ranks both regions' tenants as one table under the regions' totals", async () => {
    const run = await cold([
      'count',
      'tasks',
      '--filter',
      FILTER,
      '--ou',
      'all',
      '--depth',
      '1',
      '--sort',
      '-total',
      '--nonzero',
      '--profiles',
      'all',
      '-o',
      'json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    type Row = { profile: string; ou_name: string; ou_path: string[]; total: number };
    const rows = (JSON.parse(run.stdout) as { rows: Row[] }).rows;
    const [eu, us] = [await regionGroups(demo.region), await regionGroups(demo.otherRegion)];
    const total = (groups: Group[]) => groups.reduce((sum, group) => sum + group.count, 0);
    // The regions' roots first, as the summary; then every tenant of both, worst first.
    expect(rows.slice(0, 2).map((row) => [row.profile, row.ou_path.length, row.total])).toEqual([
      [demo.region.name, 1, total(eu)],
      [demo.otherRegion.name, 1, total(us)],
    ]);
    const tenants = rows.slice(2);
    expect(tenants.map((row) => row.total)).toEqual(ranked([...eu, ...us]).map((group) => group.count));
    const expected = new Map(
      [...eu, ...us].map((group) => [`${group.key['profile']}/${group.key['@tenant']}`, group.count]),
    );
    for (const row of tenants) expect(row.total).toBe(expected.get(`${row.profile}/${row.ou_name}`));
    expect(tenants).toHaveLength(expected.size);
    const lines = run.stderr.trimEnd().split('\n').slice(-2);
    expect(lines[0]).toMatch(new RegExp(`^${demo.region.name}: ${total(eu)} records, \\d+ requests$`));
    expect(lines[1]).toMatch(new RegExp(`^${demo.otherRegion.name}: ${total(us)} records, \\d+ requests$`));
  });
});

describe('dpx list --profiles all --max-items', () => {
  it('takes that many records across the regions, not that many from each', async () => {
    const run = await cold(['list', 'roles', '--profiles', 'all', '--all', '--max-items', '3', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const items = (JSON.parse(run.stdout) as { items: { _context: { profile: string } }[] }).items;
    expect(items).toHaveLength(3);
    const lines = run.stderr.trimEnd().split('\n').slice(-2);
    const given = lines.map((line) => Number(/: (\d+) records?,/.exec(line)?.[1]));
    expect(given[0]! + given[1]!).toBe(3);
  });
});

describe('--profiles, bad input', () => {
  it('an unknown profile exits 2 and names the profiles there are, even beside known ones', async () => {
    for (const names of ['nosuch', `${demo.region.name},nosuch`]) {
      const run = await cold(['list', 'roles', '--profiles', names]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('nosuch');
      expect(run.stderr).toContain(`${demo.region.name}, ${demo.otherRegion.name}`);
    }
  });

  it('a profile without a token is one failed row; the other region answers; exit 1', async () => {
    const run = await cold(['list', 'roles', '--profiles', 'all', '-o', 'json'], {
      EU_TOKEN: demo.region.tokens.personal,
    });
    expect(run.code).toBe(1);
    const document = JSON.parse(run.stdout) as { items: { _context: { profile: string } }[]; errors: unknown[] };
    expect(document.items.length).toBeGreaterThan(0);
    expect(document.items.every((item) => item._context.profile === demo.region.name)).toBe(true);
    expect(document.errors).toEqual([expect.objectContaining({ profile: demo.otherRegion.name })]);
    const count = await cold(['count', 'roles', '--profiles', 'all', '-o', 'json'], {
      EU_TOKEN: demo.region.tokens.personal,
    });
    expect(count.code).toBe(1);
  });
});
