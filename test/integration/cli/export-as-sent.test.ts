// An export writes each record as the server sent it where it can vouch for the bytes: a 64-bit id keeps
// every digit (JSON.parse would round it). Where it cannot (a page written over several lines, records
// cut to some fields), it writes the parsed record, one line each all the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { dpx } from './harness.js';

const demo = useDemo();

/** Ids past 2^53, written as the server's JSON numbers: no double holds them. */
const ids = ['9007199254740993', '12345678901234567891', '18446744073709551615', '9223372036854775807'];
const record = (id: string, index: number): string =>
  `{"id":${id},"name":"thing ${index}","status":"${index % 2 === 0 ? 'ok' : 'failed'}","ratio":1.50}`;
/** Records as an indenting server writes them in its items array: a field a line. */
const indented = (items: string[]): string =>
  items.map((item) => `      ${item.replace(/,/g, ',\n        ')}`).join(',\n');

let server: TestServer;

beforeAll(async () => {
  server = await startServer((request, response, self) => {
    const url = new URL(request.url, self.baseUrl);
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          things: {
            supported_versions: ['v1'],
            v1: { list_things: { href: '/things{?page}', type: 'get', templated: true } },
          },
        }),
      );
      return;
    }
    // Page 1 is written compactly; page 2 over several lines, as a server that indents its JSON does.
    const page = Number(url.searchParams.get('page') ?? '1');
    const records = page === 1 ? [0, 1] : [2, 3];
    const items = records.map((index) => record(ids[index]!, index));
    const next = page === 1 ? '"next":{"href":"/things?page=2"}' : '';
    const body =
      page === 1
        ? `{"_links":{${next}},"_embedded":{"items":[${items.join(',')}]},"total_count":4}`
        : `{\n  "_links": {${next}},\n  "_embedded": {\n    "items": [\n` +
          `${indented(items)}\n    ]\n  },\n  "total_count": 4\n}\n`;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
});

afterAll(async () => server.close());

async function list(args: string[]): Promise<string> {
  const { code, stdout, stderr } = await dpx(['list', 'things', '--all', ...args], {
    env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'opaque' },
  });
  expect(code, stderr).toBe(0);
  return stdout;
}

describe('an export of the records as sent', () => {
  it('ndjson: the compact page as sent, every digit of its ids kept; the indented page parsed, one line a record', async () => {
    const lines = (await list(['-o', 'ndjson'])).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.slice(0, 2)).toEqual([record(ids[0]!, 0), record(ids[1]!, 1)]);
    // The page over several lines is written from the parsed records: JSON.parse's doubles.
    expect(lines.slice(2).map((line) => JSON.parse(line) as unknown)).toEqual([
      JSON.parse(record(ids[2]!, 2)),
      JSON.parse(record(ids[3]!, 3)),
    ]);
    expect(lines[2]).not.toContain(ids[2]);
  });

  it('json: the same records in one document, which parses', async () => {
    const text = await list(['-o', 'json']);
    expect(text).toContain(record(ids[0]!, 0));
    expect(text).toContain(record(ids[1]!, 1));
    const document = JSON.parse(text) as { items: { name: string }[]; total_count: number; pages_fetched: number };
    expect(document.items.map((item) => item.name)).toEqual(['thing 0', 'thing 1', 'thing 2', 'thing 3']);
    expect(document).toMatchObject({ total_count: 4, pages_fetched: 2 });
  });

  it('records cut to some fields are written from what was parsed; a list cut short keeps its records as sent', async () => {
    const fields = (await list(['-o', 'ndjson', '--fields', 'name,status'])).trimEnd().split('\n');
    expect(fields).toEqual([
      '{"name":"thing 0","status":"ok"}',
      '{"name":"thing 1","status":"failed"}',
      '{"name":"thing 2","status":"ok"}',
      '{"name":"thing 3","status":"failed"}',
    ]);
    const first = (await list(['-o', 'ndjson', '--max-items', '1'])).trimEnd().split('\n');
    expect(first).toEqual([record(ids[0]!, 0)]);
  });
});

describe("an export of the demo's records", () => {
  /** Every page of a demo list as the demo sends it, along its next links. */
  async function pagesAsSent(path: string): Promise<string[]> {
    const pages: string[] = [];
    for (let next: string | undefined = path; next !== undefined; ) {
      const response = await fetch(new URL(next, demo.region.baseUrl), {
        headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      pages.push(text);
      next = (JSON.parse(text) as { _links: { next?: { href: string } } })._links.next?.href;
    }
    return pages;
  }

  it('ndjson: byte for byte the records of every page as the demo sent them', async () => {
    const pages = await pagesAsSent('/tasks?limit=40');
    expect(pages.length).toBeGreaterThan(2);
    // The demo writes its pages compactly: each record as sent is its JSON.stringify.
    const sent = pages.flatMap((text) => {
      expect(JSON.stringify(JSON.parse(text))).toBe(text);
      return (JSON.parse(text) as { _embedded: { items: unknown[] } })._embedded.items.map((item) =>
        JSON.stringify(item),
      );
    });
    const { code, stdout, stderr } = await dpx(['list', 'tasks', '--all', '--page-size', '40', '-o', 'ndjson'], {
      env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(sent.map((record) => `${record}\n`).join(''));
  });
});
