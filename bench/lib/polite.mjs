// A server limited to 10 requests a second: `dpx list --all` at dpx's own rate (not lifted), its trail
// read for answers of 429. Every page must come without one: dpx paces itself by the server's headers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNode } from './measure.mjs';

export const POLITE_RATE = 10;

/** `demo` runs with `--rate-limit POLITE_RATE`; `env` is the client's, with DPX_RATE left to dpx. */
export async function politeExport(bundle, env, resource) {
  const folder = mkdtempSync(join(tmpdir(), 'dpx-polite-'));
  const trail = join(folder, 'trail.har');
  try {
    const own = { ...env };
    delete own.DPX_RATE;
    const run = await runNode([bundle, '--trail', trail, 'list', resource, '--all', '--output', 'ndjson'], own);
    if (run.code !== 0) throw new Error(`dpx list --all at ${POLITE_RATE}/s exited with ${run.code}: ${run.stderr}`);
    // An entry a line, each after the first led by its comma; only entries hold a request.
    const statuses = readFileSync(trail, 'utf8')
      .split('\n')
      .map((line) => (line.startsWith(',') ? line.slice(1) : line))
      .filter((line) => line.startsWith('{') && !line.startsWith('{"log"'))
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.request !== undefined)
      .map((entry) => entry.response?.status);
    return {
      records: run.lines,
      requests: statuses.length,
      refused: statuses.filter((s) => s === 429).length,
      ms: run.ms,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
