// Where an as-sent export's time goes per page (issue 40), stage by stage, in CPU time: the body's decoding
// to text, JSON.parse, item-bytes' scan for the records' spans; and beside them a candidate for reading each
// body once, a validating pass over the bytes that finds the spans itself (written here, not in src, until
// the records of a page can stay unparsed: see the note at its head). `--check` also compares its accept or
// reject with JSON.parse's over mutated bodies.
// Usage: node bench/parse-stages.mjs [page-size] [--check]
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

/** src/api/hal/item-bytes.ts as it is, built to a module in memory. */
async function loadItemBytes() {
  const built = await build({
    entryPoints: [join(root, 'src/api/hal/item-bytes.ts')],
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const code = Buffer.from(built.outputFiles[0].contents).toString('base64');
  return (await import(`data:text/javascript;base64,${code}`)).itemBytes;
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

/**
 * The candidate: JSON's grammar checked over UTF-8 bytes (isUtf8 first), throwing where JSON.parse would,
 * returning the start and end of each element of the arrays at depth 3 (the envelope's `_embedded.items`).
 * A body it rejects would go to JSON.parse for the user-facing error, so only its acceptance must be exact.
 */
function validatingSpans(b) {
  const n = b.length;
  let i = 0;
  let depth = 0;
  const spans = [];
  const fail = () => {
    throw new SyntaxError(`not JSON at byte ${i}`);
  };
  const space = () => {
    for (let c = b[i]; c === 32 || c === 10 || c === 13 || c === 9; c = b[i]) i += 1;
  };
  const string = () => {
    i += 1;
    for (;;) {
      const c = b[i++];
      if (c === 34) return;
      if (c === undefined || c < 32) fail();
      if (c === 92) {
        const e = b[i++];
        if (e === 117) {
          for (let k = 0; k < 4; k += 1) {
            const h = b[i++] | 32;
            if (!((h >= 48 && h <= 57) || (h >= 97 && h <= 102))) fail();
          }
        } else if (!(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116))
          fail();
      }
    }
  };
  const digits = () => {
    const start = i;
    while (b[i] >= 48 && b[i] <= 57) i += 1;
    if (i === start) fail();
  };
  const number = () => {
    if (b[i] === 45) i += 1;
    if (b[i] === 48) i += 1;
    else digits();
    if (b[i] === 46) {
      i += 1;
      digits();
    }
    if (b[i] === 101 || b[i] === 69) {
      i += 1;
      if (b[i] === 43 || b[i] === 45) i += 1;
      digits();
    }
  };
  const word = (text) => {
    for (let k = 0; k < text.length; k += 1) if (b[i++] !== text.charCodeAt(k)) fail();
  };
  const value = () => {
    space();
    const c = b[i];
    if (c === 123 || c === 91) {
      const close = c + 2;
      if (++depth > DEPTH) fail();
      i += 1;
      space();
      if (b[i] === close) {
        i += 1;
        depth -= 1;
        return;
      }
      for (;;) {
        space();
        if (c === 123) {
          if (b[i] !== 34) fail();
          string();
          space();
          if (b[i++] !== 58) fail();
          value();
        } else {
          space();
          const start = i;
          value();
          if (depth === 3) spans.push(start, i);
        }
        space();
        const e = b[i++];
        if (e === 44) continue;
        if (e === close) break;
        fail();
      }
      depth -= 1;
    } else if (c === 34) string();
    else if (c === 116) word('true');
    else if (c === 102) word('false');
    else if (c === 110) word('null');
    else number();
  };
  if (!isUtf8(b)) fail();
  value();
  space();
  if (i !== n) fail();
  return spans;
}

/** Random edits of a small envelope: of UTF-8 bodies, the candidate must accept exactly what JSON.parse accepts. */
function check() {
  const base = Buffer.from(
    '{"_embedded":{"items":[{"id":"a\\u00e9\\n","n":-1.5e+3,"t":true,"f":false,"z":null,"x":[1,2,{}],"s":"–"}]},"c":0}',
  );
  const alphabet = Buffer.from('{}[]",:\\ \t\n\r0123456789-+.eEtrufalsn/bux\u0001');
  let seed = 12345;
  const random = (k) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  let accepted = 0;
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
    // Bytes that are not UTF-8 are the old path's (the records as parsed, U+FFFD and all), as in item-bytes.
    if (!isUtf8(body)) continue;
    const parses = (fn) => {
      try {
        fn();
        return true;
      } catch {
        return false;
      }
    };
    const byParse = parses(() => JSON.parse(body.toString('utf8')));
    if (byParse !== parses(() => validatingSpans(body))) throw new Error(`disagreement over ${body}`);
    if (byParse) accepted += 1;
  }
  for (const depth of [DEPTH, DEPTH + 1]) {
    const deep = Buffer.from('['.repeat(depth) + ']'.repeat(depth));
    let ok = true;
    try {
      validatingSpans(deep);
    } catch {
      ok = false;
    }
    if (ok !== (depth === DEPTH)) throw new Error(`depth ${depth} judged wrongly`);
  }
  console.log(
    `check: ${RUNS_CHECKED} mutated bodies (${accepted} valid); on each one in UTF-8 the candidate agrees with JSON.parse`,
  );
}

const itemBytes = await loadItemBytes();
const body = await fetchPage();
const count = JSON.parse(body.toString('utf8')).current_count;
if (validatingSpans(body).length !== count * 2) throw new Error('the candidate did not find every record');
const text = body.toString('utf8');
const stages = [
  ['decode (Buffer toString)', () => body.toString('utf8')],
  ['JSON.parse', () => JSON.parse(text)],
  ['item-bytes scan', () => itemBytes(body, 'items', count)],
  ['today: the three', () => itemBytes(body, 'items', JSON.parse(body.toString('utf8')).current_count)],
  ['candidate: validating pass', () => validatingSpans(body)],
];
console.log(`a page of ${count} records, ${body.length} bytes; load average ${loadavg()[0].toFixed(1)}`);
for (const [name, fn] of stages) console.log(`${name.padEnd(28)} ${cpuPerCall(fn).toFixed(0).padStart(6)} µs CPU`);
if (process.argv.includes('--check')) check();
