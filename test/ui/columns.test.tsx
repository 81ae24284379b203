// Tables wider than the terminal: the column window (frozen columns, widths from the data, `>` `<`) on its
// own, and in the explorer's task list and count matrix at 60, 80 and 120 columns.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chosenColumns } from '../../src/config/chosen-columns.js';
import { columnWindow, lastLeft, scrolled, windowLabel } from '../../src/ui/column-window.js';
import { inferColumns, windowOf } from '../../src/ui/screens/list/measured-columns.js';
import type { CountState } from '../../src/ui/screens/count/count.js';
import type { ListState } from '../../src/ui/screens/list/state.js';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const NOW = Date.parse('2026-01-10T12:00:00Z');
const lines = (frame: string) => frame.split('\n');
const header = (frame: string) => lines(frame)[2] ?? '';
const heading = (frame: string) => lines(frame)[4] ?? '';
const names = (frame: string) => heading(frame).trim().split(/\s+/);

describe('the column window', () => {
  const options = { frozen: 1, room: 40, gap: 1 };

  it('keeps the frozen column, fits what it can from the scroll, and cuts only a column wider than the room', () => {
    expect(columnWindow([10, 10, 10, 10, 10], { ...options, left: 1 })).toEqual([
      { index: 0, width: 10 },
      { index: 1, width: 10 },
      { index: 2, width: 10 },
    ]);
    expect(columnWindow([10, 10, 10, 10, 10], { ...options, left: 3 }).map((c) => c.index)).toEqual([0, 3, 4]);
    // A very long value: its column is as wide as the room left when it is the first one scrolled to.
    expect(columnWindow([10, 500, 5], { ...options, left: 1 })).toEqual([
      { index: 0, width: 10 },
      { index: 1, width: 29 },
    ]);
    // A frozen column wider than its share is cut, so scrolled columns always have room.
    expect(columnWindow([100, 5, 5], { ...options, left: 1 })[0]).toEqual({ index: 0, width: 16 });
    // …but not when the whole table fits.
    expect(columnWindow([20, 5, 5], { ...options, left: 1 })[0]).toEqual({ index: 0, width: 20 });
  });

  it('scrolls no further than where the last column is on screen, and says where it is', () => {
    const widths = [10, 10, 10, 10, 10, 10];
    expect(lastLeft(widths, options)).toBe(4);
    expect(scrolled(widths, { ...options, left: 4 }, 1)).toBe(4);
    expect(scrolled(widths, { ...options, left: 1 }, -1)).toBe(1);
    expect(windowLabel(columnWindow(widths, { ...options, left: 2 }), widths, 1)).toBe('cols 3–4 of 6');
    // A list's table gives the room left to the next column, cut; lastLeft still scrolls until it is whole.
    expect(columnWindow(widths, { ...options, left: 2, partial: true }).at(-1)).toEqual({ index: 4, width: 7 });
    expect(lastLeft(widths, { ...options, partial: true })).toBe(4);
    expect(windowLabel(columnWindow([5, 5], { ...options, left: 1 }), [5, 5], 1)).toBeUndefined();
  });

  it('takes widths from the data: a very long value is shown whole when scrolled to, cut with … only at the edge', () => {
    const long = 'x'.repeat(300);
    const records = [{ id: 'a1', name: 'short', note: long, size: 3 }];
    const all = inferColumns(records, NOW);
    expect(all.find((c) => c.field === 'note')?.width).toBe(300);
    const first = windowOf(all, 1, 78);
    expect(first.columns.map((c) => c.field)).toEqual(['id', 'name', 'size', 'note']);
    expect(first.columns.at(-1)!.width).toBe(78 - first.columns.slice(0, -1).reduce((n, c) => n + c.width + 1, 0));
    expect(first.label).toBe('cols 2–4 of 4');
    // Scrolled to, it takes all the room beside the frozen id.
    expect(windowOf(all, 3, 78).columns.map((c) => [c.field, c.width])).toEqual([
      ['id', 3],
      ['note', 74],
    ]);
  });
});

describe.each([60, 80, 120])('at %i columns', (width) => {
  it('a task list keeps its id column while > scrolls to the last column, and < back', async () => {
    ui = await mount(demo.region, { rows: 24 });
    ui.navigator.resize(width, 24);
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1/.test(f) && heading(f).startsWith('  ID'), 'the task list');
    // Names filling in would widen their columns while the test scrolls: ids alone here.
    await ui.press('N');
    const first = ui.frame();
    expect(lines(first).every((line) => line.length <= width)).toBe(true);
    const label = /\[cols (\d+)–(\d+) of (\d+)\]/.exec(header(first));
    expect(label, header(first)).not.toBeNull();
    const count = Number(label![3]);
    for (let i = 0; i < count; i++) await ui.press('>');
    const end = ui.frame();
    expect(heading(end)).toMatch(/^ {2}ID /);
    expect(header(end)).toContain(`of ${count}]`);
    expect(header(end)).toMatch(new RegExp(`–${count} of ${count}\\]`));
    // → from the frozen id goes to the first column on screen, and `s` sorts by it, where it is.
    await ui.press(KEY.right, 's');
    const state = ui.navigator.top()!.state as ListState;
    expect(state.sort!.field).not.toBe('id');
    expect(heading(ui.frame())).toContain(`${state.sort!.field.toUpperCase()}↑`);
    expect(header(ui.frame())).toMatch(new RegExp(`–${count} of ${count}\\]`));
    for (let i = 0; i < count; i++) await ui.press('<');
    expect(header(ui.frame())).toContain(`[cols 2–${label![2]} of ${count}]`);
  });

  it('the count matrix keeps the units (indented) and the total while > scrolls the values; Enter opens the scrolled cell', async () => {
    ui = await mount(demo.region, { rows: 24 });
    ui.navigator.resize(width, 24);
    await ui.press(':', 'count tasks by status', KEY.enter);
    const state = () => ui!.navigator.top()!.state as CountState;
    // Counted to the end, as drawn: the values after the trouble ones are ordered by their counts, which
    // move while counting.
    const frame = await ui.waitFor(
      (f) =>
        /^UNIT\s+total\s+failed/m.test(f) && !f.includes('counting tasks') && state().answered > 0 && !state().loading,
      'the matrix counted, failed first',
    );
    expect(lines(frame).every((line) => line.length <= width)).toBe(true);
    expect(frame).toMatch(/^ {2}\S/m);
    // `S`: the values by name; again: trouble first.
    const values = (f: string) =>
      lines(f)
        .find((line) => line.startsWith('UNIT'))!
        .trim()
        .split(/\s+/)
        .slice(2);
    await ui.press('S');
    expect(values(ui.frame())).toEqual([...values(ui.frame())].sort((a, b) => a.localeCompare(b)));
    expect(values(ui.frame())[0]).not.toBe('failed');
    await ui.press('S');
    expect(values(ui.frame())[0]).toBe('failed');
    const scrolls = /\[cols \d+–\d+ of \d+\]/.test(header(frame));
    for (let i = 0; i < 12; i++) await ui.press('>');
    const end = ui.frame();
    const top = lines(end).find((line) => line.startsWith('UNIT'))!;
    expect(top).toMatch(/^UNIT\s+total\s/);
    // Where the whole matrix fits (120 columns), there is nothing to scroll and every value stays.
    if (scrolls) expect(top).not.toMatch(/\bfailed\b/);
    else expect(top).toBe(lines(frame).find((line) => line.startsWith('UNIT')));
    if (!scrolls) for (let i = 0; i < 12; i++) await ui.press(KEY.right);
    // The current cell moved with the scroll onto a value on screen; Enter opens that value's list.
    const plan = state().plan!;
    const cell = state().column;
    expect(cell).toBeLessThanOrEqual(plan.columns.length + 1);
    expect(top).toContain(
      cell < plan.columns.length ? plan.columns[cell]!.label : cell === plan.columns.length ? 'total' : 'other',
    );
    await ui.press(KEY.enter);
    await ui.waitFor(() => ui!.navigator.top()!.kind === 'list', "the cell's list");
    const list = ui.navigator.top()!.state as ListState;
    if (cell < plan.columns.length)
      expect(list.serverFilter).toBe(JSON.stringify({ status: { $eq: plan.columns[cell]!.value } }));
  });
});

describe('the column picker (c)', () => {
  it('hides and moves columns, keeps the choice for the resource, and a forgets it; Esc changes nothing', async () => {
    const dir = temporaryFolder('dpx-picker-');
    try {
      const configPath = join(dir, 'config.json');
      ui = await mount(demo.region, { rows: 30, context: { configPath } });
      await ui.press(':', 'tasks', KEY.enter);
      await ui.waitFor((f) => /page 1/.test(f) && heading(f).startsWith('  ID'), 'the task list');
      await ui.press('N');
      const first = ui.frame();
      await ui.press('c');
      await ui.waitFor((f) => f.includes('columns of tasks'), 'the picker');
      await ui.press(' ', KEY.escape);
      expect(names(ui.frame())).toEqual(names(first));
      // Hide the id, move the status before the name.
      await ui.press('c', ' ', KEY.down, KEY.down, 'K', KEY.enter);
      await ui.waitFor((f) => f.includes('kept for'), 'the choice kept');
      expect(names(ui.frame()).slice(0, 2)).toEqual(['STATUS', 'NAME']);
      expect((await chosenColumns(configPath, demo.region.baseUrl, 'tasks'))?.slice(0, 2)).toEqual(['status', 'name']);
      await ui.press('c', 'a');
      await ui.waitFor(
        (f) => names(f).join() === names(first).join() && f.includes('every column of tasks again'),
        'every column again',
      );
      expect(await chosenColumns(configPath, demo.region.baseUrl, 'tasks')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
