// `node bench/cold-start.mjs --before DIR [--after DIR] [--runs N]`: the cold start of two builds side by
// side (DIR/dpx.js; --after defaults to this clone's dist/), interleaved run by run so that drift in the
// machine's load lands on both alike, with node:http asking for the index as the baseline of `npm run bench`.
// The command is theirs: `dpx resources --output json` against a demo in its own process. Compare copies
// that sit in the same kind of folder: Node reads the nearest package.json of each (a build's own
// dist/package.json since 2026-11-28, else a clone's, or none). Each build's warm-up writes its code
// cache (in one scratch cache folder; the chunk's name tells the builds' caches apart).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startDemoProcess } from './lib/demo.mjs';
import { median, runNode } from './lib/measure.mjs';
import { HTTP_INDEX } from './lib/start-baselines.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: { before: { type: 'string' }, after: { type: 'string' }, runs: { type: 'string', default: '21' } },
});
const after = join(values.after ? resolve(values.after) : join(here, '..', 'dist'), 'dpx.js');
if (!values.before) throw new Error('give --before DIR: the dist/ folder of the build to compare with');
const before = join(resolve(values.before), 'dpx.js');
const runs = Number(values.runs);

const scratch = mkdtempSync(join(tmpdir(), 'dpx-cold-'));
const demo = await startDemoProcess(after, 1);
const env = {
  ...process.env,
  DPX_BASE_URL: demo.baseUrl,
  DPX_TOKEN: demo.token,
  DPX_CONFIG: join(scratch, 'config.json'),
  XDG_CACHE_HOME: join(scratch, 'cache'),
};
delete env.DPX_PROFILE;
const times = { before: [], after: [], node: [] };
try {
  process.stderr.write(`cold start, ${runs} interleaved runs each (one warm-up), load ${loadavg()[0].toFixed(1)}\n`);
  for (let i = -1; i < runs; i += 1) {
    const order = i % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const side of order) {
      const run = await runNode([side === 'before' ? before : after, 'resources', '--output', 'json'], env);
      if (run.code !== 0) throw new Error(`${side} exited with ${run.code}: ${run.stderr}`);
      if (i >= 0) times[side].push(run.ms);
    }
    const baseline = await runNode(['--input-type=module', '-e', HTTP_INDEX], env);
    if (i >= 0) times.node.push(baseline.ms);
  }
} finally {
  await demo.close();
  rmSync(scratch, { recursive: true, force: true });
}
const [b, a, n] = [median(times.before), median(times.after), median(times.node)];
process.stdout.write(
  [
    `| build | median ms | vs node:http asking for the index |`,
    `|---|---|---|`,
    `| before (${values.before}) | ${b.toFixed(0)} | ${(b / n).toFixed(2)}× |`,
    `| after (${values.after ?? 'dist/'}) | ${a.toFixed(0)} | ${(a / n).toFixed(2)}× |`,
    `| node:http asking for the index | ${n.toFixed(0)} | 1.00× |`,
    '',
    `after / before: ${(a / b).toFixed(3)}× (load ${loadavg()[0].toFixed(1)} at the end)`,
    '',
  ].join('\n'),
);
