// The process around runCli: real streams, Ctrl-C, a last net for anything that escapes, the exit code.

import { toDpxError } from '../api/errors.js';
import { formatError } from './report.js';
import { runCli } from './run.js';

const interrupt = new AbortController();
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
// `dpx list … | head`: the reader left; that is the end of the output, not an error. The command learns
// it from its writes (DataWriter) and ends with its own code: `replay --exit-code` still says 5.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') return;
  fail(error);
});
// The first Ctrl-C asks the command to stop (a walk of pages, the demo); a second one is not waited on.
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});
process.on('SIGTERM', () => interrupt.abort());

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: interrupt.signal,
});
process.exit(code);
