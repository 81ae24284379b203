// One question across units and control planes, in the explorer, on the demo's two regions: the count
// matrix fills in cell by cell (a slow unit never holds up the others), Enter on a cell opens that unit's
// list filtered by the value, P adds every profile, and :<resource> @all merges every unit's list.
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import type { CountState } from '../../src/ui/screens/count/count.js';
import { shownRows } from '../../src/ui/screens/count/rows.js';
import { cellOf } from '../../src/ui/screens/count/state.js';
import type { ListState } from '../../src/ui/screens/list/state.js';
import type { MergedState } from '../../src/ui/screens/merged/fan-out.js';
import type { RecordState } from '../../src/ui/screens/record/state.js';
import { configProfiles } from '../../src/ui/services/connection.js';
import { demoRequest, useDemo } from '../helpers/demo.js';
import { startHoldingProxy } from '../helpers/holding-proxy.js';
import type { TestServer } from '../helpers/servers.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
const OU_HEADER = 'x-service-organizationalunit-context';
let ui: Mounted | undefined;
let dir: string;
let configPath: string;
let slow: TestServer;
let slowUnit = '';
/** Holds back every answer for `slowUnit` until the test lets them go (no clock: a busy machine only waits longer). */
let heldBack = Promise.resolve();
let letGo = () => {};

beforeAll(async () => {
  dir = temporaryFolder('dpx-fanout-');
  configPath = join(dir, 'config.json');
  for (const [name, region] of [
    ['eu', demo.region],
    ['us', demo.otherRegion],
  ] as const) {
    await writeFile(join(dir, `${name}.token`), `${region.tokens.personal}\n`);
    await chmod(join(dir, `${name}.token`), 0o600);
  }
  await writeFile(
    configPath,
    JSON.stringify({
      current: 'eu',
      profiles: {
        eu: { baseUrl: demo.region.baseUrl, tokenFile: 'eu.token' },
        us: { baseUrl: demo.otherRegion.baseUrl, tokenFile: 'us.token' },
      },
    }),
    { mode: 0o600 },
  );
  // The first region behind a proxy that holds back every answer for one unit.
  slow = await startHoldingProxy(demo.region, (request) =>
    request.headers[OU_HEADER] === slowUnit ? heldBack : undefined,
  );
});
afterAll(async () => {
  await slow.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  letGo();
  await ui?.unmount();
  ui = undefined;
});

const top = (mounted: Mounted) => mounted.navigator.top()!;
const units = async () =>
  (await demoRequest(demo.region, '/organizational-units?limit=100')).body._embedded.items as {
    id: string;
    name: string;
  }[];

async function countIn(unit: string, filter: Record<string, unknown>): Promise<number> {
  return (
    await demoRequest(demo.region, `/tasks?limit=1&filter=${encodeURIComponent(JSON.stringify(filter))}`, {
      headers: { [OU_HEADER]: unit },
    })
  ).body.total_count as number;
}

describe('the count matrix', () => {
  it('fills in cell by cell without waiting for a slow unit; each count is what the server reports for the unit', async () => {
    const all = await units();
    const [fast, held] = [all[1]!, all[2]!];
    slowUnit = held.id;
    heldBack = new Promise((resolve) => (letGo = resolve));
    // Slots enough for every held request and the others besides: what is tested is the matrix, not the limiter.
    // And no request timeout before the test's own: on a busy machine the held answers waited over the 30 s
    // default, and a held cell failed instead of waiting.
    const session = new Session({
      baseUrl: slow.baseUrl,
      token: demo.region.tokens.personal,
      concurrency: 32,
      timeoutMs: 120_000,
    });
    ui = await mount(demo.region, { rows: 40, context: { session } });
    const state = () => top(ui!).state as CountState;
    const rowOf = (id: string) => state().plan?.rows.findIndex((row) => row.scope.ou === id) ?? -1;
    const answered = (id: string) =>
      rowOf(id) >= 0 ? (state().cells[rowOf(id)] ?? []).filter((cell) => cell !== undefined).length : 0;
    // A request per unit and value (the scan the planner picks here would read every unit's records at once).
    await ui.press(':', 'count tasks by status plan cells', KEY.enter);
    // The slow unit's answers are held until the fast unit has every count: a matrix that waited for it would never get there.
    await ui.waitFor(
      () => answered(fast.id) > (state().plan?.columns.length ?? Infinity),
      'every count of the fast unit',
    );
    const heldRow = await ui.waitFor(
      (f) => f.split('\n').some((line) => line.includes(held.name) && line.includes('…')),
      'the slow unit still waiting on screen',
    );
    expect(heldRow).toContain('…');
    // The fast unit's total and every value are in while the slow unit, held back until letGo, has
    // answered nothing.
    expect(answered(fast.id)).toBe(state().plan!.columns.length + 1);
    expect(answered(held.id)).toBe(0);
    letGo();
    await ui.waitFor(
      () =>
        (state().cells[rowOf(held.id)] ?? []).filter((cell) => typeof cell === 'number').length >
        state().plan!.columns.length,
      'the slow unit at last, every value and its total',
    );
    const plan = state().plan!;
    const failed = plan.columns.findIndex((column) => column.value === 'failed');
    expect(state().cells[rowOf(held.id)]![failed]).toBe(await countIn(held.id, { status: { $eq: 'failed' } }));
    expect(state().cells[rowOf(fast.id)]![failed]).toBe(await countIn(fast.id, { status: { $eq: 'failed' } }));
  });

  it("Enter on a cell opens that unit's list filtered by the value, in that unit, named in the header", async () => {
    const unit = (await units())[1]!;
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'count tasks by status', KEY.enter);
    const state = () => top(ui!).state as CountState;
    await ui.waitFor(() => state().plan !== undefined && !state().loading, 'every count');
    const row = state().plan!.rows.findIndex((r) => r.scope.ou === unit.id);
    const failed = state().plan!.columns.findIndex((c) => c.value === 'failed');
    await ui.press(...Array.from({ length: row }, () => KEY.down));
    // The values that mean trouble come first, right after the total.
    await ui.press(KEY.right);
    expect(state().column).toBe(failed);
    await ui.press(KEY.enter);
    const frame = await ui.waitFor(
      (f) => f.includes('(filtered)') && /page 1\//.test(f) && f.split('\n')[0]!.includes(`OU ${unit.name}`),
      "the unit's failed tasks",
    );
    const list = top(ui).state as ListState;
    expect(list.origin.ou).toBe(unit.id);
    expect(list.serverFilter).toBe('{"status":{"$eq":"failed"}}');
    expect(frame).toContain(`${(await countIn(unit.id, { status: { $eq: 'failed' } })).toLocaleString('en-US')} items`);
    // The explorer's own unit is untouched.
    expect(ui.session.ou).toBeUndefined();
  });

  it("P adds every profile: both regions' units, each row naming its profile", async () => {
    const profiles = configProfiles(configPath, { DPX_CONFIG: configPath }, {});
    const eu = await profiles.connect('eu');
    ui = await mount(demo.region, { rows: 60, context: { ...eu, profiles, configPath } });
    await ui.press(':', 'count tasks', KEY.enter);
    const state = () => top(ui!).state as CountState;
    await ui.waitFor(() => state().plan !== undefined && !state().loading, 'the totals of eu');
    const euRows = state().plan!.rows.length;
    await ui.press('P');
    await ui.waitFor(() => (state().plan?.rows.length ?? 0) > euRows && !state().loading, 'both profiles');
    const rows = state().plan!.rows;
    expect(new Set(rows.map((row) => row.scope.source.profile))).toEqual(new Set(['eu', 'us']));
    // Drawn within a frame of the state (background work is drawn at a pace).
    await ui.waitFor((f) => /^us · /m.test(f), 'the rows of us drawn');
  });

  it("P with a sort ranks both regions as one table, under the regions' totals, as --profiles does", async () => {
    const profiles = configProfiles(configPath, { DPX_CONFIG: configPath }, {});
    const eu = await profiles.connect('eu');
    ui = await mount(demo.region, { rows: 60, context: { ...eu, profiles, configPath } });
    await ui.press(':', 'count tasks depth 1 sort -total', KEY.enter);
    const state = () => top(ui!).state as CountState;
    await ui.waitFor(() => state().plan !== undefined && !state().loading, 'the totals of eu');
    const euRows = state().plan!.rows.length;
    await ui.press('P');
    await ui.waitFor(() => (state().plan?.rows.length ?? 0) > euRows && !state().loading, 'both profiles');
    const { plan } = state();
    const order = shownRows(state()).map((index) => ({
      scope: plan!.rows[index]!.scope,
      total: cellOf(state(), index, plan!.columns.length + 1),
    }));
    // Each region's root first, then every tenant of both regions by total, largest first.
    expect(order.slice(0, 2).map(({ scope }) => [scope.source.profile, scope.depth])).toEqual([
      ['eu', 0],
      ['us', 0],
    ]);
    const tenants = order.slice(2);
    expect(new Set(tenants.map(({ scope }) => scope.source.profile))).toEqual(new Set(['eu', 'us']));
    const totals = tenants.map(({ total }) => total as number);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    // Not one region after the other: the ranking interleaves them.
    const runs = tenants.filter(
      (entry, index) => index > 0 && entry.scope.source.profile !== tenants[index - 1]!.scope.source.profile,
    );
    expect(runs.length).toBeGreaterThan(1);
  });
});

describe(':<resource> @all', () => {
  it("merges every unit's list, each record once, tagged with its deepest unit, and opens a record in its unit", async () => {
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'tasks @all', KEY.enter);
    const state = () => top(ui!).state as MergedState;
    await ui.waitFor(
      () => state().scopes.length > 0 && state().asking === 0 && state().rows.length > 0,
      "every unit's first page",
    );
    const ids = state().rows.map((row) => row['id']);
    expect(new Set(ids).size).toBe(ids.length);
    await ui.waitFor((f) => f.includes('@UNIT'), 'the unit column drawn');
    const first = state().rows[0]!;
    const scope = state().scopeOf.get(first)!;
    // Deepest units are read first: the first record's unit holds no other chosen unit.
    expect(state().scopes.some((other) => other.within.includes(scope.ou!))).toBe(false);
    await ui.press(KEY.enter);
    const record = top(ui).state as RecordState;
    expect(record.record['id']).toBe(first['id']);
    expect(record.origin.ou).toBe(scope.ou);
    expect(record.record['@unit']).toBeUndefined();
  });

  it('names the ids of its rows as a list does, reading only those on screen; N shows the ids alone', async () => {
    const logged = demo.region.requestLog().length;
    ui = await mount(demo.region, { rows: 24 });
    await ui.press(':', 'tasks @all', KEY.enter);
    const state = () => top(ui!).state as MergedState;
    await ui.waitFor(
      () => state().scopes.length > 0 && state().asking === 0 && state().rows.length > 0,
      "every unit's first page",
    );
    const named = /\S · [0-9a-f]{8}…/;
    // A unit's id is named from the tree, a protection group's by reading it once.
    const first = state().rows[0]!;
    const unit = (await units()).find((candidate) => candidate.id === first['organizational_unit_id'])!;
    await ui.waitFor((f) => f.includes(`${unit.name} · ${unit.id.slice(0, 8)}…`), 'the unit named beside its id');
    const grouped = state()
      .rows.slice(0, 10)
      .find((row) => typeof row['protection_group_id'] === 'string')!;
    const line = (frame: string) =>
      frame.split('\n').find((each) => each.includes((grouped['id'] as string).slice(0, 12)))!;
    await ui.waitFor(
      (f) => !line(f).includes((grouped['protection_group_id'] as string).slice(0, 8)),
      'the protection group read and named',
    );
    const groupReads = demo.region
      .requestLog()
      .slice(logged)
      .filter((entry) => /^GET \/protection-groups\/[0-9a-f-]{36}/.test(entry));
    // At most one read per protection group on screen (24 rows at most), however many rows are loaded.
    expect(state().rows.length).toBeGreaterThan(24);
    expect(groupReads.length).toBeGreaterThan(0);
    expect(groupReads.length).toBeLessThanOrEqual(24);
    expect(new Set(groupReads).size).toBe(groupReads.length);
    const group = (await demoRequest(demo.region, `/protection-groups/${grouped['protection_group_id'] as string}`))
      .body as { name: string };
    expect(line(ui.frame())).toContain(group.name.slice(0, 8));
    await ui.press('N');
    await ui.waitFor((f) => !named.test(f), 'the ids alone');
  });
});

describe('the question a list asks, kept', () => {
  const filter = '{"category":{"$eq":"restore"}}';
  // Without the default ceiling of 50 requests a second: a matrix of the demo's units is ~160 requests.
  const fast = () => ({
    rows: 40,
    context: {
      session: new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, ratePerSecond: 10_000 }),
    },
  });

  it(":count from a filtered list counts with its filter; the root's total is the server's filtered total", async () => {
    ui = await mount(demo.region, fast());
    ui.navigator.open('list', {
      origin: ui.navigator.services.origin(),
      source: { kind: 'resource', resource: 'tasks' },
      serverFilter: filter,
    });
    await ui.waitFor((f) => f.includes('(filtered)') && /page 1\//.test(f), 'the filtered list');
    await ui.press(':', 'count tasks by status', KEY.enter);
    const state = () => top(ui!).state as CountState;
    await ui.waitFor(() => state().plan !== undefined && !state().loading, 'every count');
    expect(state().filter).toBe(filter);
    const root = state().plan!.rows.findIndex((row) => row.scope.depth === 0);
    const total = state().results[root]!.total;
    expect(total).toBe(await countIn(state().plan!.rows[root]!.scope.ou!, { category: { $eq: 'restore' } }));
    expect(total).toBeLessThan(await countIn(state().plan!.rows[root]!.scope.ou!, {}));
    await ui.waitFor((f) => f.includes(`where ${filter}`), 'the filter drawn');
  });

  it(':count … where … from the palette takes the filter typed', async () => {
    ui = await mount(demo.region, fast());
    await ui.press(':', `count tasks by status where ${filter}`, KEY.enter);
    const state = () => top(ui!).state as CountState;
    await ui.waitFor(() => state().plan !== undefined && !state().loading, 'every count');
    expect(state().by).toBe('status');
    expect(state().filter).toBe(filter);
    const root = state().plan!.rows.findIndex((row) => row.scope.depth === 0);
    expect(state().results[root]!.total).toBe(
      await countIn(state().plan!.rows[root]!.scope.ou!, { category: { $eq: 'restore' } }),
    );
  });

  it("@all from a filtered list merges that list's filter in every unit", async () => {
    ui = await mount(demo.region, { rows: 40 });
    ui.navigator.open('list', {
      origin: ui.navigator.services.origin(),
      source: { kind: 'resource', resource: 'tasks' },
      serverFilter: filter,
    });
    await ui.waitFor((f) => f.includes('(filtered)') && /page 1\//.test(f), 'the filtered list');
    await ui.press(':', 'tasks @all', KEY.enter);
    const state = () => top(ui!).state as MergedState;
    await ui.waitFor(
      () => state().scopes.length > 0 && state().asking === 0 && state().rows.length > 0,
      "every unit's first page",
    );
    expect(state().filter).toBe(filter);
    expect(state().rows.every((row) => row['category'] === 'restore')).toBe(true);
    await ui.waitFor((f) => f.includes('@all (filtered)'), 'the filtered merged list drawn');
  });
});

describe('the OU picker by name or path', () => {
  it('finds the unit a path names and shows each match with its path; Enter acts in it', async () => {
    const all = (await units()) as { id: string; name: string; parent_id?: string | null }[];
    const emea = all.find((unit) => unit.name === 'EMEA')!;
    ui = await mount(demo.region, { rows: 30 });
    ui.navigator.open('ou-picker', {});
    await ui.waitFor((f) => /\(\d+ units\)/.test(f), 'the OU picker');
    await ui.press('Acme Corp/EMEA');
    await ui.waitFor((f) => /› EMEA\s+Global \/ Acme Corp \/ EMEA/.test(f), 'EMEA first, with its path');
    await ui.press(KEY.enter);
    await ui.waitFor(() => ui!.session.ou === emea.id, 'the unit set');
  });
});
