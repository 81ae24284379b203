import { afterAll, describe, expect, it } from 'vitest';
import { demoPages, demoRequest, useDemo } from '../../helpers/demo.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

/** The server's own count of a list under a filter, asked directly. */
async function serverCount(path: string, filter: Record<string, unknown>): Promise<number> {
  const response = await demoRequest(
    demo.region,
    `${path}?limit=1&filter=${encodeURIComponent(JSON.stringify(filter))}`,
  );
  expect(response.status).toBe(200);
  return response.body.total_count as number;
}

async function windowList(
  resource: string,
  extra: string[] = [],
): Promise<{ items: Record<string, unknown>[]; stderr: string }> {
  const { code, stdout, stderr } = await dpx(
    ['list', resource, '--since', '24h', '--all', '--page-size', '100', '-o', 'json', ...extra],
    { env: env() },
  );
  expect(code).toBe(0);
  return { items: (JSON.parse(stdout) as { items: Record<string, unknown>[] }).items, stderr };
}

describe('--since and --until', () => {
  it('lists only the tasks created in the window, as many as the server counts for it', async () => {
    const started = Date.now();
    const { items, stderr } = await windowList('tasks');
    expect(stderr).toMatch(/^window: created_timestamp ≥ \S+Z \(--time-field chooses another field\)\n$/);
    const since = new Date(stderr.match(/≥ (\S+Z)/)![1]!).getTime();
    expect(started - since).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(Date.parse(String(item['created_timestamp']))).toBeGreaterThanOrEqual(since);
    expect(items.length).toBe(
      await serverCount('/tasks', { created_timestamp: { $gte: new Date(since).toISOString() } }),
    );
    const everything = await serverCount('/tasks', {});
    expect(items.length).toBeLessThan(everything);
  });

  it("puts the window on an audit trail's own time field", async () => {
    const { items, stderr } = await windowList('audit-trails');
    expect(stderr).toContain('window: timestamp ≥ ');
    const since = Date.parse(stderr.match(/≥ (\S+Z)/)![1]!);
    for (const item of items) expect(Date.parse(String(item['timestamp']))).toBeGreaterThanOrEqual(since);
    // Audit trails carry no total_count: the server's answer is every page of the same filter.
    const filter = encodeURIComponent(JSON.stringify({ timestamp: { $gte: new Date(since).toISOString() } }));
    expect(items.map((item) => item['id'])).toEqual(
      (await demoPages(demo.region, `/audit-trails?limit=100&filter=${filter}`)).map((item) => item.id),
    );
  });

  it("counts a window with the server's own count for it", async () => {
    const { code, stdout, stderr } = await dpx(['count', 'tasks', '--since', '24h', '-o', 'json'], { env: env() });
    expect(code).toBe(0);
    const since = Date.parse(stderr.match(/≥ (\S+Z)/)![1]!);
    const matrix = JSON.parse(stdout) as { rows: { total: number }[] };
    expect(matrix.rows[0]!.total).toBe(
      await serverCount('/tasks', { created_timestamp: { $gte: new Date(since).toISOString() } }),
    );
  });

  it('with --time-field and --until, windows on the field named', async () => {
    const { items, stderr } = await windowList('tasks', ['--time-field', 'start_timestamp', '--until', '1h']);
    expect(stderr).toMatch(/^window: start_timestamp ≥ \S+ and start_timestamp < \S+\n$/);
    const until = Date.parse(stderr.match(/< (\S+Z)/)![1]!);
    for (const item of items) expect(Date.parse(String(item['start_timestamp']))).toBeLessThan(until);
  });
});

describe('a server that refuses the window as a filter', () => {
  let server: TestServer | undefined;
  afterAll(async () => server?.close());

  it('gets the plain list, filtered as it streams, and stderr says so', async () => {
    const now = Date.now();
    const records = Array.from({ length: 30 }, (_, i) => ({
      id: `e${i}`,
      opened_at: new Date(now - i * 3_600_000 - 60_000).toISOString(),
    }));
    server = await startServer((request, response, self) => {
      const url = new URL(request.url, self.baseUrl);
      if (url.pathname === '/') {
        sendJson(response, 200, {
          events: {
            supported_versions: ['v1'],
            v1: { list_events: { href: '/events{?size,cursor,where}', type: 'get', templated: true } },
          },
        });
      } else if (url.searchParams.has('where')) {
        sendJson(response, 400, { errors: [{ error_code: '4001', error_message: 'filters are not supported' }] });
      } else {
        const at = Number(url.searchParams.get('cursor') ?? '0');
        const next = at + 10 < records.length ? { next: { href: `/events?size=10&cursor=${at + 10}` } } : {};
        sendJson(
          response,
          200,
          { _embedded: { items: records.slice(at, at + 10) }, _links: next, total_count: records.length },
          { 'content-type': 'application/api.acme.events=v1+json' },
        );
      }
    });
    const { code, stdout, stderr } = await dpx(['list', 'events', '--since', '5h', '--all', '-o', 'json'], {
      env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'opaque-test-token' },
    });
    expect(code).toBe(0);
    expect(stderr).toContain('window: opened_at ≥ ');
    expect(stderr).toContain('the server refused the window as a filter');
    const listed = JSON.parse(stdout) as { items: { id: string }[]; total_count?: number };
    expect(listed.items.map((item) => item.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
    expect(listed.total_count).toBeUndefined();
  });

  it('counts the window from every record it reads, and marks the count so', async () => {
    const { code, stdout, stderr } = await dpx(['count', 'events', '--since', '5h', '-o', 'json'], {
      env: { DPX_BASE_URL: server!.baseUrl, DPX_TOKEN: 'opaque-test-token' },
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('every record is read and the window applied here');
    const row = (JSON.parse(stdout) as { rows: { total: number; counted: boolean }[] }).rows[0]!;
    expect(row).toMatchObject({ total: 5, counted: true });
  });
});
