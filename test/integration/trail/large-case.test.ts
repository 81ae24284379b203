// A large case is read as a stream: a generated 100 MB case of 1 MB entries is listed by `dpx case` (which
// reads every body to count its records) and answered from offline, each by the bundle in a process of
// its own whose peak resident memory is measured there, and must stay under 150 MB — a reader that held
// the file, or every body, would need several times the file.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_HEAD, caseTail } from '../../../src/api/case/layout.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bundle = join(root, 'dist', 'dpx.js');
const BASE = `${NOWHERE}/api`;
const ENTRIES = 100;
const ENTRY_BYTES = 1 << 20;
const LIMIT_KB = 150 * 1024;
const INDEX = {
  things: {
    supported_versions: ['v1'],
    v1: { list_things: { href: '/things{?start}', type: 'get', templated: true } },
  },
};
const TYPE = 'application/api.acme.things=v1+json';

let dir: string;
let path: string;
let hook: string;

function entry(url: string, body: string, contentType: string, accept = contentType): string {
  return JSON.stringify({
    pageref: 'page_big',
    startedDateTime: '2025-01-02T03:04:05.000Z',
    time: 1,
    request: {
      method: 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'accept', value: accept }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'content-type', value: contentType }],
      cookies: [],
      content: { size: body.length, mimeType: contentType, text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  });
}

/** A page of 100 records of about 10 KB each: 1 MB of body. */
function page(index: number): string {
  const items = Array.from({ length: 100 }, (_, i) => ({
    id: `thing-${index}-${i}`,
    name: `thing ${i}`,
    notes: 'n'.repeat(ENTRY_BYTES / 100 - 60),
  }));
  return JSON.stringify({ _embedded: { items }, _links: { next: { href: `/things?start=${index + 1}` } } });
}

/** Runs the bundle with a hook that reports the process's peak resident memory (kB) on its way out. */
function measured(args: string[]): Promise<{ code: number | null; maxRssKb: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const devNull = openSync('/dev/null', 'w');
    const child = spawn(process.execPath, ['--import', hook, bundle, ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, DPX_CONFIG: join(dir, 'config.json') },
      stdio: ['ignore', devNull, 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(devNull);
      const rss = /^max-rss-kb (\d+)$/m.exec(stderr);
      resolve({ code, maxRssKb: Number(rss?.[1] ?? Number.NaN), stderr });
    });
  });
}

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error('dist/dpx.js is missing: npm test builds it first (node scripts/build.mjs)');
  dir = temporaryFolder('dpx-large-case-');
  path = join(dir, 'large.har');
  hook = join(dir, 'max-rss.mjs');
  await writeFile(
    hook,
    "import { writeSync } from 'node:fs';\nprocess.on('exit', () => writeSync(2, `max-rss-kb ${process.resourceUsage().maxRSS}\\n`));\n",
  );
  const fd = openSync(path, 'w');
  writeSync(fd, CASE_HEAD);
  writeSync(fd, `${entry(`${BASE}/`, JSON.stringify(INDEX), 'application/api.acme.*=v1+json', 'application/json')}\n`);
  writeSync(fd, `,${entry(`${BASE}/things`, page(0), TYPE)}\n`);
  for (let index = 1; index < ENTRIES; index += 1)
    writeSync(fd, `,${entry(`${BASE}/things?start=${index}`, page(index), TYPE)}\n`);
  writeSync(
    fd,
    caseTail([
      JSON.stringify({
        startedDateTime: '2025-01-02T03:04:05.000Z',
        id: 'page_big',
        title: 'dpx list things --all',
        pageTimings: { onContentLoad: -1, onLoad: 1 },
        _dpx: { argv: ['list', 'things', '--all'], baseUrl: BASE },
      }),
    ]),
  );
  closeSync(fd);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a 100 MB case of 1 MB entries', () => {
  it('is listed by dpx case, every body read, within 150 MB of peak memory', async () => {
    const run = await measured(['case', path, '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.maxRssKb).toBeLessThan(LIMIT_KB);
  });

  it('answers offline from its last page within 150 MB of peak memory', async () => {
    const run = await measured(['--offline', path, 'call', 'things', 'list_things', '--query', `start=${ENTRIES - 1}`]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.maxRssKb).toBeLessThan(LIMIT_KB);
  });
});
