// Reading trails back: dpx's own (closed or cut short), and a browser's devtools export.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import type { Exchange } from '../../../src/api/exchange.js';
import { parseHarText, readTrail } from '../../../src/api/case/har.js';
import { HarTrail } from '../../../src/api/case/trail.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const DEVTOOLS = join(import.meta.dirname, '..', '..', 'fixtures', 'devtools-export.har');
const INDEX = {
  things: {
    supported_versions: ['v1'],
    v1: { list_things: { href: '/things{?limit}', type: 'get', templated: true } },
  },
};

let dir: string;
beforeEach(async () => {
  dir = temporaryFolder('dpx-reader-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function exchange(
  url: string,
  body: string,
  overrides: Partial<Exchange['response']> = {},
  headers: Record<string, string> = {},
): Exchange {
  return {
    startedAt: new Date('2025-01-02T03:04:05.000Z'),
    durationMs: 3,
    request: { method: 'GET', url, headers: { accept: 'application/json', ...headers } },
    response: {
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'application/api.acme.*=v1+json' },
      body,
      bodyTruncated: false,
      contentType: 'application/api.acme.*=v1+json',
      ...overrides,
    },
  };
}

async function writeTrail(name: string, exchanges: Exchange[], close = true): Promise<string> {
  const path = join(dir, name);
  const trail = await HarTrail.open(path, () => []);
  for (const item of exchanges) trail.record(item);
  await trail.close();
  if (!close) await writeFile(path, earlierKilled(await readFile(path, 'utf8')));
  return path;
}

/**
 * The same entries as a trail of an earlier dpx killed while it ran: those wrote each entry into the file
 * itself, after a head line with `"pages":[],"entries":[`, and had no tail yet.
 */
function earlierKilled(text: string): string {
  const lines = text.split('\n');
  const head = lines[0]!.replace(/"entries":\[$/, '"pages":[],"entries":[');
  const entries = lines.slice(1, lines.indexOf('],"pages":['));
  return [head, ...entries].join('\n');
}

describe('reading a dpx trail', () => {
  it('finds the API by its recorded index: base URL (with its path), vendor and unit', async () => {
    const path = await writeTrail('closed.har', [
      exchange(`${NOWHERE}/api/`, JSON.stringify(INDEX), {}, { 'x-acme-organizationalunit-context': 'unit-1' }),
      exchange(`${NOWHERE}/api/things?limit=2`, '{"_embedded":{"items":[]}}'),
    ]);
    const trail = await readTrail(path);
    expect(trail).toMatchObject({
      baseUrl: `${NOWHERE}/api`,
      vendor: 'acme',
      ou: 'unit-1',
      creator: expect.stringMatching(/^dpx /),
    });
    expect(trail.catalog.resources.map((resource) => resource.name)).toEqual(['things']);
    expect(trail.exchanges.map((item) => item.url)).toEqual([`${NOWHERE}/api/`, `${NOWHERE}/api/things?limit=2`]);
    expect(trail.repaired).toBeUndefined();
    expect(trail.warnings).toEqual([]);
  });

  it('reads a trail that was never closed, dropping a torn last entry, and says so', async () => {
    const path = await writeTrail(
      'killed.har',
      [
        exchange('http://h.example/', JSON.stringify(INDEX)),
        exchange('http://h.example/things', '{"_embedded":{"items":[]}}'),
      ],
      false,
    );
    const whole = await readFile(path, 'utf8');
    expect((await readTrail(path)).repaired).toEqual({ droppedTornEntry: false });
    await writeFile(
      path,
      `${whole}\n,{"startedDateTime":"2025-01-02T03:04:05.000Z","request":{"method":"GET","url":"http://h.ex`,
    );
    const trail = await readTrail(path);
    expect(trail.exchanges).toHaveLength(2);
    expect(trail.repaired).toEqual({ droppedTornEntry: true });
    expect(trail.warnings.join('\n')).toMatch(/was not closed.*torn last one is left out/);
  });

  it('reads a trail cut at any byte after its head: every entry whose line is whole, none other', async () => {
    const bodies = ['{"a":"é"}', 'x'.repeat(300), '{"b":"日本"}', ''];
    const path = await writeTrail(
      'cut.har',
      [
        exchange('http://h.example/', JSON.stringify(INDEX)),
        ...bodies.map((body, i) => exchange(`http://h.example/things?i=${i}`, body)),
      ],
      false,
    );
    const bytes = await readFile(path);
    const head = bytes.indexOf(10);
    // The byte offsets at which each entry's line is complete.
    const ends: number[] = [];
    for (let at = bytes.indexOf(10, head + 1); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at);
    ends.push(bytes.length);
    for (let cut = head; cut <= bytes.length; cut += 1) {
      const { document } = parseHarText(bytes.subarray(0, cut).toString('utf8'), 'cut.har');
      const whole = ends.filter((end) => end <= cut).length;
      expect((document as { log: { entries: unknown[] } }).log.entries, `cut at ${cut}`).toHaveLength(whole);
    }
  });

  it('refuses a file damaged anywhere but at its end, and one that is not HAR, with usage errors naming the file', async () => {
    const path = await writeTrail(
      'damaged.har',
      [exchange('http://h.example/', JSON.stringify(INDEX)), exchange('http://h.example/things', '{}')],
      false,
    );
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[1] = lines[1]!.slice(0, 40);
    await writeFile(path, lines.join('\n'));
    await expect(readTrail(path)).rejects.toThrow(/damaged at line 2/);
    await writeFile(path, 'hello');
    await expect(readTrail(path)).rejects.toBeInstanceOf(UsageError);
    await expect(readTrail(join(dir, 'missing.har'))).rejects.toThrow(/cannot read the trail .*ENOENT/);
  });

  it('says what it does without an index: it cannot tell where the API is, and how to record one', async () => {
    const path = await writeTrail('no-index.har', [exchange('http://h.example/things', '{"_embedded":{"items":[]}}')]);
    const failure = await readTrail(path).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as UsageError).message).toMatch(/holds no discovery index/);
    expect((failure as UsageError).hint).toMatch(/GET <base URL>\//);
  });

  it('reads the first control plane of a trail that holds two, keeps the other for the commands recorded there, and says so', async () => {
    const path = await writeTrail('two.har', [
      exchange('http://one.example/', JSON.stringify(INDEX)),
      exchange('http://two.example/', JSON.stringify(INDEX)),
      exchange('http://two.example/things', '{}'),
      exchange('http://three.example/things', '{}'),
    ]);
    const trail = await readTrail(path);
    expect(trail.baseUrl).toBe('http://one.example');
    expect(trail.apis.map((api) => api.baseUrl)).toEqual(['http://one.example', 'http://two.example']);
    expect(trail.exchanges.map((item) => item.url)).toEqual([
      'http://one.example/',
      'http://two.example/',
      'http://two.example/things',
    ]);
    expect(trail.warnings.join('\n')).toMatch(/also holds the index of http:\/\/two\.example/);
  });

  it('does not take a truncated body for the answer', async () => {
    const path = await writeTrail('truncated.har', [
      exchange('http://h.example/', JSON.stringify(INDEX)),
      exchange('http://h.example/things', '{"_embedded":', { bodyTruncated: true }),
    ]);
    const trail = await readTrail(path);
    const [, things] = trail.exchanges;
    expect(things).toMatchObject({ truncated: true, hasText: false });
    expect(await trail.text(things!)).toBeUndefined();
  });
});

describe('reading a browser devtools export', () => {
  it('keeps the requests to the API only, decodes base64 bodies, and keeps the recorded credential to mask it', async () => {
    const trail = await readTrail(DEVTOOLS);
    expect(trail.creator).toBe('WebInspector 537.36');
    expect(trail.baseUrl).toBe('https://dpm.example.com/api');
    expect(trail.vendor).toBe('acme');
    expect(trail.ou).toBe('3f0c9a4e-2b71-4d55-9e8a-6c1f0b2d7e93');
    expect(trail.exchanges.map((item) => `${item.method} ${item.url}`)).toEqual([
      'OPTIONS https://dpm.example.com/api/',
      'GET https://dpm.example.com/api/',
      'GET https://dpm.example.com/api/users?limit=2',
      'GET https://dpm.example.com/api/users/6b0f3a52-1d8e-4d7a-9a47-0c1d2e3f4a51',
    ]);
    expect(trail.warnings).toEqual([
      '3 of the 7 requests in ' + DEVTOOLS + ' are not to https://dpm.example.com/api and are left out',
    ]);
    expect(JSON.parse((await trail.text(trail.exchanges[2]!)) ?? '')._embedded.items).toHaveLength(2);
    expect(trail.credentials).toHaveLength(1);
    expect(trail.credentials[0]).toMatch(/^eyJ/);
  });
});
