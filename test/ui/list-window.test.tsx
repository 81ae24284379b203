// The list keeps a window of records, not of pages: at any page size it holds the same number of rows,
// and going back up past what it dropped reads those pages again, saying so while it does.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const WINDOW = 50;

async function openTasks(pageSize: number): Promise<Mounted> {
  const mounted = await mount(demo.region, { rows: 24, context: { pageSize, rowWindow: WINDOW } });
  await mounted.waitFor((f) => f.includes('resources'), 'the catalog');
  await mounted.press(':', 'tasks', KEY.enter);
  await mounted.waitFor((f) => /page 1\/\d+/.test(f), 'the tasks list');
  return mounted;
}

const loadedOf = (frame: string) => Number((/· ([\d,]+) loaded/.exec(frame) ?? [])[1]?.replace(/,/g, '') ?? NaN);

/** Presses `n` to page `last`, noting the rows loaded after each page. */
async function pageTo(mounted: Mounted, last: number): Promise<number[]> {
  const loaded: number[] = [];
  for (let page = 2; page <= last; page += 1) {
    await mounted.press('n');
    const frame = await mounted.waitFor((f) => new RegExp(`page ${page}/`).test(f), `page ${page}`);
    loaded.push(loadedOf(frame));
  }
  return loaded;
}

describe('the list window', () => {
  it('holds the same number of records whatever the page size', async () => {
    for (const pageSize of [10, 25]) {
      ui = await openTasks(pageSize);
      const loaded = await pageTo(ui, 12);
      expect(Math.max(...loaded), `pages of ${pageSize}`).toBeLessThanOrEqual(WINDOW);
      expect(loaded.at(-1), `pages of ${pageSize}`).toBe(WINDOW);
      await ui.unmount();
      ui = undefined;
    }
  });

  it('going back up reads the dropped pages again and says so while it loads', async () => {
    ui = await openTasks(10);
    await pageTo(ui, 12);
    // The window holds pages 8 to 12; p moves within it to page 8, then past it.
    for (let page = 11; page >= 8; page -= 1) {
      await ui.press('p');
      await ui.waitFor((f) => new RegExp(`page ${page}/`).test(f), `page ${page}`);
    }
    const loading: string[] = [];
    const navigator = ui.navigator;
    const unsubscribe = navigator.subscribe(() => {
      const text = navigator.top()?.state.loading;
      if (text) loading.push(text);
    });
    const firstOnPage7 = await firstTaskOfPage(7);
    await ui.press('p');
    const frame = await ui.waitFor((f) => /page 7\//.test(f), 'page 7, read again');
    unsubscribe();
    expect(loading.some((text) => /re-reading the page before, dropped/.test(text))).toBe(true);
    const cursor = frame.split('\n').find((line) => line.startsWith('›')) ?? '';
    expect(cursor).toContain(firstOnPage7.slice(0, 8));
    expect(loadedOf(frame)).toBeLessThanOrEqual(WINDOW);
    // On up with the cursor keys, 12 rows from the top of page 7: the pages before are read as the cursor
    // nears the top of the run, so the cursor goes on into page 5.
    for (let i = 0; i < 12; i += 1) await ui.press(KEY.up);
    const up = await ui.waitFor((f) => /page 5\//.test(f), 'page 5, read again as the cursor went up');
    expect(loadedOf(up)).toBeLessThanOrEqual(WINDOW);
  });
});

/** The id of the first task of a page of 10, as the demo serves it. */
async function firstTaskOfPage(page: number): Promise<string> {
  const response = await fetch(`${demo.region.baseUrl}/tasks?limit=10&start=${page}`, {
    headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
  });
  const body = (await response.json()) as { _embedded: { items: { id: string }[] } };
  return body._embedded.items[0]!.id;
}
