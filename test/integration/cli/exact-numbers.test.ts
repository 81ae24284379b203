// Numbers as the server sent them (issue 38): a server written for the test sends a 64-bit id, 1.50 and
// 1e400 (and -0); json, ndjson, csv and `dpx call` print each with the digits it was sent with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { dpx } from './harness.js';

const VENDOR = 'acme';
const TYPE = `application/api.${VENDOR}.things=v1+json`;
// Written by hand: JSON.stringify could not write these numbers.
const RECORDS = [
  '{"id":12345678901234567891,"price":1.50,"huge":1e400,"zero":-0,"name":"big","nested":{"n":9007199254740993}}',
  '{"id":7,"price":2.25,"huge":3,"zero":0,"name":"small","nested":{"n":1}}',
];
const PAGE = `{"_embedded":{"items":[\n${RECORDS.join(',\n')}\n]},"_links":{"self":{"href":"/things"}},"current_count":2}`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    if (path === '/') {
      response.writeHead(200, { 'content-type': `application/api.${VENDOR}.*=v1+json` });
      response.end(
        JSON.stringify({
          things: {
            supported_versions: ['v1'],
            v1: {
              list_things: { href: '/things{?limit,start,filter}', type: 'get', templated: true },
              get_thing: { href: '/things/{id}', type: 'get', templated: true },
            },
          },
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': TYPE });
    response.end(path === '/things' ? PAGE : RECORDS[0]);
  });
});
afterAll(() => server.close());

const env = () => ({ DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'not-a-jwt-but-a-token' });

async function run(argv: string[], options: { stdoutTTY?: boolean } = {}): Promise<string> {
  const { code, stdout, stderr } = await dpx(argv, { env: env(), ...options });
  expect(stderr).not.toMatch(/^error/m);
  expect(code).toBe(0);
  return stdout;
}

function expectExact(text: string): void {
  expect(text).toContain('12345678901234567891');
  expect(text).toContain('1.50');
  expect(text).toContain('1e400');
  expect(text).toContain('9007199254740993');
  expect(text).not.toContain('12345678901234567000');
  expect(text).not.toContain('Infinity');
  expect(text).not.toMatch(/"huge": ?null/);
}

describe('numbers as the server sent them', () => {
  it('dpx call prints the body with its numbers as sent, piped and on a terminal', async () => {
    const piped = await run(['call', 'things', 'get_thing', 'x']);
    expectExact(piped);
    expect(piped).toContain('-0');
    const onTerminal = await run(['call', 'things', 'get_thing', 'x'], { stdoutTTY: true });
    expectExact(onTerminal);
  });

  it('list -o json and -o ndjson, piped and on a terminal', async () => {
    for (const format of ['json', 'ndjson'])
      for (const stdoutTTY of [false, true]) expectExact(await run(['list', 'things', '-o', format], { stdoutTTY }));
  });

  it('list -o json and -o ndjson with --fields keep the digits of the fields chosen', async () => {
    for (const format of ['json', 'ndjson']) {
      const out = await run(['list', 'things', '-o', format, '--fields', 'id,price,huge']);
      expect(out).toContain('12345678901234567891');
      expect(out).toContain('1.50');
      expect(out).toContain('1e400');
    }
  });

  it('csv writes a number’s text as sent, from list and from call', async () => {
    const list = await run(['list', 'things', '-o', 'csv', '--fields', 'id,price,huge,zero,nested']);
    expect(list.split('\n')[1]).toBe('12345678901234567891,1.50,1e400,-0,"{""n"":9007199254740993}"');
    const call = await run(['call', 'things', 'list_things', '-o', 'csv', '--fields', 'id,price,huge']);
    expect(call.split('\n')[1]).toBe('12345678901234567891,1.50,1e400');
  });
});
