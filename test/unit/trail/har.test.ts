import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import type { Exchange } from '../../../src/api/exchange.js';
import { parseHarText } from '../../../src/api/case/har.js';
import { HarTrail } from '../../../src/api/case/trail.js';
import packageJson from '../../../package.json' with { type: 'json' };
import { jwt, secret, textWith } from './arbitraries.js';
import { harProblems, readHar, type HarDocument } from './har-schema.js';

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLWJ5dGVz';
const OPAQUE = 'opaque-service-token-7f3a9c1e55';

let dir: string;
let path: string;

/** The entries of a trail still being written, as dpx's reader sees them (the file has no tail yet). */
async function entriesSoFar(file: string): Promise<HarDocument['log']['entries']> {
  const { document } = parseHarText(await readFile(file, 'utf8'), file);
  expect(harProblems(document)).toEqual([]);
  return (document as HarDocument).log.entries;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dpx-trail-'));
  path = join(dir, 'trail.har');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    startedAt: new Date('2025-01-02T03:04:05.678Z'),
    durationMs: 12.5,
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:4010/api/things?limit=10&start=2',
      headers: { Accept: 'application/api.service.things=v2+json', Authorization: `Bearer ${JWT}` },
    },
    response: {
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'application/api.service.things=v2+json' },
      body: '{"_embedded":{"items":[]}}',
      bodyTruncated: false,
      contentType: 'application/api.service.things=v2+json',
    },
    ...overrides,
  };
}

describe('HarTrail', () => {
  it('starts as an empty trail readable only by its owner, and closes as a strict HAR 1.2 document', async () => {
    const trail = await HarTrail.open(path, () => []);
    expect(await entriesSoFar(path)).toEqual([]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await trail.close();
    const har = readHar(path);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'dpx', version: packageJson.version });
    expect(har.log.entries).toEqual([]);
  });

  it('is readable by dpx after every entry, and strict HAR with the entries in order once closed', async () => {
    const trail = await HarTrail.open(path, () => []);
    const urls = Array.from({ length: 5 }, (_, i) => `http://127.0.0.1:4010/api/things?start=${i + 1}`);
    for (const [index, url] of urls.entries()) {
      trail.record(exchange({ request: { method: 'GET', url, headers: {} } }));
      expect((await entriesSoFar(path)).map((entry) => entry.request.url)).toEqual(urls.slice(0, index + 1));
    }
    expect(trail.entryCount).toBe(5);
    await trail.close();
    expect(readHar(path).log.entries.map((entry) => entry.request.url)).toEqual(urls);
  });

  it('appends: an entry adds its own bytes, whatever the size of the file before it', async () => {
    const trail = await HarTrail.open(path, () => []);
    const large = exchange({ response: { ...exchange().response!, body: 'b'.repeat(200_000) } });
    const growth: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const before = (await stat(path)).size;
      trail.record(index === 10 ? exchange() : large);
      growth.push((await stat(path)).size - before);
    }
    await trail.close();
    // Every large entry but the first (no comma) adds the same bytes; the small one in the middle adds few.
    expect(new Set(growth.filter((_, index) => index !== 0 && index !== 10)).size).toBe(1);
    expect(growth[10]).toBeLessThan(1_000);
    expect(readHar(path).log.entries).toHaveLength(20);
  });

  it('appends small and large entries alike, keeping owner-only permissions and leaving no other file', async () => {
    const trail = await HarTrail.open(path, () => []);
    const sizes = [10, 5000, 20, 70_000, 3000, 1];
    for (const size of sizes) trail.record(exchange({ response: { ...exchange().response!, body: 'b'.repeat(size) } }));
    expect((await entriesSoFar(path)).map((entry) => entry.response.content.text?.length)).toEqual(sizes);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['trail.har']);
    await trail.close();
    expect(readHar(path).log.entries.map((entry) => entry.response.content.text?.length)).toEqual(sizes);
  });

  it('records request and response as HAR fields', async () => {
    const trail = await HarTrail.open(path, () => []);
    trail.record(
      exchange({
        request: { method: 'POST', url: 'http://127.0.0.1:4010/api/things?dry=1', headers: { 'Content-Type': 'application/json' }, body: '{"name":"é"}' },
        response: {
          status: 202,
          statusText: 'Accepted',
          headers: { Location: 'http://127.0.0.1:4010/api/tasks/1' },
          body: '{"task_id":"1"}',
          bodyTruncated: true,
          contentType: 'application/json',
        },
      }),
    );
    await trail.close();
    const [entry] = readHar(path).log.entries;
    expect(entry).toMatchObject({
      startedDateTime: '2025-01-02T03:04:05.678Z',
      time: 12.5,
      request: {
        method: 'POST',
        queryString: [{ name: 'dry', value: '1' }],
        bodySize: 13,
        postData: { mimeType: 'application/json', text: '{"name":"é"}' },
      },
      response: {
        status: 202,
        statusText: 'Accepted',
        redirectURL: 'http://127.0.0.1:4010/api/tasks/1',
        content: { size: 15, mimeType: 'application/json', text: '{"task_id":"1"}', comment: 'body truncated by dpx' },
      },
      timings: { send: 0, wait: 12.5, receive: 0 },
    });
  });

  it('records an exchange that got no response as status 0 with the error', async () => {
    const trail = await HarTrail.open(path, () => []);
    const { response: _none, ...failed } = exchange();
    trail.record({ ...failed, error: 'connect ECONNREFUSED 127.0.0.1:9' });
    await trail.close();
    const [entry] = readHar(path).log.entries;
    expect(entry?.response.status).toBe(0);
    expect(entry?.response._error).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(entry?.comment).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });

  it('contains no token anywhere: headers, URL, query, bodies, redirect, error text', async () => {
    let current = OPAQUE;
    const trail = await HarTrail.open(path, () => [current]);
    trail.record(
      exchange({
        request: {
          method: 'PUT',
          url: `http://127.0.0.1:4010/api/x?access_token=${JWT}&k=${encodeURIComponent(OPAQUE)}`,
          headers: { Authorization: `Bearer ${OPAQUE}`, 'x-debug': `token=${OPAQUE}`, Cookie: 'sid=abc123cookie' },
          body: `{"token":"${JWT}","other":"${OPAQUE}"}`,
        },
        response: {
          status: 302,
          statusText: 'Found',
          headers: { 'Set-Cookie': 'sid=abc123cookie', Location: `http://127.0.0.1:4010/next?t=${OPAQUE}` },
          body: `you sent ${OPAQUE} and ${JWT}`,
          bodyTruncated: false,
          contentType: 'text/plain',
        },
        error: `refused ${OPAQUE}`,
      }),
    );
    // A token that changes mid-session (another profile) is masked from then on.
    current = 'second-token-value-12345';
    trail.record(exchange({ request: { method: 'GET', url: 'http://127.0.0.1:4010/api/y', headers: { Authorization: `Bearer ${current}` } } }));
    await trail.close();

    const text = await readFile(path, 'utf8');
    for (const leaked of [OPAQUE, encodeURIComponent(OPAQUE), JWT, 'abc123cookie', 'second-token-value-12345']) expect(text).not.toContain(leaked);
    const [first, second] = readHar(path).log.entries;
    expect(first?.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer ***' });
    expect(first?.request.queryString).toEqual([
      { name: 'access_token', value: '***' },
      { name: 'k', value: '***' },
    ]);
    expect(first?.response.redirectURL).toBe('http://127.0.0.1:4010/next?t=***');
    expect(second?.request.headers).toEqual([{ name: 'Authorization', value: 'Bearer ***' }]);
  });

  it('masks a token it was never told of, once it has seen it sent in an Authorization header', async () => {
    const trail = await HarTrail.open(path, () => []);
    const echoed = (body: string): Exchange['response'] => ({ ...exchange().response!, body });
    trail.record(exchange({ request: { method: 'GET', url: 'http://127.0.0.1:4010/', headers: { Authorization: `Bearer ${OPAQUE}` } }, response: echoed(`first ${OPAQUE}`) }));
    trail.record(exchange({ request: { method: 'GET', url: 'http://127.0.0.1:4010/', headers: {} }, response: echoed(`later ${OPAQUE}`) }));
    await trail.close();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(OPAQUE);
    expect(readHar(path).log.entries.map((e) => e.response.content.text)).toEqual(['first ***', 'later ***']);
  });

  it('writes a snapshot of the trail so far as strict HAR, which later entries do not change', async () => {
    const trail = await HarTrail.open(path, () => []);
    trail.record(exchange());
    trail.record(exchange());
    const snapshot = join(dir, 'snapshot.har');
    await trail.writeSnapshot(snapshot);
    trail.record(exchange());
    expect(readHar(snapshot).log.entries).toHaveLength(2);
    expect(await entriesSoFar(path)).toHaveLength(3);
    expect((await stat(snapshot)).mode & 0o777).toBe(0o600);
    await trail.close();
    const afterClose = join(dir, 'after-close.har');
    await trail.writeSnapshot(afterClose);
    expect(readHar(afterClose).log.entries).toHaveLength(3);
    expect(readHar(path).log.entries).toHaveLength(3);
  });

  it('keeps a temporary trail for snapshots and removes it on close', async () => {
    const trail = await HarTrail.temporary(() => []);
    trail.record(exchange());
    const snapshot = join(dir, 'from-temporary.har');
    await trail.writeSnapshot(snapshot);
    expect(readHar(snapshot).log.entries).toHaveLength(1);
    await trail.close();
    expect(existsSync(dirname(trail.path))).toBe(false);
  });

  it('ignores exchanges after close and fails with a usage error when the file cannot be written', async () => {
    const trail = await HarTrail.open(path, () => []);
    await trail.close();
    trail.record(exchange());
    expect(readHar(path).log.entries).toHaveLength(0);
    await expect(HarTrail.open(join(dir, 'missing', 'x.har'), () => [])).rejects.toBeInstanceOf(UsageError);
  });

  it('property: any exchanges give valid HAR with no secret and no JWT in the file', async () => {
    const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/);
    const scenario = fc.array(secret, { minLength: 1, maxLength: 3 }).chain((secrets) => {
      const text = textWith(secrets);
      const exchangeArbitrary = fc.record({
        method: fc.constantFrom('GET', 'POST', 'DELETE'),
        path: text,
        token: fc.oneof(fc.constantFrom(...secrets), jwt),
        headers: fc.dictionary(headerName, text, { maxKeys: 4 }),
        body: fc.option(text, { nil: undefined }),
        response: fc.option(fc.record({ status: fc.integer({ min: 100, max: 599 }), headers: fc.dictionary(headerName, text, { maxKeys: 3 }), body: text }), {
          nil: undefined,
        }),
        error: fc.option(text, { nil: undefined }),
      });
      return fc.tuple(fc.constant(secrets), fc.array(exchangeArbitrary, { minLength: 1, maxLength: 4 }));
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ([secrets, exchanges]) => {
        const file = join(dir, `property-${(run += 1)}.har`);
        const trail = await HarTrail.open(file, () => secrets);
        const hidden = [...secrets];
        for (const generated of exchanges) {
          const jwts = [generated.path, ...Object.values(generated.headers), generated.body, generated.response?.body, generated.error].flatMap(
            (value) => value?.jwts ?? [],
          );
          hidden.push(generated.token, ...jwts);
          trail.record({
            startedAt: new Date(0),
            durationMs: 1,
            request: {
              method: generated.method,
              url: `http://127.0.0.1/x?q=${generated.path.text}`,
              headers: { ...Object.fromEntries(Object.entries(generated.headers).map(([name, value]) => [name, value.text])), Authorization: `Bearer ${generated.token}` },
              ...(generated.body === undefined ? {} : { body: generated.body.text }),
            },
            ...(generated.response === undefined
              ? {}
              : {
                  response: {
                    status: generated.response.status,
                    statusText: '',
                    headers: Object.fromEntries(Object.entries(generated.response.headers).map(([name, value]) => [name, value.text])),
                    body: generated.response.body.text,
                    bodyTruncated: false,
                    contentType: 'application/json',
                  },
                }),
            ...(generated.error === undefined ? {} : { error: generated.error.text }),
          });
        }
        await trail.close();
        const content = await readFile(file, 'utf8');
        expect(readHar(file).log.entries).toHaveLength(exchanges.length);
        for (const value of hidden) expect(content).not.toContain(value);
      }),
      { numRuns: 30 },
    );
  });
});

describe('the HAR 1.2 schema used by these tests', () => {
  it('rejects documents that are not HAR 1.2', () => {
    const valid = JSON.parse(JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }));
    expect(harProblems(valid)).toEqual([]);
    expect(harProblems({ log: { version: '1.1', creator: { name: 'x', version: '1' }, entries: [] } })).not.toEqual([]);
    expect(harProblems({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ startedDateTime: 'yesterday' }] } })).not.toEqual([]);
  });
});
