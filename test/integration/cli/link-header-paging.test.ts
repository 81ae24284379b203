// A list paged only by an RFC 8288 `Link` header (as GitHub-style APIs page), over HTTP: the demo's audit
// trail with `linkHeaderPaging`, 75 records at scale 0.25, read 20 to a page. `list --all`, fan-out
// across units and `count` read every page; where a page has `_links` too, `_links` win.
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { cacheHome, dpx, tokensShown } from './harness.js';

const LIST = 'audit-trails';
const RECORDS = 75;
const demo = useDemo({ scale: 0.25, linkHeaderPaging: [LIST] });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});
afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

/** Every id of the list, read in one page of 100 (the demo's most): what a full walk must give. */
async function everyId(): Promise<string[]> {
  const { status, body } = await demoRequest(demo.region, `/${LIST}?limit=100`);
  expect(status).toBe(200);
  return (body._embedded.items as { id: string }[]).map((item) => item.id);
}

async function listedIds(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stderr: string; ids: string[] }> {
  const { code, stdout, stderr } = await dpx(['list', LIST, ...args, '--output', 'json'], {
    env: { ...env(), ...extraEnv },
  });
  return {
    code,
    stderr,
    ids:
      code === 0 || code === 1 ? (JSON.parse(stdout) as { items: { id: string }[] }).items.map((item) => item.id) : [],
  };
}

describe('the demo list paged by its Link header', () => {
  it('carries next, prev, first and last only in the Link header: no _links in the body', async () => {
    const { status, headers, body } = await demoRequest(demo.region, `/${LIST}?limit=20&start=2`);
    expect(status).toBe(200);
    expect(body._links).toBeUndefined();
    const link = headers.get('link') ?? '';
    for (const rel of ['next', 'prev', 'first', 'last']) expect(link).toMatch(new RegExp(`<[^>]+>; rel="${rel}"`));
    expect(link).toContain(`${demo.region.baseUrl}/${LIST}?limit=20&start=3>; rel="next"`);
    // The other lists keep their _links.
    const users = await demoRequest(demo.region, '/users?limit=20');
    expect(users.body._links.next).toBeDefined();
    expect(users.headers.get('link')).toBeNull();
  });
});

describe('dpx list --all', () => {
  it(`lists all ${RECORDS} records of the list, 20 to a page, over HTTP`, async () => {
    const every = await everyId();
    const before = demo.region.requestCount();
    const { code, stderr, ids } = await listedIds(['--all', '--page-size', '20']);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
    expect(ids).toHaveLength(RECORDS);
    expect(new Set(ids)).toEqual(new Set(every));
    // The index, then four pages: 20 + 20 + 20 + 15.
    expect(demo.region.requestCount() - before).toBe(5);
  });

  it('without --all, lists the first page only', async () => {
    const { code, ids } = await listedIds(['--page-size', '20']);
    expect(code).toBe(0);
    expect(ids).toHaveLength(20);
  });
});

describe('fan-out across units (list --ou all --all)', () => {
  it('gives every record once, each unit read to its last page', async () => {
    const { code, stderr, ids } = await listedIds(['--ou', 'all', '--all', '--page-size', '20']);
    expect(code, stderr).toBe(0);
    expect(ids).toHaveLength(RECORDS);
    expect(new Set(ids)).toEqual(new Set(await everyId()));
  });
});

describe('dpx count', () => {
  const profileEnv = () => ({
    DPX_CONFIG: join(cacheHome, '..', 'link-header-profiles.json'),
    LH_TOKEN: demo.region.tokens.personal,
  });

  it('counts every record by walking the pages, 20 to a page, as the list reports no total', async () => {
    const added = await dpx(
      ['profile', 'add', 'lh', '--base-url', demo.region.baseUrl, '--token-env', 'LH_TOKEN', '--page-size', '20'],
      { env: profileEnv() },
    );
    expect(added.code, added.stderr).toBe(0);
    const { code, stdout, stderr } = await dpx(['--profile', 'lh', 'count', LIST, '--output', 'json'], {
      env: profileEnv(),
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('counting by walking every page');
    const document = JSON.parse(stdout) as { rows: { total: number }[] };
    expect(document.rows.map((row) => row.total)).toEqual([RECORDS]);
  });

  it('counts by a field, each cell walked to its last page', async () => {
    const { code, stdout, stderr } = await dpx(
      ['--profile', 'lh', 'count', LIST, '--by', 'outcome', '--values', 'success,failure', '--output', 'json'],
      { env: profileEnv() },
    );
    expect(code, stderr).toBe(0);
    const document = JSON.parse(stdout) as { rows: { counts: Record<string, number>; total: number }[] };
    const items = (await demoRequest(demo.region, `/${LIST}?limit=100`)).body._embedded.items as { outcome: string }[];
    expect(document.rows[0]!.counts).toEqual({
      success: items.filter((item) => item.outcome === 'success').length,
      failure: items.filter((item) => item.outcome === 'failure').length,
    });
    expect(document.rows[0]!.total).toBe(RECORDS);
  });
});

describe('a page with both _links and a Link header', () => {
  it('follows _links where both name a role, and the header where only it does', async () => {
    // Page 1: _links.next → page 2, header next → a trap. Page 2: no _links.next, header next → page 3.
    const server = await startServer((request, response) => {
      const url = new URL(request.url, 'http://x');
      if (url.pathname === '/') {
        return sendJson(response, 200, {
          things: {
            supported_versions: ['v1'],
            v1: { list_things: { href: '/things{?limit,start}', type: 'get', templated: true } },
          },
        });
      }
      const page = url.searchParams.get('start') ?? '1';
      const item = (n: number) => ({ id: `thing-${page}-${n}` });
      if (page === '1') {
        return sendJson(
          response,
          200,
          {
            _embedded: { items: [item(1), item(2)] },
            _links: { self: { href: '/things?start=1' }, next: { href: '/things?start=2' } },
            current_count: 2,
          },
          {
            link: '</things?start=trap>; rel="next"',
          },
        );
      }
      if (page === '2')
        return sendJson(
          response,
          200,
          { _embedded: { items: [item(1)] }, _links: { self: { href: '/things?start=2' } }, current_count: 1 },
          { link: '</things?start=3>; rel="next"' },
        );
      if (page === '3') return sendJson(response, 200, { _embedded: { items: [item(1)] }, current_count: 1 });
      return sendJson(response, 404, {
        errors: [{ code: 'trap', message: `followed the header over _links: ${request.url}` }],
      });
    });
    servers.push(server);
    const { code, stdout, stderr } = await dpx(['list', 'things', '--all', '--output', 'json'], {
      env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'not-checked' },
    });
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([
      'thing-1-1',
      'thing-1-2',
      'thing-2-1',
      'thing-3-1',
    ]);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/',
      '/things?limit=1000',
      '/things?start=2',
      '/things?start=3',
    ]);
  });
});
