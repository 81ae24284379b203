// `list --all` with no page size walks at the largest page the server takes: one it refuses names its
// range (the demo's 400), one that clamps answers with fewer records and a next link, one that takes it
// answers with the page asked for.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { cacheHome, dpx } from './harness.js';

const demo = useDemo();

interface Envelope {
  items: { id: string }[];
  pages_fetched: number;
}

/** The cache file that keeps the demo's page sizes between runs: the one that names its base URL. */
function keptFile(): string {
  const dir = join(cacheHome, 'dpx');
  const kept = readdirSync(dir).filter((name) => name.startsWith('page-sizes-')).map((name) => join(dir, name));
  const file = kept.find((path) => (JSON.parse(readFileSync(path, 'utf8')) as { baseUrl?: unknown }).baseUrl === demo.region.baseUrl);
  if (file === undefined) throw new Error(`no page sizes kept for ${demo.region.baseUrl} in ${dir}`);
  return file;
}

/** The page sizes (`limit`) of the task-list requests one run sent, as the demo logged them. */
async function tasksLimits(args: string[]): Promise<(string | null)[]> {
  const from = demo.region.requestLog().length;
  const { code, stderr } = await dpx(args, { env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal } });
  expect(code, stderr).toBe(0);
  return demo.region.requestLog().slice(from)
    .map((line) => new URL(line.slice(line.indexOf(' ') + 1), demo.region.baseUrl))
    .filter((url) => url.pathname === '/tasks')
    .map((url) => url.searchParams.get('limit'));
}

describe('list --all at the largest page', () => {
  it('reads the range a refusal names, and walks at it', async () => {
    const total = (await demoRequest(demo.region, '/tasks?limit=1')).body.total_count as number;
    const before = demo.region.requestCount();
    const { code, stdout } = await dpx(['list', 'tasks', '--all', '-o', 'json'], { env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal } });
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as Envelope;
    expect(listed.items).toHaveLength(total);
    expect(listed.pages_fetched).toBe(Math.ceil(total / 100));
    // The index, the refused probe, and the pages of 100.
    expect(demo.region.requestCount() - before).toBe(2 + Math.ceil(total / 100));
  });

  it('keeps what it learned for the next run, whose first page asks for 100 at once (and writes nothing new)', async () => {
    const total = (await demoRequest(demo.region, '/tasks?limit=1')).body.total_count as number;
    const written = statSync(keptFile()).mtimeMs;
    const limits = await tasksLimits(['list', 'tasks', '--all', '-o', 'json']);
    expect(limits).toEqual(Array.from({ length: Math.ceil(total / 100) }, () => '100'));
    expect(statSync(keptFile()).mtimeMs).toBe(written);
  });

  it('learns anew when a size kept from an earlier run is refused now (the server lowered its limit)', async () => {
    const file = keptFile();
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl: string; value: Record<string, unknown> };
    expect(Object.keys(kept.value)).toEqual(['tasks v1 list_tasks']);
    writeFileSync(file, JSON.stringify({ baseUrl: kept.baseUrl, value: { 'tasks v1 list_tasks': { ask: 500, perPage: 500 } } }));
    const total = (await demoRequest(demo.region, '/tasks?limit=1')).body.total_count as number;
    const limits = await tasksLimits(['list', 'tasks', '--all', '-o', 'json']);
    expect(limits).toEqual(['500', ...Array.from({ length: Math.ceil(total / 100) }, () => '100')]);
    expect(JSON.parse(readFileSync(file, 'utf8')).value).toEqual({ 'tasks v1 list_tasks': { ask: 100, perPage: 100 } });
  });

  describe('on servers of their own', () => {
    let server: TestServer | undefined;
    afterEach(async () => server?.close());

    async function serve(largest: number | 'any', records = 450): Promise<TestServer> {
      const items = Array.from({ length: records }, (_, i) => ({ id: `r${i}` }));
      return startServer((request, response, self) => {
        const url = new URL(request.url, self.baseUrl);
        if (url.pathname === '/') {
          sendJson(response, 200, { things: { supported_versions: ['v1'], v1: { list_things: { href: '/things{?per_page,offset}', type: 'get', templated: true } } } });
          return;
        }
        const asked = Number(url.searchParams.get('per_page') ?? '20');
        const size = largest === 'any' ? asked : Math.min(asked, largest);
        const offset = Number(url.searchParams.get('offset') ?? '0');
        const next = offset + size < records ? { next: { href: `/things?per_page=${asked}&offset=${offset + size}` } } : {};
        sendJson(response, 200, { _embedded: { items: items.slice(offset, offset + size) }, _links: next }, { 'content-type': 'application/api.acme.things=v1+json' });
      });
    }

    async function walk(target: TestServer): Promise<Envelope> {
      const { code, stdout, stderr } = await dpx(['list', 'things', '--all', '-o', 'json'], { env: { DPX_BASE_URL: target.baseUrl, DPX_TOKEN: 'opaque' } });
      expect(code, stderr).toBe(0);
      return JSON.parse(stdout) as Envelope;
    }

    it('walks at the page a clamping server gives, its first page read once', async () => {
      server = await serve(150);
      const listed = await walk(server);
      expect(listed.items).toHaveLength(450);
      expect(listed.pages_fetched).toBe(3);
      expect(server.requests.filter((request) => request.url.startsWith('/things'))).toHaveLength(3);
    });

    it('walks at the large page a server takes, its first page read once', async () => {
      server = await serve('any', 1500);
      const listed = await walk(server);
      expect(listed.items).toHaveLength(1500);
      expect(listed.pages_fetched).toBe(2);
      expect(server.requests.filter((request) => request.url.startsWith('/things'))).toHaveLength(2);
    });
  });
});
