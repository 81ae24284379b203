// `list --all` with no page size walks at the largest page the server takes: one it refuses names its
// range (the demo's 400), one that clamps answers with fewer records and a next link, one that takes it
// answers with the page asked for.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
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

/** A server whose index names one list, list_things at /things; `things` answers the requests below the index. */
function serveThings(things: (url: URL, response: ServerResponse) => void): Promise<TestServer> {
  return startServer((request, response, self) => {
    const url = new URL(request.url, self.baseUrl);
    if (url.pathname !== '/') return things(url, response);
    sendJson(response, 200, {
      things: {
        supported_versions: ['v1'],
        v1: { list_things: { href: '/things{?per_page,offset}', type: 'get', templated: true } },
      },
    });
  });
}

/** The cache file that keeps a control plane's page sizes between runs (the demo's by default): the one that names its base URL. */
function keptFile(baseUrl = demo.region.baseUrl): string {
  const dir = join(cacheHome, 'dpx');
  const kept = readdirSync(dir)
    .filter((name) => name.startsWith('page-sizes-'))
    .map((name) => join(dir, name));
  const file = kept.find(
    (path) => (JSON.parse(readFileSync(path, 'utf8')) as { baseUrl?: unknown }).baseUrl === baseUrl,
  );
  if (file === undefined) throw new Error(`no page sizes kept for ${baseUrl} in ${dir}`);
  return file;
}

/** The page sizes (`limit`) of the task-list requests one run sent, as the demo logged them. */
async function tasksLimits(args: string[]): Promise<(string | null)[]> {
  const from = demo.region.requestLog().length;
  const { code, stderr } = await dpx(args, {
    env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal },
  });
  expect(code, stderr).toBe(0);
  return demo.region
    .requestLog()
    .slice(from)
    .map((line) => new URL(line.slice(line.indexOf(' ') + 1), demo.region.baseUrl))
    .filter((url) => url.pathname === '/tasks')
    .map((url) => url.searchParams.get('limit'));
}

describe('list --all at the largest page', () => {
  it('reads the range a refusal names, and walks at it', async () => {
    const total = (await demoRequest(demo.region, '/tasks?limit=1')).body.total_count as number;
    const before = demo.region.requestCount();
    const { code, stdout } = await dpx(['list', 'tasks', '--all', '-o', 'json'], {
      env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal },
    });
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
    writeFileSync(
      file,
      JSON.stringify({ baseUrl: kept.baseUrl, value: { 'tasks v1 list_tasks': { ask: 500, perPage: 500 } } }),
    );
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
      return serveThings((url, response) => {
        const asked = Number(url.searchParams.get('per_page') ?? '20');
        const size = largest === 'any' ? asked : Math.min(asked, largest);
        const offset = Number(url.searchParams.get('offset') ?? '0');
        const next =
          offset + size < records ? { next: { href: `/things?per_page=${asked}&offset=${offset + size}` } } : {};
        sendJson(
          response,
          200,
          { _embedded: { items: items.slice(offset, offset + size) }, _links: next },
          { 'content-type': 'application/api.acme.things=v1+json' },
        );
      });
    }

    async function walk(target: TestServer): Promise<Envelope> {
      const { code, stdout, stderr } = await dpx(['list', 'things', '--all', '-o', 'json'], {
        env: { DPX_BASE_URL: target.baseUrl, DPX_TOKEN: 'opaque' },
      });
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

  describe('on a server whose probe is refused with another 4xx', () => {
    let server: TestServer | undefined;
    afterEach(async () => server?.close());

    /** 45 records in pages of 20; a large per_page is answered `status`; the page at `brokenOffset` is a 404. */
    function serveRefusing(status: number, brokenOffset?: number): Promise<TestServer> {
      const items = Array.from({ length: 45 }, (_, i) => ({ id: `r${i}` }));
      return serveThings((url, response) => {
        const offset = Number(url.searchParams.get('offset') ?? '0');
        if (Number(url.searchParams.get('per_page') ?? '20') > 20 || offset === brokenOffset) {
          sendJson(response, offset === brokenOffset ? 404 : status, {
            errors: [{ error_code: 'refused', error_message: 'no such thing here' }],
          });
          return;
        }
        const next = offset + 20 < items.length ? { next: { href: `/things?offset=${offset + 20}` } } : {};
        sendJson(response, 200, { _embedded: { items: items.slice(offset, offset + 20) }, _links: next });
      });
    }

    it.each([404, 422])('falls back to the server default when the probe gets a %i', async (status) => {
      server = await serveRefusing(status);
      const { code, stdout, stderr } = await dpx(['list', 'things', '--all', '-o', 'ndjson'], {
        env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'opaque' },
      });
      expect(code, stderr).toBe(0);
      expect(stdout.trimEnd().split('\n')).toHaveLength(45);
      const asked = server.requests
        .map((request) => new URL(request.url, 'http://x'))
        .filter((url) => url.pathname === '/things')
        .map((url) => url.searchParams.get('per_page'));
      expect(asked).toEqual(['1000', null, null, null]);
      const kept = JSON.parse(readFileSync(keptFile(server.baseUrl), 'utf8')) as { value: Record<string, unknown> };
      expect(kept.value['things v1 list_things']).toMatchObject({ serverDefault: true });
    });

    it('a 404 on a later page is still an error', async () => {
      server = await serveRefusing(404, 20);
      const { code, stderr } = await dpx(['list', 'things', '--all', '-o', 'ndjson'], {
        env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'opaque' },
      });
      expect(code).not.toBe(0);
      expect(stderr).toContain('404');
    });
  });

  describe('on a server that takes no page size', () => {
    let server: TestServer | undefined;
    afterEach(async () => server?.close());
    const DAY = 24 * 3600_000;

    /** 45 records in pages of 20; any per_page is refused with a 400 that names it but no range. */
    function serveDefaultOnly(): Promise<TestServer> {
      const items = Array.from({ length: 45 }, (_, i) => ({ id: `r${i}` }));
      return serveThings((url, response) => {
        if (url.searchParams.has('per_page')) {
          sendJson(response, 400, {
            errors: [{ error_code: 'bad_request', error_message: 'per_page is not supported here' }],
          });
          return;
        }
        const offset = Number(url.searchParams.get('offset') ?? '0');
        const next = offset + 20 < items.length ? { next: { href: `/things?offset=${offset + 20}` } } : {};
        sendJson(response, 200, {
          _embedded: { items: items.slice(offset, offset + 20) },
          _links: next,
          current_count: Math.min(20, items.length - offset),
        });
      });
    }

    /** The per_page of each list request one `list things --all` sent (null: none), and the kept entry after it. */
    async function walk(target: TestServer): Promise<{ asked: (string | null)[]; kept: unknown }> {
      const from = target.requests.length;
      const { code, stdout, stderr } = await dpx(['list', 'things', '--all', '-o', 'ndjson'], {
        env: { DPX_BASE_URL: target.baseUrl, DPX_TOKEN: 'opaque' },
      });
      expect(code, stderr).toBe(0);
      expect(stdout.trimEnd().split('\n')).toHaveLength(45);
      const asked = target.requests
        .slice(from)
        .map((request) => new URL(request.url, target.baseUrl))
        .filter((url) => url.pathname === '/things')
        .map((url) => url.searchParams.get('per_page'));
      return {
        asked,
        kept: (JSON.parse(readFileSync(keptFile(target.baseUrl), 'utf8')) as { value: Record<string, unknown> }).value[
          'things v1 list_things'
        ],
      };
    }

    function keep(target: TestServer, entry: unknown): void {
      const file = keptFile(target.baseUrl);
      writeFileSync(file, JSON.stringify({ baseUrl: target.baseUrl, value: { 'things v1 list_things': entry } }));
    }

    it('learns the default once, reads at it without a probe for a week, then probes again', async () => {
      server = await serveDefaultOnly();
      const before = Date.now();
      const first = await walk(server);
      expect(first.asked).toEqual(['1000', null, null, null]);
      const learned = first.kept as { serverDefault: boolean; at: number };
      expect(learned.serverDefault).toBe(true);
      expect(learned.at).toBeGreaterThanOrEqual(before);

      const written = statSync(keptFile(server.baseUrl)).mtimeMs;
      const second = await walk(server);
      expect(second.asked).toEqual([null, null, null]);
      expect(second.kept).toEqual(learned);
      expect(statSync(keptFile(server.baseUrl)).mtimeMs).toBe(written);

      keep(server, { serverDefault: true, at: Date.now() - 6 * DAY });
      expect((await walk(server)).asked).toEqual([null, null, null]);

      keep(server, { serverDefault: true, at: Date.now() - 8 * DAY });
      const later = await walk(server);
      expect(later.asked).toEqual(['1000', null, null, null]);
      expect((later.kept as { at: number }).at).toBeGreaterThan(Date.now() - DAY);
    });

    it('probes again where an earlier version kept the default without a date (null)', async () => {
      server = await serveDefaultOnly();
      await walk(server);
      keep(server, null);
      const run = await walk(server);
      expect(run.asked).toEqual(['1000', null, null, null]);
      expect(run.kept).toMatchObject({ serverDefault: true });
    });
  });
});
