// URI templates from the server read strictly, over HTTP: a malformed one in the index or in a link is an
// error that names it (exit 3), and no request goes to a URL made up from it.
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { dpx } from './harness.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** A control plane with one list, `things`, whose index href and page links are given. */
async function serve(listHref: string, pageLinks: Record<string, unknown> = {}): Promise<TestServer> {
  const server = await startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/') {
      return sendJson(response, 200, {
        things: {
          supported_versions: ['v1'],
          v1: {
            list_things: { href: listHref, type: 'get', templated: true },
            get_thing: { href: '/things/{thing_id}', type: 'get', templated: true },
          },
        },
      });
    }
    if (url.pathname === '/things/a')
      return sendJson(response, 200, { id: 'a', _links: { self: { href: '/things/a' } } });
    if (url.pathname === '/things' && !url.searchParams.has('start')) {
      return sendJson(response, 200, {
        _embedded: { items: [{ id: 'a', _links: { self: { href: '/things/a' } } }] },
        _links: { self: { href: '/things' }, ...pageLinks },
        current_count: 1,
      });
    }
    return sendJson(response, 404, { errors: [{ code: 'not_found', message: `no ${request.url}` }] });
  });
  servers.push(server);
  return server;
}

const run = (server: TestServer, argv: string[]) =>
  dpx(argv, { env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'not-checked' } });

describe('a malformed template in the index', () => {
  for (const [href, reason] of [
    ['/things{?limit,start', 'is never closed'],
    ['/things{!limit}', 'illegal character'],
    ['/things{?li mit}', 'illegal character'],
    ['/things{?@limit}', 'names a variable RFC 6570 does not allow'],
  ] as const) {
    it(`${href}: names the operation and the reason, and sends no list request`, async () => {
      const server = await serve(href);
      const { code, stdout, stderr } = await run(server, ['list', 'things']);
      expect(code).toBe(3);
      expect(stdout).toBe('');
      expect(stderr).toContain(`the index's operation list_things of things v1 is not a valid URI template: `);
      expect(stderr).toContain(reason);
      expect(stderr).toContain(JSON.stringify(href));
      expect(server.requests.map((request) => request.url)).toEqual(['/']);
    });
  }

  it('leaves the other operations of the resource usable', async () => {
    const server = await serve('/things{?limit');
    const { code, stdout, stderr } = await run(server, ['call', 'things', 'get_thing', '--var', 'thing_id=a']);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('"id"');
  });
});

describe('a malformed template in a link', () => {
  it('a templated next link: the walk stops with an error naming the link, after the pages it read', async () => {
    const server = await serve('/things{?limit,start}', { next: { href: '/things{?start', templated: true } });
    const { code, stdout, stderr } = await run(server, ['list', 'things', '--all', '--output', 'ndjson']);
    expect(code).toBe(3);
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(['a']);
    expect(stderr).toContain(
      'the link "next" is not a valid URI template: the expression opened at character 8 is never closed: "/things{?start"',
    );
    expect(server.requests.map((request) => request.url)).toEqual(['/', '/things?limit=1000']);
  });

  it('an href not marked templated is used as written, braces and all, never expanded', async () => {
    const server = await serve('/things{?limit,start}', { next: { href: '/things?start={2}' } });
    const { code, stderr } = await run(server, ['list', 'things', '--all', '--output', 'ndjson']);
    // The server has no such page: what matters is that dpx asked for the href as the server wrote it.
    expect(code, stderr).toBe(1);
    expect(server.requests.map((request) => decodeURIComponent(request.url))).toEqual([
      '/',
      '/things?limit=1000',
      '/things?start={2}',
    ]);
  });
});
