// A list's default columns put what identifies a record and its state first: the id, the name, the state,
// the error, the times, then the rest (the units named beside their ids among them); at 80 columns the
// tasks show their status without scrolling; the reader's choice (`c`) still wins.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

async function openTasks(columns: number): Promise<Mounted> {
  const mounted = await mount(demo.region, { rows: 24, columns });
  await mounted.waitFor((f) => f.includes('resources'), 'the catalog');
  await mounted.press(':', 'tasks', KEY.enter);
  await mounted.waitFor((f) => /page 1\/\d+/.test(f), 'the tasks list');
  return mounted;
}

const headerOf = (frame: string) => frame.split('\n').find((line) => /^\s+ID\b/.test(line)) ?? '';

describe('default columns', () => {
  it('at 80 columns the tasks list shows id, name and status without scrolling', async () => {
    ui = await openTasks(80);
    // Once the units' names are read, the unit column (whose ids read as names) is planned again: it must
    // not push the status off the screen.
    const navigator = ui.navigator;
    const namesRead = () => (navigator.top()?.state as { namesRead?: number } | undefined)?.namesRead ?? 0;
    await ui.waitFor(() => namesRead() > 0, 'names read');
    const frame = await ui.waitFor((f) => /\S · [0-9a-f]{8}…/.test(f) || /STATUS/.test(headerOf(f)), 'the columns');
    expect(headerOf(frame)).toContain('STATUS');
    const header = headerOf(frame);
    expect(header.indexOf('ID')).toBeLessThan(header.indexOf('NAME'));
    expect(header.indexOf('NAME')).toBeLessThan(header.indexOf('STATUS'));
    const cursor = frame.split('\n').find((line) => line.startsWith('›')) ?? '';
    // The cell under STATUS holds the status word the demo gives the first task.
    const response = await fetch(`${demo.region.baseUrl}/tasks?limit=1`, {
      headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
    });
    const first = ((await response.json()) as { _embedded: { items: { status: string }[] } })._embedded.items[0]!;
    expect(cursor.slice(header.indexOf('STATUS')).trim().split(/\s+/)[0]).toBe(first.status);
  });

  it('ranks id, name, status, error, times, then the rest', async () => {
    ui = await openTasks(400);
    const header = headerOf(await ui.waitFor((f) => /ORGANIZATIONAL_UNIT_ID/.test(headerOf(f)), 'every column'));
    const at = (name: string) => {
      const index = header.search(new RegExp(`\\b${name}\\b`));
      expect(index, name).toBeGreaterThanOrEqual(0);
      return index;
    };
    const order = ['ID', 'NAME', 'STATUS', 'ERROR_CODE', 'CREATED_TIMESTAMP', 'ORGANIZATIONAL_UNIT_ID'].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
