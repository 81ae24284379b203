// A list under a parent record (the backups of one protection group) opens like any list once the
// explorer has asked for the parent's variables, whichever names the server gives them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import { useDemo, demoRequest } from '../helpers/demo.js';
import { sendJson, startServer, type TestServer } from '../helpers/servers.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;
let sites: TestServer;

/** A control plane whose only list is under a parent, with its own names for everything. */
beforeAll(async () => {
  sites = await startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/') {
      return sendJson(response, 200, {
        volumes: {
          supported_versions: ['v1'],
          v1: {
            volumesOfSite: { href: '/sites/{siteKey}/volumes{?per_page,page_number}', type: 'get', templated: true },
          },
        },
      });
    }
    const site = /^\/sites\/([^/]+)\/volumes$/.exec(url.pathname)?.[1];
    if (!site) return sendJson(response, 404, { errors: [{ error_code: 'not_found', error_message: url.pathname }] });
    const page = Number(url.searchParams.get('page_number') ?? '1');
    const items = Array.from({ length: 5 }, (_, i) => ({
      id: `${site}-vol-${(page - 1) * 5 + i + 1}`,
      name: `volume ${(page - 1) * 5 + i + 1} of ${site}`,
    }));
    const next = page < 3 ? { next: { href: `/sites/${site}/volumes?per_page=5&page_number=${page + 1}` } } : {};
    sendJson(response, 200, {
      _embedded: { items },
      _links: { self: { href: url.pathname + url.search }, ...next },
      current_count: 5,
      total_count: 15,
    });
  });
});
afterAll(() => sites.close());
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

describe('lists under a parent record', () => {
  it("the palette opens the demo's backups of one protection group after asking for the group", async () => {
    const group = (await demoRequest(demo.region, '/protection-groups?limit=1')).body._embedded.items[0] as {
      id: string;
    };
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'backups list_protection_group_backups', KEY.enter);
    await ui.waitFor(
      (f) => f.includes('fill in the variables') && f.includes('protection_group_id'),
      'the question for the group',
    );
    await ui.press(group.id, KEY.enter);
    const frame = await ui.waitFor(
      (f) => f.includes(`backups@v1 of ${group.id}`) && /page 1/.test(f),
      "the group's backups",
    );
    const expected = await demoRequest(demo.region, `/protection-groups/${group.id}/backups?limit=1`);
    expect(frame).toContain(`${expected.body.total_count.toLocaleString('en-US')} items`);
  });

  it('on a server with other names, the catalog marks the list, Enter asks for the site, and pages follow the links', async () => {
    const session = new Session({ baseUrl: sites.baseUrl });
    ui = await mount(demo.region, { context: { session } });
    const catalog = await ui.waitFor((f) => f.includes('volumes'), 'the catalog');
    expect(catalog).toMatch(/› volumes\s+v1\s+list \{…\}/);
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes('siteKey'), 'the question for the site');
    await ui.press('berlin', KEY.enter);
    await ui.waitFor((f) => f.includes('volume 1 of berlin'), 'the first page');
    await ui.press('n');
    await ui.waitFor((f) => f.includes('volume 6 of berlin'), 'the next page by its link');
    expect(sites.requests.map((r) => r.url)).toContain('/sites/berlin/volumes?per_page=5&page_number=2');
  });

  it('Esc on the question leaves the list unopened', async () => {
    const session = new Session({ baseUrl: sites.baseUrl });
    ui = await mount(demo.region, { context: { session } });
    await ui.waitFor((f) => f.includes('volumes'), 'the catalog');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes('siteKey'), 'the question for the site');
    await ui.press(KEY.escape);
    await ui.waitFor((f) => f.includes('/ to filter'), 'the catalog again');
    expect(ui.navigator.getState().stack.map((entry) => entry.kind)).toEqual(['catalog']);
  });
});
