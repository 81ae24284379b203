// `npm test` after the build: the type check (tsc --noEmit) and the suite (vitest run) side by side, and
// a failure of either fails the run. The suite spends much of its time waiting (servers, timeouts,
// child processes); tsc runs at the lowest priority, so it takes the cores only while the suite leaves
// them idle, and its report is printed after the suite's. Arguments go to vitest (`npm test -- FILE`).
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

const tsc = spawn(process.execPath, [command('typescript', 'tsc'), '--noEmit'], { stdio: ['ignore', 'pipe', 'pipe'] });
try {
  setPriority(tsc.pid, 19);
} catch {
  // Not allowed here: tsc competes with the suite at normal priority, which costs only time.
}
const report = [];
tsc.stdout.on('data', (chunk) => report.push(chunk));
tsc.stderr.on('data', (chunk) => report.push(chunk));

const vitest = spawn(process.execPath, [command('vitest', 'vitest'), 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
const [suite, typecheck] = await Promise.all([exited(vitest), exited(tsc)]);

process.stdout.write(Buffer.concat(report));
console.log(typecheck === 0 ? 'tsc --noEmit: no type errors' : `tsc --noEmit failed (exit ${typecheck})`);
process.exitCode = suite !== 0 ? suite : typecheck;
