// The count matrix as a table to work, on the 40-tenant demo: the palette's count takes what `dpx count`'s
// options take (a window, a depth, a sort, nonzero), `s` ranks the rows by the column under the cursor,
// `S` orders the value columns, `/` finds units by name or path (its letters are text, never commands), a
// recount that would send many requests asks first, and the rows keep their ranking while the numbers of
// a recount fill in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import type { CountState } from '../../src/ui/screens/count/count.js';
import { shownRows } from '../../src/ui/screens/count/rows.js';
import { demoRequest, useDemo } from '../helpers/demo.js';
import { startHoldingProxy } from '../helpers/holding-proxy.js';
import type { TestServer } from '../helpers/servers.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo({ tenants: 40, frozen: true });
let ui: Mounted | undefined;
let proxy: TestServer;
/** While set, the proxy holds every answer until it is let go (no clock: a busy machine only waits longer). */
let held: Promise<void> | undefined;

beforeAll(async () => {
  proxy = await startHoldingProxy(demo.region, () => held);
});
afterAll(async () => {
  await proxy.close();
});
afterEach(async () => {
  held = undefined;
  await ui?.unmount();
  ui = undefined;
});

const state = () => ui!.navigator.top()!.state as CountState;
const counted = () => state().plan !== undefined && state().loading === undefined && state().answered > 0;

function start(rows = 24, columns = 80): Promise<Mounted> {
  return mount(demo.region, {
    rows,
    columns,
    context: { session: new Session({ baseUrl: proxy.baseUrl, token: demo.region.tokens.personal, concurrency: 16 }) },
  });
}

/** The plan's rows as shown, by the number in one column (a value's index, or the total). */
function shownCounts(cell: number): (number | undefined)[] {
  return shownRows(state()).map((row) => {
    const value = state().cells[row]?.[cell];
    return typeof value === 'number' ? value : undefined;
  });
}

describe('the count matrix is a table to work', () => {
  it(':count … since 24h depth 1 sort -failed counts the window by tenant, most failed first, as --sort -failed does', async () => {
    ui = await start();
    await ui.press(':', 'count restores by status since 24h depth 1 sort -failed', KEY.enter);
    await ui.waitFor(counted, 'the matrix counted', 30_000);
    const { plan } = state();
    expect(plan!.rows.every((row) => row.scope.depth <= 1)).toBe(true);
    expect(state().windowText).toMatch(/^created_timestamp ≥ \d{4}-/);
    const failed = plan!.columns.findIndex((column) => column.value === 'failed');
    expect(state().sort).toEqual({ cell: failed, descending: true });
    // The root first, then its tenants by their failed restores, most first.
    const tenants = shownCounts(failed).slice(1);
    expect(tenants).toEqual([...tenants].sort((a, b) => (b ?? -1) - (a ?? -1)));
    expect(tenants[0]).toBeGreaterThan(0);
    // The root's total is the server's count of the window.
    const since = /≥ (\S+)/.exec(state().windowText!)![1]!;
    const windowed = await demoRequest(
      demo.region,
      `/restores?limit=1&filter=${encodeURIComponent(JSON.stringify({ created_timestamp: { $gte: since } }))}`,
    );
    expect(state().cells[0]![plan!.columns.length]).toBe(windowed.body.total_count);
    const all = await demoRequest(demo.region, '/restores?limit=1');
    expect(windowed.body.total_count).toBeLessThan(all.body.total_count);
    await ui.waitFor(
      (f) => f.includes('↓failed') && f.includes('created_timestamp ≥'),
      'the sort and the window drawn',
    );
  });

  it('nonzero leaves out the units whose total is 0', async () => {
    ui = await start();
    await ui.press(':', 'count restores by status since 24h depth 1 nonzero', KEY.enter);
    await ui.waitFor(counted, 'the matrix counted', 30_000);
    const total = state().plan!.columns.length;
    expect(shownRows(state()).length).toBeLessThan(state().plan!.rows.length);
    expect(shownCounts(total).every((count) => count !== 0)).toBe(true);
  });

  it('s ranks the rows by the column under the cursor, again the other way; S orders the value columns', async () => {
    ui = await start();
    await ui.press(':', 'count restores by status depth 1', KEY.enter);
    await ui.waitFor(counted, 'the matrix counted', 30_000);
    const total = state().plan!.columns.length;
    const tree = shownRows(state());
    await ui.press('s');
    const down = shownCounts(total).slice(1);
    expect(down).toEqual([...down].sort((a, b) => b! - a!));
    expect(shownRows(state())).not.toEqual(tree);
    await ui.press('s');
    const up = shownCounts(total).slice(1);
    expect(up).toEqual([...up].sort((a, b) => a! - b!));
    await ui.waitFor((f) => f.includes('↑total'), 'the sort drawn');
    // The cursor's column moves, and s sorts by that one.
    await ui.press(KEY.right, 's');
    const cell = state().column;
    expect(cell).not.toBe(total);
    const byValue = shownCounts(cell).slice(1);
    expect(byValue).toEqual([...byValue].sort((a, b) => b! - a!));
    // S orders the value columns by name, and leaves the rows' order alone.
    const rows = shownRows(state());
    const heading = (f: string) =>
      f
        .split('\n')
        .find((line) => line.startsWith('UNIT'))!
        .replace(/[↑↓]/g, '')
        .trim()
        .split(/\s+/)
        .slice(2);
    await ui.press('S');
    const values = heading(ui.frame());
    expect(values).toEqual([...values].sort((a, b) => a.localeCompare(b)));
    expect(shownRows(state())).toEqual(rows);
    expect(ui.navigator.keyTables()[0]!.bindings.map((binding) => binding.keys.join(' '))).toEqual(
      expect.arrayContaining(['s', 'S']),
    );
  });

  it('/ finds units by name or path; the letters typed are text (r starts no recount)', async () => {
    ui = await start(24, 100);
    await ui.press(':', 'count restores', KEY.enter);
    await ui.waitFor(counted, 'the matrix counted', 30_000);
    const asked = proxy.requests.length;
    await ui.press('/', 'w', 'a', 'r', 's', 'a', 'w');
    expect(state().localFilter).toBe('warsaw');
    expect(state().loading).toBeUndefined();
    // Nothing was sent: `r` typed no recount.
    expect(proxy.requests.length).toBe(asked);
    const rows = shownRows(state()).map((row) => state().plan!.rows[row]!.scope);
    expect(rows.filter((scope) => scope.ouName === 'Warsaw').length).toBeGreaterThan(1);
    expect(rows.every((scope) => scope.path.includes('Warsaw'))).toBe(true);
    await ui.press(KEY.enter);
    // The units named alike are each shown by the end of their path.
    const frame = await ui.waitFor((f) => f.includes('units matching "warsaw"'), 'the rows found');
    const lines = frame.split('\n').filter((line) => /Warsaw\s{2,}\d/.test(line));
    expect(lines.length).toBeGreaterThan(1);
    expect(
      lines.every((line) => / \/ Warsaw/.test(line)),
      frame,
    ).toBe(true);
    expect(new Set(lines.map((line) => line.trim().split(/\s{2,}/)[0])).size).toBe(lines.length);
    // A path finds too.
    await ui.press('/', KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    const path = rows[0]!.path.slice(-2).join('/');
    await ui.press(...path);
    expect(shownRows(state()).map((row) => state().plan!.rows[row]!.scope)).toContain(rows[0]);
  });

  it('a recount that would send more than 50 requests asks first; meanwhile the rows keep their ranking', async () => {
    ui = await start();
    await ui.press(':', 'count restores by status depth 1 plan cells', KEY.enter);
    await ui.waitFor(counted, 'the matrix counted', 30_000);
    expect(state().lastRequests).toBeGreaterThan(50);
    await ui.press('s');
    const ranked = shownRows(state());
    const asked = proxy.requests.length;
    await ui.press('r');
    await ui.waitFor((f) => f.includes('Count again?'), 'the question');
    expect(ui.navigator.top()!.kind).toBe('choose');
    await ui.press(KEY.escape);
    expect(ui.navigator.top()!.kind).toBe('count');
    expect(proxy.requests.length).toBe(asked);
    // Asked again, and yes: the answers are held while the rows are looked at.
    let letGo = () => {};
    held = new Promise((resolve) => (letGo = resolve));
    await ui.press('r');
    await ui.waitFor((f) => f.includes('Count again?'), 'the question');
    await ui.press(KEY.enter);
    await ui.waitFor(() => proxy.requests.length > asked, 'the recount under way');
    expect(state().loading).toBeDefined();
    expect(shownRows(state())).toEqual(ranked);
    letGo();
    held = undefined;
    await ui.waitFor(counted, 'the recount', 30_000);
    expect(shownRows(state())).toEqual(ranked);
  });
});
