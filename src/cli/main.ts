// The process around runCli: real streams, Ctrl-C and SIGTERM, a last net for anything that escapes, and
// the exit code once everything written has left the process.

import { setMaxListeners } from 'node:events';
import { toDpxError } from '../api/errors.js';
import { Interruption, interruptedExitCode } from './exit-codes.js';
import { formatError } from './error-lines.js';
import { runCli } from './run.js';

// ink crashes when bundled with DEV set (it tries to reach react-devtools); it is loaded only with the
// explorer, after this.
delete process.env['DEV'];
const interrupt = new AbortController();
// Every session of the run and every command listens for the interruption: many listeners are expected.
setMaxListeners(0, interrupt.signal);
const secrets = (): string[] => {
  const token = process.env['DPX_TOKEN']?.trim();
  return token ? [token] : [];
};

function fail(error: unknown): never {
  process.stderr.write(formatError(error, secrets()));
  process.exit(toDpxError(error).exitCode);
}

process.on('unhandledRejection', fail);
process.on('uncaughtException', fail);
// `dpx … | head`: the reader left. That ends the output, quietly; the command still finishes its work
// (or stops writing, see DataWriter) and its exit code still says how the work went.
let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
    stdoutClosed = true;
    return;
  }
  fail(error);
});
process.stderr.on('error', () => undefined);
// The first signal asks the command to stop: nothing more is sent, and it says what was done. A second
// one is not waited on.
const onSignal = (name: 'SIGINT' | 'SIGTERM') => () => {
  if (interrupt.signal.aborted) process.exit(interruptedExitCode(interrupt.signal));
  interrupt.abort(new Interruption(name));
};
process.on('SIGINT', onSignal('SIGINT'));
process.on('SIGTERM', onSignal('SIGTERM'));

// Not awaited at the top level: the bundle runs this module as a script (src/cli/code-cache.ts), where
// there is none. What it rejects with reaches `fail` as an unhandled rejection.
void main();

async function main(): Promise<never> {
  const code = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made when a command first reads it: creating process.stdin costs ≈ 2 ms, which most commands never need.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    signal: interrupt.signal,
  });
  // Through a pipe, writes are asynchronous: exiting now would cut what the reader has not taken yet (64 KiB
  // in, the rest lost). Each stream's last write is waited for first.
  await Promise.all([flushed(process.stdout, stdoutClosed), flushed(process.stderr, false)]);
  process.exit(code);
}

function flushed(stream: NodeJS.WriteStream, closed: boolean): Promise<void> {
  if (closed || stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });
}
