// `s` and paging agree: on a list that takes no sort parameter (the demo's tasks) `s` sorts the loaded rows
// within each page and says so, the footer names the page under the cursor, and n/p move page by page in
// the server's order; on a list whose template declares `sort`, `s` asks the server, and n pages through
// the sorted order.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import { useDemo } from '../helpers/demo.js';
import { startServer, type TestServer } from '../helpers/servers.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const cursorLine = (frame: string) => frame.split('\n').find((line) => line.startsWith('›')) ?? '';
const footer = (frame: string) => frame.split('\n').at(-1) ?? '';

/** The ids of one page of the demo's tasks, at its default page size. */
async function pageIds(page: number): Promise<string[]> {
  const response = await fetch(`${demo.region.baseUrl}/tasks?start=${page}`, {
    headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
  });
  const body = (await response.json()) as { _embedded: { items: { id: string }[] } };
  return body._embedded.items.map((item) => item.id);
}

describe('sorting the loaded rows of a list the server does not sort', () => {
  it('s sorts within each page and says so; the footer and n/p stay on the page under the cursor', async () => {
    ui = await mount(demo.region, { rows: 30 });
    await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    await ui.press(':', 'tasks', KEY.enter);
    // The screen holds more than a page: the second is loaded too.
    await ui.waitFor((f) => /page 1\/\d+/.test(f) && /\b[2-9]\d loaded/.test(f), 'two pages of tasks');
    const [first, second] = [await pageIds(1), await pageIds(2)];
    await ui.press('s');
    let frame = await ui.waitFor((f) => f.includes('ID↑'), 'the sort by id');
    expect(frame).toMatch(/sorted: \d+ loaded rows by id ↑, within each page/);
    expect(cursorLine(frame)).toContain([...first].sort()[0]!.slice(0, 8));
    // The notice takes the footer while it shows; the next key (k at the top moves nothing) gives it back.
    await ui.press('k');
    frame = await ui.waitFor((f) => !f.includes('sorted:'), 'the notice gone');
    expect(footer(frame)).toMatch(/page 1\//);
    await ui.press('n');
    frame = await ui.waitFor((f) => /page 2\//.test(footer(f)), 'page 2');
    expect(cursorLine(frame)).toContain([...second].sort()[0]!.slice(0, 8));
    await ui.press('p');
    frame = await ui.waitFor((f) => /page 1\//.test(footer(f)), 'back to page 1');
    expect(frame).not.toContain('this is the first page');
    expect(cursorLine(frame)).toContain([...first].sort()[0]!.slice(0, 8));
    await ui.press('s');
    frame = await ui.waitFor((f) => f.includes('ID↓'), 'the reverse sort');
    expect(cursorLine(frame)).toContain([...first].sort().at(-1)!.slice(0, 8));
    await ui.press('k');
    frame = await ui.waitFor((f) => !f.includes('sorted:'), 'the notice gone');
    expect(footer(frame)).toMatch(/page 1\//);
  });
});

describe('sorting a list whose template declares a sort parameter', () => {
  const TOKEN = 'sort-test-token';
  const ids = Array.from({ length: 35 }, (_, n) => `t-${String((n * 17) % 35).padStart(2, '0')}`);
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((request, response) => {
      const url = new URL(request.url, 'http://test');
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/') {
        response.end(
          JSON.stringify({
            tasks: {
              supported_versions: ['v1'],
              v1: { list_tasks: { href: '/tasks{?limit,start,sort}', type: 'get', templated: true } },
            },
          }),
        );
        return;
      }
      const sort = url.searchParams.get('sort') ?? '';
      const start = Number(url.searchParams.get('start') ?? '1');
      const ordered = sort === 'id' ? [...ids].sort() : sort === '-id' ? [...ids].sort().reverse() : ids;
      const href = (page: number) => `/tasks?start=${page}${sort ? `&sort=${encodeURIComponent(sort)}` : ''}`;
      const pages = Math.ceil(ordered.length / 10);
      response.end(
        JSON.stringify({
          _embedded: { items: ordered.slice((start - 1) * 10, start * 10).map((id) => ({ id, name: `task ${id}` })) },
          _links: {
            self: { href: href(start) },
            ...(start < pages ? { next: { href: href(start + 1) } } : {}),
            ...(start > 1 ? { prev: { href: href(start - 1) } } : {}),
          },
          current_count: Math.min(10, ordered.length - (start - 1) * 10),
          total_count: ordered.length,
          total_pages_count: pages,
          start,
        }),
      );
    });
  });
  afterAll(async () => server.close());

  it('s asks the server for its order, and n pages through it', async () => {
    const session = new Session({ baseUrl: server.baseUrl, token: TOKEN, readOnly: true });
    ui = await mount(demo.region, { rows: 16, context: { session, token: TOKEN } });
    await ui.waitFor((f) => f.includes('resources'), 'the catalog');
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1\/4/.test(f), 'the tasks list');
    await ui.press('s');
    let frame = await ui.waitFor((f) => f.includes('ID↑') && /page 1\/4/.test(f), 'the list sorted by the server');
    expect(frame).toContain('sorted by the server: id ↑');
    expect(server.requests.some((r) => r.url.includes('sort=id'))).toBe(true);
    expect(cursorLine(frame)).toContain('t-00');
    await ui.press('s');
    frame = await ui.waitFor((f) => f.includes('ID↓') && /t-34/.test(cursorLine(f)), 'the reverse order');
    await ui.press('n');
    frame = await ui.waitFor((f) => /page 2\/4/.test(footer(f)), 'page 2 of the reverse order');
    expect(cursorLine(frame)).toContain('t-24');
    await ui.press('p');
    frame = await ui.waitFor((f) => /page 1\/4/.test(footer(f)), 'page 1 again');
    expect(cursorLine(frame)).toContain('t-34');
  });
});
