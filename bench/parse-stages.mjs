// Where an as-sent export's time goes per page (issue 40), stage by stage, in CPU time: the body's decoding
// to text, JSON.parse and item-bytes' scan for the records' bytes (how a page is read for a format that
// parses its records: csv, --fields, pretty), beside the one pass of src/api/wire/list-body.ts that an
// ndjson or json export reads its pages with (the envelope parsed and its records' bytes found), and that
// pass with the records parsed too (why the other formats do not use it). `--check`
// compares the pass with JSON.parse over mutated bodies: what it reads, JSON.parse reads the same; what
// JSON.parse refuses, it refuses.
// Usage: node bench/parse-stages.mjs [page-size] [--check]
import { isDeepStrictEqual } from 'node:util';
import { isUtf8 } from 'node:buffer';
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startFastServer } from './lib/fast.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pageSize = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 100);
const RUNS = Math.max(200, 200_000 / pageSize);

/** A module of src as it is, built to a module in memory. */
async function load(path) {
  const built = await build({
    entryPoints: [join(root, path)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const code = Buffer.from(built.outputFiles[0].contents).toString('base64');
  return await import(`data:text/javascript;base64,${code}`);
}

/** The second page of the fast server's list, as its bytes. */
async function fetchPage() {
  const server = await startFastServer(pageSize * 3, pageSize);
  try {
    return await new Promise((resolve, reject) => {
      const url = `${server.baseUrl}/tasks?limit=${pageSize}&start=2`;
      get(url, { headers: { authorization: `Bearer ${server.token}` } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      }).on('error', reject);
    });
  } finally {
    await server.close();
  }
}

/** Mean CPU time (user + system) of one call, in µs. */
function cpuPerCall(fn) {
  for (let i = 0; i < RUNS / 10; i += 1) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < RUNS; i += 1) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / RUNS;
}

const DEPTH = 256;

/** Items of a body as JSON.parse reads them, or undefined when it refuses the body. */
function parsed(body) {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Random edits of a small envelope. Of each in UTF-8: what the pass reads, JSON.parse reads the same (the
 * envelope, its records, each record's bytes); what JSON.parse refuses, the pass refuses. A body it does
 * not vouch for goes to JSON.parse in src, so that count is only its cost.
 */
function check() {
  const base = Buffer.from(
    '{"_embedded":{"items":[{"id":"a\\u00e9\\n","n":-1.5e+3,"t":true,"f":false,"z":null,"x":[1,2,{}],"s":"–"},{"id":2}]},"c":0}',
  );
  const alphabet = Buffer.from('{}[]",:\\ \t\n\r0123456789-+.eEtrufalsn/bux\u0001\u0011');
  let seed = 12345;
  const random = (k) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  let valid = 0;
  let read = 0;
  const RUNS_CHECKED = 300_000;
  for (let run = 0; run < RUNS_CHECKED; run += 1) {
    const bytes = [...base];
    for (let edits = 1 + random(3); edits > 0; edits -= 1) {
      const at = random(bytes.length + 1);
      const c = alphabet[random(alphabet.length)];
      const op = random(3);
      if (op === 0) bytes.splice(at, 1);
      else if (op === 1) bytes.splice(at, 0, c);
      else bytes[at] = c;
    }
    const body = Buffer.from(bytes.filter((byte) => byte !== undefined));
    // Bytes that are not UTF-8 are left to JSON.parse of the text, U+FFFD and all.
    if (!isUtf8(body)) continue;
    const expected = parsed(body);
    const got = readListBody(body, DEPTH);
    if (expected !== undefined) valid += 1;
    if (got === undefined) continue;
    read += 1;
    const sent = got.records.asSent();
    const same =
      expected !== undefined &&
      JSON.stringify(got.body) === JSON.stringify(expected) &&
      (sent === undefined ||
        isDeepStrictEqual(
          sent.map((record) => JSON.parse(Buffer.from(record).toString('utf8'))),
          expected._embedded[got.records.key],
        ));
    if (!same) throw new Error(`disagreement over ${body}`);
  }
  for (const depth of [DEPTH, DEPTH + 1]) {
    const inner = depth - 3;
    const deep = Buffer.from(`{"_embedded":{"items":[${'['.repeat(inner)}${']'.repeat(inner)}]}}`);
    if ((readListBody(deep, DEPTH) !== undefined) !== (depth === DEPTH))
      throw new Error(`depth ${depth} judged wrongly`);
  }
  console.log(
    `check: ${RUNS_CHECKED} mutated bodies, ${valid} valid JSON, ${read} read in one pass (the rest left to JSON.parse); each one read agrees with JSON.parse`,
  );
}

const { readListBody } = await load('src/api/wire/list-body.ts');
const { itemBytes } = await load('src/api/hal/item-bytes.ts');
const body = await fetchPage();
const count = JSON.parse(body.toString('utf8')).current_count;
if (readListBody(body, DEPTH)?.records.asSent()?.length !== count)
  throw new Error('the pass did not find every record');
const text = body.toString('utf8');
const stages = [
  ['decode (Buffer toString)', () => body.toString('utf8')],
  ['JSON.parse', () => JSON.parse(text)],
  ['item-bytes scan', () => itemBytes(body, 'items', count)],
  ['decode, JSON.parse, scan', () => itemBytes(body, 'items', JSON.parse(body.toString('utf8')).current_count)],
  ['one pass, records as sent', () => readListBody(body, DEPTH).records.asSent()],
  ['one pass, records parsed too', () => readListBody(body, DEPTH).records.elements()],
];
console.log(`a page of ${count} records, ${body.length} bytes; load average ${loadavg()[0].toFixed(1)}`);
for (const [name, fn] of stages) console.log(`${name.padEnd(30)} ${cpuPerCall(fn).toFixed(0).padStart(6)} µs CPU`);
if (process.argv.includes('--check')) check();
