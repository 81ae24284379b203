import { afterAll, describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

interface Envelope {
  items: Record<string, unknown>[];
  total_count?: number;
  total_pages?: number;
  pages_fetched: number;
}

async function listJson(args: string[]): Promise<Envelope> {
  const { code, stdout, stderr } = await dpx(['list', ...args, '--output', 'json'], { env: env() });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as Envelope;
}

describe('dpx list — formats', () => {
  it("json: one document with the items and the server's counts", async () => {
    const page = await listJson(['users', '--page-size', '7']);
    expect(page.items).toHaveLength(7);
    expect(page.total_count).toBeGreaterThan(7);
    expect(page.total_pages).toBe(Math.ceil(page.total_count! / 7));
    expect(page.pages_fetched).toBe(1);
    expect(page.items[0]).toHaveProperty('email');
  });

  it('table: fits the terminal, id and name first, cut cells marked, hidden fields named, page position on stderr', async () => {
    const { code, stdout, stderr } = await dpx(['list', 'tasks'], { env: env(), stdoutTTY: true, columns: 72 });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^id\s+name\s+status\s/);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(72);
    expect(stdout).toContain('…');
    expect(stderr).toMatch(/not shown for lack of width: .*created_timestamp/);
    expect(stderr).toMatch(/^10 (of [\d,]+ )?items/m);
  });

  it('table: when piped, lays out for $COLUMNS (else 100)', async () => {
    const wide = await dpx(['list', 'users'], { env: { ...env(), COLUMNS: '200' } });
    const narrow = await dpx(['list', 'users'], { env: env() });
    expect(Math.max(...wide.stdout.split('\n').map((line) => stringWidth(line)))).toBeGreaterThan(100);
    expect(Math.max(...narrow.stdout.split('\n').map((line) => stringWidth(line)))).toBeLessThanOrEqual(100);
  });

  it('ndjson: one record per line, the same records as json', async () => {
    const { code, stdout } = await dpx(['list', 'users', '--page-size', '5', '--output', 'ndjson'], { env: env() });
    expect(code).toBe(0);
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual((await listJson(['users', '--page-size', '5'])).items);
  });

  it('csv: RFC 4180 with a header of the record fields, nested values as JSON', async () => {
    const { code, stdout } = await dpx(['list', 'tasks', '--page-size', '4', '--output', 'csv', '--csv-crlf'], {
      env: env(),
    });
    expect(code).toBe(0);
    const lines = stdout.split('\r\n');
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe('');
    const header = lines[0]!.split(',');
    expect(header).toContain('id');
    expect(header).toContain('status');
    expect(header).not.toContain('_links');
    const json = await listJson(['tasks', '--page-size', '4']);
    const nested = Object.entries(json.items[0]!).find(
      ([key, value]) => key !== '_links' && typeof value === 'object' && value !== null,
    );
    if (nested) expect(lines[1]).toContain(`"${JSON.stringify(nested[1]).replace(/"/g, '""')}"`);
    expect(lines[1]!.startsWith(String(json.items[0]![header[0]!] ?? ''))).toBe(true);
  });
});

describe('dpx list — paging and filters', () => {
  it('--page gives another page, and --max-items caps the records', async () => {
    const first = await listJson(['users', '--page-size', '3']);
    const second = await listJson(['users', '--page-size', '3', '--page', '2']);
    expect(second.items.map((item) => item['id'])).not.toEqual(first.items.map((item) => item['id']));
    const capped = await listJson(['users', '--all', '--page-size', '4', '--max-items', '10']);
    expect(capped.items).toHaveLength(10);
    expect(capped.pages_fetched).toBe(3);
  });

  it("--all walks every page once; json counts equal the server's total", async () => {
    const all = await listJson(['users', '--all', '--page-size', '9']);
    expect(all.items).toHaveLength(all.total_count!);
    expect(new Set(all.items.map((item) => item['id'])).size).toBe(all.total_count);
    expect(all.pages_fetched).toBe(Math.ceil(all.total_count! / 9));
  });

  it('a JSON filter reaches the server and narrows the list', async () => {
    const filtered = await listJson(['users', '--all', '--filter', '{"name":{"$contains":"a"}}']);
    const everyone = await listJson(['users', '--all', '--page-size', '100']);
    expect(filtered.items.length).toBeGreaterThan(0);
    expect(filtered.items.length).toBeLessThan(everyone.items.length);
    for (const item of filtered.items) expect(String(item['name'])).toContain('a');
  });

  it('a filter that is not JSON is refused with exit 2 before any request is sent', async () => {
    const before = demo.region.requestCount();
    const { code, stdout, stderr } = await dpx(['list', 'users', '--filter', '{name: a}'], { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: --filter is not valid JSON/m);
    expect(stderr).toMatch(/^hint: /m);
    expect(demo.region.requestCount()).toBe(before);
  });

  it("a filter the server refuses is exit 1 with the server's error code and the HTTP status", async () => {
    const { code, stderr } = await dpx(['list', 'users', '--filter', '{"name":{"$like":"a"}}'], { env: env() });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: HTTP 400/m);
    expect(stderr).toMatch(/^ {2}\[\w+\] .*\$like/m);
    expect(stderr).toMatch(/^hint: /m);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('an unknown resource is exit 2 and names the known ones', async () => {
    const { code, stderr } = await dpx(['list', 'nothing-here'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/users/);
  });

  it('an unsupported --version is refused with the supported versions named', async () => {
    const { code, stderr } = await dpx(['list', 'users', '--version', 'v7'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^hint: supported versions: v2, v1$/m);
  });

  it('the older version of a resource is asked for with its own media type', async () => {
    const v1 = await listJson(['users', '--version', 'v1', '--page-size', '2']);
    const v2 = await listJson(['users', '--page-size', '2']);
    expect(Object.keys(v1.items[0]!).sort()).not.toEqual(Object.keys(v2.items[0]!).sort());
  });
});
