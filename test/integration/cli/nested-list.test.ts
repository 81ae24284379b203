// Lists under a parent record (`/protection-groups/{id}/backups`): `dpx list <resource> --var NAME=VALUE`
// against the demo and against a control plane with its own names, over HTTP; and the catalog's mark.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

interface Envelope {
  items: Record<string, unknown>[];
  total_count?: number;
  pages_fetched: number;
}

async function json(args: string[], environment: Record<string, string> = env()): Promise<Envelope> {
  const { code, stdout, stderr } = await dpx([...args, '--output', 'json'], { env: environment });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as Envelope;
}

/** The protection group with the most backups, so that its list spans several pages. */
async function busyProtectionGroup(): Promise<string> {
  const backups = await json(['list', 'backups', '--all', '--page-size', '100']);
  const counts = new Map<string, number>();
  for (const backup of backups.items)
    counts.set(String(backup['protection_group_id']), (counts.get(String(backup['protection_group_id'])) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

describe('dpx list under a parent, against the demo', () => {
  let group = '';
  beforeAll(async () => {
    group = await busyProtectionGroup();
  });

  it("--var names the parent: the list is that parent's backups, the same as filtering every backup by it", async () => {
    const nested = await json([
      'list',
      'backups',
      '--var',
      `protection_group_id=${group}`,
      '--all',
      '--page-size',
      '100',
    ]);
    const filtered = await json([
      'list',
      'backups',
      '--all',
      '--page-size',
      '100',
      '--filter',
      JSON.stringify({ protection_group_id: { $eq: group } }),
    ]);
    expect(nested.items.length).toBeGreaterThan(3);
    expect(nested.items.map((item) => item['id'])).toEqual(filtered.items.map((item) => item['id']));
    expect(nested.total_count).toBe(nested.items.length);
  });

  it("--all follows the parent's own page links: every request stays under the parent", async () => {
    const trail = join(temporaryFolder('dpx-nested-'), 'nested.har');
    const walked = await json([
      'list',
      'backups',
      '--var',
      `protection_group_id=${group}`,
      '--all',
      '--page-size',
      '2',
      '--trail',
      trail,
    ]);
    expect(walked.pages_fetched).toBe(Math.ceil(walked.items.length / 2));
    const urls = (
      JSON.parse(readFileSync(trail, 'utf8')) as { log: { entries: { request: { url: string } }[] } }
    ).log.entries
      .map((entry) => new URL(entry.request.url))
      .filter((url) => url.pathname !== '/');
    expect(urls).toHaveLength(walked.pages_fetched);
    for (const url of urls) expect(url.pathname).toBe(`/protection-groups/${group}/backups`);
    expect(urls.map((url) => url.searchParams.get('start'))).toEqual(
      urls.map((_, index) => (index === 0 ? null : String(index + 1))),
    );
  });

  it('--op with a filter: the filter reaches the list under the parent', async () => {
    const all = await json([
      'list',
      'backups',
      '--op',
      'list_protection_group_backups',
      '--var',
      `protection_group_id=${group}`,
      '--all',
    ]);
    const type = String(all.items[0]!['backup_type']);
    const some = await json([
      'list',
      'backups',
      '--op',
      'list_protection_group_backups',
      '--var',
      `protection_group_id=${group}`,
      '--all',
      '--filter',
      JSON.stringify({ backup_type: type }),
    ]);
    expect(some.items.length).toBeGreaterThan(0);
    expect(some.items.every((item) => item['backup_type'] === type && item['protection_group_id'] === group)).toBe(
      true,
    );
    expect(some.items.length).toBeLessThanOrEqual(all.items.length);
  });

  it('a missing variable is a usage error naming it, before any list request is sent', async () => {
    const trail = join(temporaryFolder('dpx-nested-'), 'missing.har');
    const { code, stdout, stderr } = await dpx(
      ['list', 'backups', '--op', 'list_protection_group_backups', '--trail', trail],
      { env: env() },
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: .*protection_group_id/m);
    expect(stderr).toMatch(/^hint: .*--var protection_group_id=/m);
    // Only the index was read.
    const entries = (JSON.parse(readFileSync(trail, 'utf8')) as { log: { entries: { request: { url: string } }[] } })
      .log.entries;
    expect(entries.map((entry) => new URL(entry.request.url).pathname)).toEqual(['/']);
  });

  it("a parent that does not exist is the server's 404, exit 1", async () => {
    const { code, stderr } = await dpx(['list', 'backups', '--var', 'protection_group_id=no-such-group'], {
      env: env(),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/record_not_found/);
  });

  it("without --var, the resource's top-level list is used as before", async () => {
    const page = await json(['list', 'backups', '--page-size', '5']);
    expect(new Set(page.items.map((item) => item['protection_group_id'])).size).toBeGreaterThan(1);
  });
});

describe('the catalog marks lists under a parent', () => {
  it("resources --output json: each resource's lists with the path variables they need", async () => {
    const { stdout } = await dpx(['resources', '--output', 'json'], { env: env() });
    const rows = JSON.parse(stdout) as { name: string; lists: { id: string; path_variables: string[] }[] }[];
    const backups = rows.find((row) => row.name === 'backups')!;
    expect(backups.lists).toEqual([
      { id: 'list_backups', path_variables: [] },
      { id: 'list_protection_group_backups', path_variables: ['protection_group_id'] },
    ]);
    const users = rows.find((row) => row.name === 'users')!;
    expect(users.lists).toEqual([{ id: 'list_users', path_variables: [] }]);
  });

  it('resources as a table: a + after the id, explained on stderr', async () => {
    const { stdout, stderr } = await dpx(['resources'], { env: { ...env(), COLUMNS: '400' } });
    const backups = stdout.split('\n').find((line) => line.startsWith('backups'))!;
    expect(backups).toMatch(/ list_protection_group_backups\+( |$)/);
    expect(backups).toMatch(/ list_backups /);
    expect(stdout).not.toMatch(/get_\w+\+/);
    expect(stderr).toMatch(/^\+ a list under a parent record/m);
  });
});

describe('a list under a parent on a control plane with other names', () => {
  // `volumes` of a site: the list's id does not start with "list" (its paging variables say it is a list),
  // the parent variable is `siteKey`, paging is `per_page`/`page_number` and page values are opaque tokens.
  const sites: Record<string, number> = { 'site-a': 5, 'site-b': 2 };
  let server: TestServer;
  const token = 'mini-token';

  beforeAll(async () => {
    server = await startServer((request, response, self) => {
      const url = new URL(request.url, self.baseUrl);
      if (url.pathname === '/') {
        sendJson(
          response,
          200,
          {
            volumes: {
              supported_versions: ['v3'],
              v3: {
                volumesOfSite: {
                  href: '/sites/{siteKey}/volumes{?per_page,page_number}',
                  type: 'get',
                  templated: true,
                },
                volume: { href: '/volumes/{volumeKey}', type: 'get', templated: true },
              },
            },
          },
          { 'content-type': 'application/api.acme.*=v1+json' },
        );
        return;
      }
      const match = /^\/sites\/([^/]+)\/volumes$/.exec(url.pathname);
      const count = match ? sites[decodeURIComponent(match[1]!)] : undefined;
      if (count === undefined) {
        sendJson(response, 404, { errors: [{ error_code: 'no_site', error_message: `nothing at ${url.pathname}` }] });
        return;
      }
      const size = Number(url.searchParams.get('per_page') ?? '10');
      const token = url.searchParams.get('page_number');
      const offset = token === null ? 0 : Number(Buffer.from(token, 'base64url').toString('utf8'));
      const items = Array.from({ length: Math.max(0, Math.min(size, count - offset)) }, (_, i) => ({
        id: `${match![1]}-vol-${offset + i}`,
      }));
      const links: Record<string, unknown> = { self: { href: request.url } };
      if (offset + size < count)
        links['next'] = {
          href: `${url.pathname}?per_page=${size}&page_number=${Buffer.from(String(offset + size)).toString('base64url')}`,
        };
      sendJson(
        response,
        200,
        { _embedded: { items }, _links: links, current_count: items.length },
        { 'content-type': 'application/api.acme.volumes=v3+json' },
      );
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const miniEnv = () => ({ DPX_BASE_URL: server.baseUrl, DPX_TOKEN: token });

  it("lists a site's volumes by --var siteKey, every page, with the media type of its resource", async () => {
    const listed = await json(['list', 'volumes', '--var', 'siteKey=site-a', '--page-size', '2', '--all'], miniEnv());
    expect(listed.items.map((item) => item['id'])).toEqual([0, 1, 2, 3, 4].map((i) => `site-a-vol-${i}`));
    expect(listed.pages_fetched).toBe(3);
    const first = server.requests.find((request) => request.url.startsWith('/sites/site-a/volumes'))!;
    expect(first.url).toBe('/sites/site-a/volumes?per_page=2');
    expect(first.headers['accept']).toBe('application/api.acme.volumes=v3+json');
  });

  it('names the missing variable in its own spelling', async () => {
    const { code, stderr } = await dpx(['list', 'volumes'], { env: miniEnv() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: volumesOfSite needs the variable siteKey$/m);
    expect(stderr).toMatch(/^hint: give --var siteKey=…$/m);
  });

  it('marks the list in the catalog', async () => {
    const { stdout } = await dpx(['resources', '--output', 'json'], { env: miniEnv() });
    expect((JSON.parse(stdout) as { lists: unknown[] }[])[0]!.lists).toEqual([
      { id: 'volumesOfSite', path_variables: ['siteKey'] },
    ]);
  });
});
