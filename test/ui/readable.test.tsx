// The 40-tenant demo at 80×24, as a support engineer reads it: an x-ray opened from a merged list reads
// the record's links from a unit that sees them (no false 404 on a unit's parent) and counts only the lists
// that do refer to it; units named alike are told apart by their path wherever a unit is shown.
import { afterEach, describe, expect, it } from 'vitest';
import type { MergedState } from '../../src/ui/screens/merged/fan-out.js';
import type { XrayState } from '../../src/ui/screens/xray/xray.js';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';
import { step } from './step.js';

const demo = useDemo({ tenants: 40, frozen: true });
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const top = () => ui!.navigator.top()!;

describe('an x-ray from a merged list', () => {
  it("follows a deep unit's parent without a 404, and counts only the lists that do refer", async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await ui.press(':', 'restores @all', KEY.enter);
    const merged = () => top().state as MergedState;
    await ui.waitFor(() => top().kind === 'merged-list' && merged().rows.length > 0, 'the merged restores', 30_000);
    // A record of a unit below a tenant: its unit's parent is outside its own unit's scope.
    const deep = merged().rows.findIndex((row) => (merged().scopeOf.get(row)?.depth ?? 0) >= 2);
    expect(deep).toBeGreaterThanOrEqual(0);
    await ui.press(...Array.from({ length: deep }, () => KEY.down), 'X');
    const xray = () => top().state as XrayState;
    await ui.waitFor(() => top().kind === 'xray' && xray().loading === undefined, 'the x-ray', 30_000);
    const parents = xray().edges.filter((edge) => edge.rel === 'parent');
    expect(parents.length).toBeGreaterThan(0);
    expect(Object.values(xray().nodes).filter((node) => node.state === 'failed')).toEqual([]);
    const referring = xray().inbound.filter((group) => (group.total ?? group.keys.length) > 0).length;
    expect(xray().inbound.length).toBeGreaterThan(referring);
    // Frames are drawn at a pace behind the state: the status is waited for as the finished x-ray says it.
    const status = new RegExp(`· ${referring} lists? refers? to it`);
    const frame = await ui.waitFor((f) => status.test(f) && !f.includes('x-ray:'), 'the status of the finished x-ray');
    expect(frame).not.toContain('✗ HTTP 404');
  });
});

describe('units named alike', () => {
  it('@UNIT in a merged list and the diff chooser show the end of their path', async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await ui.press(':', 'restores @all', KEY.enter);
    const merged = () => top().state as MergedState;
    await ui.waitFor(
      () => top().kind === 'merged-list' && merged().asking === 0 && merged().rows.length > 0,
      "every unit's first page",
      30_000,
    );
    const warsaw = merged().rows.filter((row) => merged().scopeOf.get(row)?.ouName === 'Warsaw');
    expect(warsaw.length).toBeGreaterThan(1);
    const units = warsaw.map((row) => row['@unit'] as string);
    expect(units.every((unit) => / \/ Warsaw$/.test(unit))).toBe(true);
    // d on a record: the units to compare it in, each named apart.
    await ui.press(KEY.enter);
    await ui.waitFor(() => top().kind === 'record', 'the record');
    await ui.press('d');
    await ui.waitFor(() => top().kind === 'choose', 'the chooser');
    const labels = (top().state as { entries: { label: string }[] }).entries
      .map((entry) => entry.label)
      .filter((label) => label.startsWith('unit ') && label.endsWith('Warsaw'));
    expect(labels.length).toBeGreaterThan(1);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.every((label) => / \/ Warsaw$/.test(label))).toBe(true);
  });
});

describe('the breadcrumb', () => {
  it('keeps the current screen and cuts from the start', async () => {
    ui = await mount(demo.region, { rows: 24, columns: 60 });
    await ui.press(':', 'count restores by status depth 1', KEY.enter);
    await ui.waitFor(() => top().kind === 'count' && top().state.loading === undefined, 'the matrix', 30_000);
    await ui.press(KEY.down, KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), "the tenant's restores", 30_000);
    await ui.press(KEY.enter);
    await ui.waitFor(() => top().kind === 'record', 'the record');
    await ui.press('X');
    const frame = await ui.waitFor((f) => top().kind === 'xray' && f.includes('links (depth'), 'the x-ray');
    const crumb = frame.split('\n')[3]!;
    expect(crumb.length, crumb).toBeLessThan(60);
    expect(/^… › .* › x-ray$/.test(crumb), crumb).toBe(true);
  });
});

describe('resizing', () => {
  it('keeps the cursor on screen when the terminal shrinks, and fills the room at once when it grows', async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f) && f.includes('› '), 'the tasks list', 30_000);
    await ui.press(...Array.from({ length: 15 }, () => 'j'));
    const cursorId = () => /^› (\S+)/m.exec(ui!.frame())?.[1];
    const chosen = cursorId();
    expect(chosen).toBeDefined();
    await ui.resize(80, 14);
    await ui.waitFor((f) => f.split('\n').length <= 14, 'the smaller frame');
    expect(cursorId()).toBe(chosen);
    await ui.resize(120, 40);
    // No key pressed: the rows fill the taller screen.
    const rowsShown = (f: string) => f.split('\n').filter((line) => /^[ ›] [0-9a-f]{8}/.test(line)).length;
    await ui.waitFor((f) => rowsShown(f) >= 30, 'the taller screen filled', 30_000);
    expect(cursorId()).toBe(chosen);
  });
});

describe('every word readable at 80×24', () => {
  it("an error in place wraps to the width, and E shows the server's answer whole, wrapped", async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await step(async () =>
      ui!.navigator.open('list', {
        origin: ui!.navigator.services.origin(),
        source: { kind: 'resource', resource: 'tasks' },
        serverFilter: '{"status":{"$bogus":1}}',
      }),
    );
    // The server's message ends with the last operator it knows: it is on screen, on a line of its own.
    const frame = await ui.waitFor((f) => f.includes('invalid_filter'), 'the refusal', 30_000);
    const message = frame.split('\n').filter((line) => /invalid_filter|operators|\$lte/.test(line));
    expect(frame).toContain('$lte');
    expect(
      message.every((line) => line.length <= 80 && !line.endsWith('…')),
      frame,
    ).toBe(true);
    await ui.press('E');
    await ui.waitFor((f) => f.includes('last exchange') && f.includes('GET'), 'the exchange');
    await ui.press(KEY.end);
    // The end of the server's answer, wrapped: the last line of a body longer than the width.
    const exchange = await ui.waitFor((f) => f.includes('$lte"}]}'), "the end of the server's answer");
    expect(exchange.split('\n').every((line) => line.length <= 80)).toBe(true);
  });

  it('help wraps its words: nothing is cut mid-word', async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await ui.press(':', 'count restores by status depth 1', KEY.enter);
    await ui.waitFor(() => top().kind === 'count' && top().state.loading === undefined, 'the matrix', 30_000);
    await ui.press('?');
    let text = '';
    for (let page = 0; page < 20; page++) {
      const frame = await ui.waitFor((f) => f.includes('Esc or ? closes'), 'the help');
      const body = frame.split('\n').slice(5, -1);
      expect(body.filter((line) => line.includes('…'))).toEqual([]);
      expect(body.every((line) => line.length <= 80)).toBe(true);
      text += body.map((line) => line.slice(29)).join(' ');
      if (/\((\d+)–(\d+) of \2\)/.test(frame)) break;
      await ui.press('\x1b[6~');
    }
    // The longest of the matrix's own words, whole.
    expect(text.replace(/\s+/g, ' ')).toContain('each unit under its parent (again: reverse)');
  });
});

describe('a notice', () => {
  it('too long for the footer runs over two lines, whole, and the body makes room for it', async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await ui.waitFor((f) => f.includes('/ to filter'), 'the catalog');
    const notice = `trail written: /tmp/${'a-rather-deep-folder/'.repeat(3)}dpx-trail-2026-11-28T17-48-25Z.har (42 requests, tokens redacted)`;
    await step(async () => ui!.navigator.notify(notice));
    // Run over two lines (a path longer than a line is cut where the line ends): every character of it shown.
    const joined = (f: string) => f.split('\n').slice(-2).join('').replace(/\s/g, '');
    const frame = await ui.waitFor((f) => joined(f) === notice.replace(/\s/g, ''), 'the whole notice');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
  });
});
