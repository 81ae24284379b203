// Runs dpx commands in-process through runCli with collecting streams, timing each run, for the
// robustness tests' "exit code, clear message, no stack trace" checks.
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { temporaryFolder } from '../helpers/temporary.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

class Collector extends Writable {
  text = '';
  readonly isTTY = false;
  constructor() {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

export function tempDir(prefix: string): string {
  return temporaryFolder(prefix);
}

export async function runDpx(argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const stdout = new Collector();
  const stderr = new Collector();
  const started = performance.now();
  const code = await runCli(argv, { stdout, stderr, env });
  return { code, stdout: stdout.text, stderr: stderr.text, elapsedMs: performance.now() - started };
}

/** stderr ends in an `error:` line (API errors may add one line per entry) and a non-empty `hint:`, with no stack trace. */
export function expectCleanFailure(run: CliRun, exitCode: number): void {
  expect(run.code, run.stderr).toBe(exitCode);
  expect(run.stderr).toMatch(/(^|\n)error: \S.*\n/);
  expect(run.stderr).toMatch(/\nhint: \S.*\n$/);
  expect(run.stderr).not.toMatch(/^\s+at \S|\bat .*\(.*:\d+:\d+\)|node:internal/m);
}
