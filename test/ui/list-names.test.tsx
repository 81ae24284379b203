// Names beside ids cost one read per referenced list for a screen of rows, where the list takes a filter
// on ids: opening the tasks at 80×24 (20 rows) sends at most 5 requests to name them.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

describe('names beside ids', () => {
  it('are read for the rows on screen in at most 5 requests, one per referenced list', async () => {
    ui = await mount(demo.region, { rows: 24, columns: 80 });
    await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    const before = demo.region.requestLog().length;
    await ui.press(':', 'tasks', KEY.enter);
    const navigator = ui.navigator;
    const namesRead = () => (navigator.top()?.state as { namesRead?: number } | undefined)?.namesRead ?? 0;
    await ui.waitFor((f) => /page 1\/\d+/.test(f) && namesRead() > 0, 'the tasks with names');
    // Names arrive in a burst: wait until a tenth of a second goes by without a request.
    let count = -1;
    while (count !== demo.region.requestLog().length) {
      count = demo.region.requestLog().length;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sent = demo.region.requestLog().slice(before);
    const pages = sent.filter((line) => /^GET \/tasks(\?|$)/.test(line));
    const names = sent.filter((line) => !pages.includes(line));
    expect(names.length, names.join('\n')).toBeLessThanOrEqual(5);
    // One read per referenced list, none of a single record.
    const lists = names.map((line) => new URL(line.slice(4), 'http://demo').pathname);
    expect(new Set(lists).size, names.join('\n')).toBe(lists.length);
    expect(lists.every((path) => path.split('/').length === 2)).toBe(true);
    // And the names came: the unit tree's and those of the records read.
    expect(namesRead()).toBeGreaterThan(1);
  });
});
