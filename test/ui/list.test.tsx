import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

async function openList(name: string, rows = 30): Promise<Mounted> {
  const mounted = await mount(demo.region, { rows });
  await mounted.waitFor((f) => f.includes('resources'), 'the catalog');
  await mounted.press(':', name, KEY.enter);
  await mounted.waitFor((f) => f.includes(`home › ${name}@`) && /page 1/.test(f), `the ${name} list`);
  return mounted;
}

const cursorLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

describe('list view', () => {
  it('infers columns with identity and status first, and shows totals in the page indicator', async () => {
    ui = await openList('users');
    await ui.waitFor((f) => /page 1\/\d+ · [\d,]+ items/.test(f), 'the totals');
    // Ids alone: names arriving beside them widen the rows past the boolean columns this test reads.
    await ui.press('N');
    const frame = await ui.waitFor((f) => f.includes('ids alone') && !/\S · [0-9a-f]{8}…/.test(f), 'the ids alone');
    const header = frame.split('\n').find((l) => l.includes('ID')) ?? '';
    expect(header.indexOf('ID')).toBeLessThan(header.indexOf('EMAIL'));
    expect(frame).toMatch(/[✓✗]/);
    const response = await fetch(`${demo.region.baseUrl}/users?limit=1`, {
      headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
    });
    const body = (await response.json()) as { total_count: number };
    expect(frame).toContain(`${body.total_count.toLocaleString('en-US')} items`);
  });

  it('colours nothing under NO_COLOR but marks percentages as bars and timestamps as ages', async () => {
    ui = await openList('tasks', 40);
    // Ids alone: a unit's name arriving beside its id, or not yet, changes how many columns fit.
    await ui.press('N');
    const frame = await ui.waitFor((f) => f.includes('ids alone') && !/\S · [0-9a-f]{8}…/.test(f), 'the ids alone');
    expect(frame).toMatch(/[█░]+ +\d+%/);
    expect(frame).not.toMatch(/\x1b\[3\dm/);
    await ui.press(KEY.enter);
    const detail = await ui.waitFor((f) => f.includes('created_timestamp'), 'the detail');
    expect(detail).toMatch(/created_timestamp: \d{4}-\d{2}-\d{2}T[\d:.]+Z {2}\(\d+[smhd] ago\)/);
  });

  it('pages with n, p, g and G by links, and prefetches the next page', async () => {
    ui = await openList('tasks');
    await ui.waitFor((f) => /\b[2-9]\d loaded/.test(f), 'a prefetch to fill the screen');
    await ui.press('n');
    await ui.waitFor((f) => /page 2\b/.test(f), 'page 2');
    await ui.press('n');
    await ui.waitFor((f) => /page 3\b/.test(f), 'page 3');
    await ui.press('p');
    await ui.waitFor((f) => /page 2\b/.test(f), 'back to page 2');
    await ui.press('G');
    const last = await ui.waitFor((f) => /· end/.test(f) && !/page [123]\b/.test(f), 'the last page');
    expect(last).toMatch(/page \d{2,}/);
    await ui.press('g');
    await ui.waitFor((f) => /page 1\b/.test(f), 'the first page');
  });

  it('moves with keys that arrive together, quick-filters and sorts loaded rows', async () => {
    ui = await openList('users');
    await ui.press('jjj');
    const rows = ui
      .frame()
      .split('\n')
      .filter((l) => /^[› ] [0-9a-f]{8}/.test(l));
    expect(cursorLine(ui.frame())).toBe(rows[3]);
    const name = (cursorLine(ui.frame()).match(/[0-9a-f-]{8,}…?\s+(\S+)/) ?? [])[1] ?? '';
    await ui.press('/', name.slice(0, 6));
    await ui.waitFor((f) => f.includes(`/${name.slice(0, 6)}`), 'the quick filter being typed');
    await ui.press(KEY.enter);
    let frame = await ui.waitFor((f) => f.includes(`match "${name.slice(0, 6)}"`), 'the quick filter');
    expect(frame.split('\n').filter((l) => /^[› ] [0-9a-f]{8}/.test(l)).length).toBeLessThan(rows.length);
    await ui.press(KEY.escape);
    await ui.waitFor((f) => !f.includes('match "'), 'the quick filter cleared');
    await ui.press('l', 's');
    frame = await ui.waitFor((f) => /[A-Z_]+↑/.test(f), 'a sort arrow');
    const sortedHeader = (frame.match(/([A-Z_]+)↑/) ?? [])[1] ?? '';
    expect(sortedHeader).not.toBe('ID');
    await ui.press('s');
    await ui.waitFor((f) => f.includes(`${sortedHeader}↓`), 'the reverse sort');
  });

  it('r reloads, w watches, v switches the version', async () => {
    ui = await openList('users');
    const before = demo.region.requestCount();
    await ui.press('r');
    await ui.waitFor(() => demo.region.requestCount() > before, 'the reload request');
    await ui.press('w');
    await ui.waitFor((f) => f.includes('[WATCH]'), 'the watch badge');
    const watching = demo.region.requestCount();
    await ui.waitFor(() => demo.region.requestCount() >= watching + 2, 'two watch re-fetches');
    await ui.press('w');
    await ui.press('v');
    await ui.waitFor((f) => f.includes('version of users'), 'the version picker');
    await ui.press(KEY.down, KEY.enter);
    const frame = await ui.waitFor((f) => f.includes('users@v1') && /page 1/.test(f), 'users v1');
    expect(frame).toContain('home › users@v1');
  });

  it('builds a server-side filter, shows its JSON first, and shows a server error inline', async () => {
    ui = await openList('tasks');
    // Ids alone: names beside them would widen the rows past the status this test reads.
    await ui.press('N');
    await ui.press('f');
    await ui.waitFor((f) => f.includes('server-side filter · field'), 'the builder');
    await ui.press('status', KEY.enter);
    await ui.waitFor((f) => f.includes('operator for status'), 'the operator step');
    await ui.press('$eq', KEY.enter, 'failed');
    let frame = await ui.waitFor((f) => f.includes('filter JSON: {"status":{"$eq":"failed"}}'), 'the JSON preview');
    await ui.press(KEY.enter);
    frame = await ui.waitFor((f) => f.includes('✓ apply the filter'), 'the apply entry');
    await ui.press(KEY.enter);
    frame = await ui.waitFor((f) => f.includes('(filtered)') && /page 1/.test(f), 'the filtered list');
    const statuses = frame.split('\n').filter((l) => /^[› ] [0-9a-f]{8}/.test(l));
    expect(statuses.length).toBeGreaterThan(0);
    for (const line of statuses) expect(line).toContain('failed');

    await ui.press('f', 'progress_percentage', KEY.enter, '$contains', KEY.enter, '5', KEY.enter, KEY.enter);
    // The error itself: "400" alone can stand in a timestamp or an id of the page still loading.
    frame = await ui.waitFor((f) => /\[invalid_filter\]/.test(f), 'the server error');
    expect(frame).toMatch(/\b400\b/);
  });

  it('windows a list as --since does: "since" on the resource\'s time field takes 24h', async () => {
    ui = await openList('tasks');
    await ui.press('f');
    await ui.waitFor((f) => f.includes('⏱ since … (created_timestamp ≥'), 'the since entry on the time field');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes('value for created_timestamp $gte'), 'the value step');
    const typed = Date.now();
    await ui.press('24h', KEY.enter, KEY.enter);
    const frame = await ui.waitFor((f) => f.includes('(filtered)') && /page 1/.test(f), 'the windowed list');
    const list = ui.navigator.top()!.state as { serverFilter?: string };
    const since = Date.parse(
      (JSON.parse(list.serverFilter!) as { created_timestamp: { $gte: string } }).created_timestamp.$gte,
    );
    expect(Math.abs(since - (typed - 86_400_000))).toBeLessThan(60_000);
    expect(frame).toContain('tasks@v1 (filtered)');
  });

  it("offers a field's values while a condition is built: the schema's when it lists them, else the loaded rows'", async () => {
    ui = await openList('alerts');
    await ui.press('f', 'severity', KEY.enter, '$eq', KEY.enter);
    let frame = await ui.waitFor((f) => f.includes('value for severity $eq'), 'the value step');
    expect(frame).toContain('the values the schema allows');
    const schema = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'schemas', 'records', 'alerts.v1.json'), 'utf8'),
    ) as { properties: { severity: { enum: string[] } } };
    for (const severity of schema.properties.severity.enum)
      expect(frame).toMatch(new RegExp(`^[› ] ${severity}$`, 'm'));
    const last = schema.properties.severity.enum.at(-1)!;
    await ui.press(last.slice(0, 3), KEY.tab);
    frame = await ui.waitFor(
      (f) => f.includes(`filter JSON: {"severity":{"$eq":"${last}"}}`),
      'the value taken by Tab',
    );
    await ui.press(KEY.escape);
    await ui.press('f', 'category', KEY.enter, '$eq', KEY.enter);
    frame = await ui.waitFor(
      (f) => f.includes('value for category $eq'),
      'the value step for a field with no listed values',
    );
    expect(frame).toContain('values seen in the loaded rows');
    const shown = (ui.navigator.top()!.state as { suggest(field: string): { values: unknown[] } }).suggest(
      'category',
    ).values;
    expect(shown.length).toBeGreaterThan(1);
    expect(frame).toContain(String(shown[0]));
  });

  it('Esc goes back with the cursor and page restored', async () => {
    ui = await openList('tasks');
    await ui.press('n');
    await ui.waitFor((f) => /page 2\b/.test(f), 'page 2');
    await ui.press('jj');
    // The row by its id: a name may arrive beside another id of it meanwhile.
    const rowId = (frame: string) => cursorLine(frame).split(/\s+/)[1];
    const row = rowId(ui.frame());
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes('fields ·'), 'the detail');
    await ui.press(KEY.escape);
    const frame = await ui.waitFor((f) => /page 2\b/.test(f), 'the list again');
    expect(rowId(frame)).toBe(row);
    await ui.press(KEY.backspace);
    await ui.waitFor((f) => f.includes('resources') && !f.includes('tasks@'), 'home');
  });
});
