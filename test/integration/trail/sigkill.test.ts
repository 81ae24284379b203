// A process recording a trail is killed with SIGKILL in the middle of writing; dpx's reader must read the
// file it leaves: every entry written so far, each one complete (a torn last one dropped), and no token.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHarText, readTrail } from '../../../src/api/case/har.js';
import { harProblems } from '../../unit/trail/har-schema.js';

const TOKEN = 'sigkill-test-token-5d1e8a2b77c4';
/** Entry sizes that fit in a page and that span many, so that both ways of appending are killed. */
const FILLER_LENGTHS = [100, 1500, 30_000];
const filler = (index: number): string => 'f'.repeat(FILLER_LENGTHS[index % FILLER_LENGTHS.length] as number);

/** The discovery index the child records first, as dpx does, so that the reader finds the API. */
const INDEX = { items: { supported_versions: ['v1'], v1: { list_items: { href: '/items{?i}', type: 'get', templated: true } } } };

/** Records the index, then entries as fast as it can (bounded in count and time), saying "ready" after the 50th. */
const CHILD = `
import { HarTrail } from './trail.mjs';
const [path, token] = process.argv.slice(2);
const lengths = ${JSON.stringify(FILLER_LENGTHS)};
const trail = await HarTrail.open(path, () => [token]);
trail.record({
  startedAt: new Date(),
  durationMs: 1,
  request: { method: 'GET', url: 'http://127.0.0.1/', headers: { Authorization: 'Bearer ' + token, accept: 'application/json' } },
  response: { status: 200, statusText: 'OK', headers: { 'content-type': 'application/api.service.*=v1+json' },
    body: ${JSON.stringify(JSON.stringify(INDEX))}, bodyTruncated: false, contentType: 'application/api.service.*=v1+json' },
});
const deadline = Date.now() + 20_000;
for (let i = 0; i < 2_000_000 && Date.now() < deadline; i += 1) {
  trail.record({
    startedAt: new Date(),
    durationMs: 1,
    request: { method: 'GET', url: 'http://127.0.0.1/items?i=' + i, headers: { Authorization: 'Bearer ' + token } },
    response: { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ i, token, filler: 'f'.repeat(lengths[i % lengths.length]) }), bodyTruncated: false, contentType: 'application/json' },
  });
  if (i === 50) process.stdout.write('ready\\n');
}
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dpx-sigkill-'));
  await build({
    entryPoints: [fileURLToPath(new URL('../../../src/api/case/trail.ts', import.meta.url))],
    outfile: join(dir, 'trail.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  await writeFile(join(dir, 'child.mjs'), CHILD);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the child, waits until it has written 50 entries, lets it run `delayMs` more, then SIGKILLs it. */
async function killWhileRecording(path: string, delayMs: number): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [join(dir, 'child.mjs'), path, TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.on('exit', () => reject(new Error('the child ended before writing 50 entries')));
  });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill('SIGKILL');
  return exited;
}

describe('a trail killed with SIGKILL mid-session', () => {
  it.each([0, 30, 120, 300])('is read by dpx with every entry complete (killed %i ms after the 50th entry)', async (delayMs) => {
    const path = join(dir, `killed-${delayMs}.har`);
    expect(await killWhileRecording(path, delayMs)).toBe('SIGKILL');

    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(TOKEN);
    // What the reader rebuilds is a HAR 1.2 document, tail and all.
    expect(harProblems(parseHarText(text, path).document)).toEqual([]);

    const trail = await readTrail(path);
    expect(trail.baseUrl).toBe('http://127.0.0.1');
    expect(trail.repaired).toBeDefined();
    const [index, ...items] = trail.exchanges;
    expect(JSON.parse(index?.text ?? '')).toEqual(INDEX);
    expect(items.length).toBeGreaterThan(50);
    items.forEach((exchange, i) => {
      expect(exchange.url).toBe(`http://127.0.0.1/items?i=${i}`);
      expect(exchange.requestHeaders).toEqual({ authorization: 'Bearer ***' });
      expect(JSON.parse(exchange.text ?? '')).toEqual({ i, token: '***', filler: filler(i) });
    });
    // Only the very last line can be torn: everything before it was read.
    const lines = text.split('\n').filter((line) => line !== '');
    expect(lines.length - 1 - trail.exchanges.length).toBe(trail.repaired?.droppedTornEntry ? 1 : 0);
  });
});
