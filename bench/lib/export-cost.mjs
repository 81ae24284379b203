// The export's CPU time against the node:http loop's, in pairs: each dpx run is followed at once by a
// loop run over the same list at the same page size, so both see the same machine. The machine is shared:
// CPU time (user + system) is what is compared, never wall time, and the load average is kept beside it.
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, runNode } from './measure.mjs';

const loop = join(dirname(fileURLToPath(import.meta.url)), '..', 'http-loop.mjs');

/**
 * `runs` pairs of `dpx list <resource> --all --output <output>` and the loop, at `pageSize`. Resolves with
 * both medians, the median of the pairs' ratios, and the load average (1 min) at the start and the end.
 */
export async function exportCost(bundle, env, { baseUrl, resource, pageSize, runs, output = 'ndjson' }) {
  const loadBefore = loadavg()[0];
  const pairs = [];
  for (let i = 0; i < runs; i += 1) {
    const dpx = await runNode(
      [bundle, 'list', resource, '--all', '--output', output, '--page-size', String(pageSize)],
      env,
    );
    if (dpx.code !== 0) throw new Error(`dpx list --all exited with ${dpx.code}: ${dpx.stderr}`);
    const base = await runNode([loop, `${baseUrl}/${resource}?limit=${pageSize}`], env);
    if (base.code !== 0) throw new Error(`the node:http loop exited with ${base.code}: ${base.stderr}`);
    if (dpx.cpuMs === undefined || base.cpuMs === undefined) throw new Error('CPU time needs GNU time (/usr/bin/time)');
    pairs.push({ dpx: dpx.cpuMs, loop: base.cpuMs, lines: dpx.lines, loopLines: base.lines });
  }
  return {
    pageSize,
    output,
    items: pairs[0].lines,
    dpxCpuMs: median(pairs.map((pair) => pair.dpx)),
    loopCpuMs: median(pairs.map((pair) => pair.loop)),
    cpuRatio: median(pairs.map((pair) => pair.dpx / pair.loop)),
    ratios: pairs.map((pair) => pair.dpx / pair.loop),
    load: [loadBefore, loadavg()[0]],
  };
}
