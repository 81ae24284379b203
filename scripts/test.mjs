// `npm test` after the build: the type check (tsc --noEmit), the lint and format check (biome ci, the
// rules of biome.jsonc) and the suite (vitest run) side by side, and a failure of any fails the run. The
// suite spends much of its time waiting (servers, timeouts, child processes); tsc and biome run at the
// lowest priority, so they take the cores only while the suite leaves them idle, and their reports are
// printed after the suite's. Arguments go to vitest (`npm test -- FILE`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The path of a package's command, from its package.json (vitest exports no path to it). */
function command(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  return join(dirname(manifest), require(manifest).bin[name]);
}

/** Resolves with the exit code; a process killed by a signal counts as failed. */
const exited = (child) => new Promise((resolve) => child.once('close', (code) => resolve(code ?? 1)));

/** A check beside the suite, at the lowest priority, its output kept for after the suite's. */
function check(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    setPriority(child.pid, 19);
  } catch {
    // Not allowed here: the check competes with the suite at normal priority, which costs only time.
  }
  const report = [];
  child.stdout.on('data', (chunk) => report.push(chunk));
  child.stderr.on('data', (chunk) => report.push(chunk));
  return { report, code: exited(child) };
}

const tsc = check([command('typescript', 'tsc'), '--noEmit']);
// Errors only: `npm run lint` shows the warnings too.
const biome = check([command('@biomejs/biome', 'biome'), 'ci', '.', '--diagnostic-level=error']);

const vitest = spawn(process.execPath, [command('vitest', 'vitest'), 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
const [suite, typecheck, lint] = await Promise.all([exited(vitest), tsc.code, biome.code]);

process.stdout.write(Buffer.concat(tsc.report));
console.log(typecheck === 0 ? 'tsc --noEmit: no type errors' : `tsc --noEmit failed (exit ${typecheck})`);
if (lint !== 0) process.stdout.write(Buffer.concat(biome.report));
console.log(lint === 0 ? 'biome ci: no lint or format errors' : `biome ci failed (exit ${lint})`);
process.exitCode = [suite, typecheck, lint].find((code) => code !== 0) ?? 0;
