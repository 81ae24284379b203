import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import type { Exchange } from '../../../src/api/exchange.js';
import { HarTrail } from '../../../src/api/case/trail.js';
import packageJson from '../../../package.json' with { type: 'json' };
import { jwt, secret, textWith } from './arbitraries.js';
import { harProblems, readHar, type HarDocument } from './har-schema.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const JWT = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLWJ5dGVz';
const OPAQUE = 'opaque-service-token-7f3a9c1e55';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = temporaryFolder('dpx-trail-');
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
  it('writes nothing until the command ends; then the case is strict HAR 1.2 with the command as its page, readable only by its owner', async () => {
    const trail = await HarTrail.open(path, () => ['secret-token-value-0123456789'], {
      argv: ['list', 'tasks', '--filter', '{"a":"secret-token-value-0123456789"}'],
      baseUrl: 'http://127.0.0.1:4010/api',
      unit: 'unit-1',
      profile: 'eu',
    });
    trail.record(exchange());
    expect(existsSync(path)).toBe(false);
    await trail.close();
    const har = readHar(path) as HarDocument & {
      log: { pages: { id: string; title: string; _dpx: Record<string, unknown> }[] };
    };
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'dpx', version: packageJson.version });
    expect(har.log.pages).toHaveLength(1);
    expect(har.log.pages[0]).toMatchObject({
      title: `dpx list tasks --filter '{"a":"***"}'`,
      _dpx: {
        argv: ['list', 'tasks', '--filter', '{"a":"***"}'],
        baseUrl: 'http://127.0.0.1:4010/api',
        unit: 'unit-1',
        profile: 'eu',
      },
    });
    expect(har.log.entries.map((entry) => (entry as { pageref?: string }).pageref)).toEqual([har.log.pages[0]!.id]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['trail.har']);
  });

  it('adds each command as one more page, its entries pointing at it, and keeps what was there byte for byte', async () => {
    const urls = Array.from({ length: 5 }, (_, i) => `http://127.0.0.1:4010/api/things?start=${i + 1}`);
    const first = await HarTrail.open(path, () => [], { argv: ['list', 'things'] });
    for (const url of urls) first.record(exchange({ request: { method: 'GET', url, headers: {} } }));
    expect(first.entryCount).toBe(5);
    await first.close();
    const before = await readFile(path, 'utf8');
    const second = await HarTrail.open(path, () => [], { argv: ['call', 'things', 'get_thing'] });
    second.record(exchange());
    second.record(exchange());
    await second.close();
    const after = await readFile(path, 'utf8');
    // Everything up to the pages line is kept as it was: the entries region only grows.
    expect(after.startsWith(before.slice(0, before.indexOf('\n],"pages":[') + 1))).toBe(true);
    const har = readHar(path) as HarDocument & { log: { pages: { id: string; title: string }[] } };
    expect(har.log.pages.map((page) => page.title)).toEqual(['dpx list things', 'dpx call things get_thing']);
    const refs = har.log.entries.map((entry) => (entry as { pageref?: string }).pageref);
    expect(refs).toEqual([...urls.map(() => har.log.pages[0]!.id), har.log.pages[1]!.id, har.log.pages[1]!.id]);
    expect(har.log.entries.slice(0, 5).map((entry) => entry.request.url)).toEqual(urls);
  });

  it('spools an entry at the cost of its own bytes, whatever the size of what came before', async () => {
    const trail = await HarTrail.open(path, () => []);
    const spool = async () => {
      const name = (await readdir(dir)).find((file) => file.endsWith('.spool'));
      return name === undefined ? 0 : (await stat(join(dir, name))).size;
    };
    const large = exchange({ response: { ...exchange().response!, body: 'b'.repeat(200_000) } });
    const growth: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const before = await spool();
      trail.record(index === 10 ? exchange() : large);
      growth.push((await spool()) - before);
    }
    await trail.close();
    expect(new Set(growth.filter((_, index) => index !== 10)).size).toBe(1);
    expect(growth[10]).toBeLessThan(1_000);
    expect(readHar(path).log.entries).toHaveLength(20);
    expect(await readdir(dir)).toEqual(['trail.har']);
  });

  it(
    "refuses a file it did not write — another program's HAR, a text file, an empty file, an earlier dpx trail — " +
      'and leaves it byte for byte',
    async () => {
      const files: Record<string, string> = {
        'devtools.har': JSON.stringify(
          { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries: [] } },
          null,
          2,
        ),
        'compact.har': JSON.stringify({
          log: { version: '1.2', creator: { name: 'other', version: '1' }, entries: [] },
        }),
        'notes.txt': 'my notes\nabout the case\n',
        'empty.har': '',
        'earlier.har':
          '{"log":{"version":"1.2","creator":{"name":"dpx","version":"0.0.9"},"pages":[],"entries":[\n]}}\n',
        'fake-head.har':
          JSON.stringify({ log: { version: '1.2', creator: { name: 'dpx', version: '0.1.0' } } }).slice(0, -2) +
          ',"entries":[\nnot what dpx writes\n',
      };
      for (const [name, content] of Object.entries(files)) {
        const file = join(dir, name);
        await writeFile(file, content);
        const error = await HarTrail.open(file, () => []).catch((thrown: unknown) => thrown);
        expect(error, name).toBeInstanceOf(UsageError);
        expect((error as UsageError).exitCode).toBe(2);
        expect(await readFile(file, 'utf8'), name).toBe(content);
      }
      expect((await readdir(dir)).sort()).toEqual(Object.keys(files).sort());
    },
  );

  it('keeps every command of writers that end at once, each its own page', async () => {
    const trails = await Promise.all(
      Array.from({ length: 4 }, (_, i) => HarTrail.open(path, () => [], { argv: ['list', `things-${i}`] })),
    );
    trails.forEach((trail, i) => {
      for (let n = 0; n <= i; n += 1)
        trail.record(
          exchange({ request: { method: 'GET', url: `http://127.0.0.1:4010/api/things-${i}?n=${n}`, headers: {} } }),
        );
    });
    await Promise.all(trails.map((trail) => trail.close()));
    const har = readHar(path) as HarDocument & { log: { pages: { id: string; title: string }[] } };
    expect(har.log.pages.map((page) => page.title).sort()).toEqual([
      'dpx list things-0',
      'dpx list things-1',
      'dpx list things-2',
      'dpx list things-3',
    ]);
    for (const page of har.log.pages) {
      const mine = har.log.entries.filter((entry) => (entry as { pageref?: string }).pageref === page.id);
      expect(mine.map((entry) => entry.request.url).every((url) => url.includes(page.title.split(' ').at(-1)!))).toBe(
        true,
      );
    }
    expect(har.log.entries).toHaveLength(10);
    expect(await readdir(dir)).toEqual(['trail.har']);
  });

  it('records request and response as HAR fields', async () => {
    const trail = await HarTrail.open(path, () => []);
    trail.record(
      exchange({
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:4010/api/things?dry=1',
          headers: { 'Content-Type': 'application/json' },
          body: '{"name":"é"}',
        },
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
    trail.record({ ...failed, error: `connect ECONNREFUSED ${new URL(NOWHERE).host}` });
    await trail.close();
    const [entry] = readHar(path).log.entries;
    expect(entry?.response.status).toBe(0);
    expect(entry?.response._error).toBe(`connect ECONNREFUSED ${new URL(NOWHERE).host}`);
    expect(entry?.comment).toBe(`connect ECONNREFUSED ${new URL(NOWHERE).host}`);
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
    trail.record(
      exchange({
        request: { method: 'GET', url: 'http://127.0.0.1:4010/api/y', headers: { Authorization: `Bearer ${current}` } },
      }),
    );
    await trail.close();

    const text = await readFile(path, 'utf8');
    for (const leaked of [OPAQUE, encodeURIComponent(OPAQUE), JWT, 'abc123cookie', 'second-token-value-12345'])
      expect(text).not.toContain(leaked);
    const [first, second] = readHar(path).log.entries;
    expect(first?.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer ***' });
    expect(first?.request.queryString).toEqual([
      { name: 'access_token', value: '***' },
      { name: 'k', value: '***' },
    ]);
    expect(first?.response.redirectURL).toBe('http://127.0.0.1:4010/next?t=***');
    expect(second?.request.headers).toEqual([{ name: 'Authorization', value: 'Bearer ***' }]);
  });

  it('keeps no part of a token: not the signature alone, not the claims alone, not a base64 copy at any alignment', async () => {
    const [, claims, signature] = JWT.split('.') as [string, string, string];
    const copies = [
      `sig=${signature}`,
      `claims ${claims}`,
      Buffer.from(JWT).toString('base64'),
      Buffer.from(`x:${JWT}`).toString('base64'),
      Buffer.from(`xy:${JWT}!`).toString('base64url'),
      Buffer.from(`user:${OPAQUE}`).toString('base64'),
      Buffer.from(`${OPAQUE}`).toString('base64url'),
    ];
    const trail = await HarTrail.open(path, () => [JWT, OPAQUE]);
    trail.record(
      exchange({
        response: { ...exchange().response!, headers: { 'x-echo': copies[0]! }, body: JSON.stringify({ copies }) },
      }),
    );
    trail.record(
      exchange({
        request: { method: 'GET', url: `http://127.0.0.1:4010/api/x?s=${signature}&b=${copies[3]}`, headers: {} },
      }),
    );
    await trail.close();
    const text = await readFile(path, 'utf8');
    for (const part of [signature, claims, JWT, OPAQUE]) expect(text).not.toContain(part);
    for (const copy of copies) expect(text).not.toContain(copy);
    // What is left of an encoded copy is at most the few characters its neighbours share.
    const body = JSON.parse(readHar(path).log.entries[0]!.response.content.text!) as { copies: string[] };
    for (const kept of body.copies) expect(kept.replace('***', '').length).toBeLessThan(12);
  });

  it('masks a token it was never told of, once it has seen it sent in an Authorization header', async () => {
    const trail = await HarTrail.open(path, () => []);
    const echoed = (body: string): Exchange['response'] => ({ ...exchange().response!, body });
    trail.record(
      exchange({
        request: { method: 'GET', url: 'http://127.0.0.1:4010/', headers: { Authorization: `Bearer ${OPAQUE}` } },
        response: echoed(`first ${OPAQUE}`),
      }),
    );
    trail.record(
      exchange({
        request: { method: 'GET', url: 'http://127.0.0.1:4010/', headers: {} },
        response: echoed(`later ${OPAQUE}`),
      }),
    );
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
    expect(trail.entryCount).toBe(3);
    expect((await stat(snapshot)).mode & 0o777).toBe(0o600);
    await trail.close();
    expect(readHar(snapshot).log.entries).toHaveLength(2);
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
    await trail.close();
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
        response: fc.option(
          fc.record({
            status: fc.integer({ min: 100, max: 599 }),
            headers: fc.dictionary(headerName, text, { maxKeys: 3 }),
            body: text,
          }),
          {
            nil: undefined,
          },
        ),
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
          const jwts = [
            generated.path,
            ...Object.values(generated.headers),
            generated.body,
            generated.response?.body,
            generated.error,
          ].flatMap((value) => value?.jwts ?? []);
          hidden.push(generated.token, ...jwts);
          trail.record({
            startedAt: new Date(0),
            durationMs: 1,
            request: {
              method: generated.method,
              url: `http://127.0.0.1/x?q=${generated.path.text}`,
              headers: {
                ...Object.fromEntries(Object.entries(generated.headers).map(([name, value]) => [name, value.text])),
                Authorization: `Bearer ${generated.token}`,
              },
              ...(generated.body === undefined ? {} : { body: generated.body.text }),
            },
            ...(generated.response === undefined
              ? {}
              : {
                  response: {
                    status: generated.response.status,
                    statusText: '',
                    headers: Object.fromEntries(
                      Object.entries(generated.response.headers).map(([name, value]) => [name, value.text]),
                    ),
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
    const valid = JSON.parse(
      JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }),
    );
    expect(harProblems(valid)).toEqual([]);
    expect(harProblems({ log: { version: '1.1', creator: { name: 'x', version: '1' }, entries: [] } })).not.toEqual([]);
    expect(
      harProblems({
        log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ startedDateTime: 'yesterday' }] },
      }),
    ).not.toEqual([]);
  });
});
