// The one table of exit codes (the README and DESIGN.md say the same):
//   0 ok
//   1 API error, or a partial answer (a unit or control plane failed, a cap cut the answer)
//   2 usage error
//   3 network or protocol error (a paging cycle, a `next` chain past the page guard)
//   4 refused for safety
//   5 differences found (`replay` and `diff` with --exit-code)
//   6 a followed task that did not succeed
//   130 / 143 interrupted by SIGINT / SIGTERM (128 + the signal's number, as shells report it)
// Errors carry theirs (1 to 4, see src/api/errors.ts); the others are here.

export const PARTIAL_ANSWER = 1;

/** `replay` and `diff` with --exit-code: the run went well and found differences. */
export const DIFFERENCES_FOUND = 5;

/** A task dpx followed ended without success. */
export const TASK_UNSUCCESSFUL = 6;

/** A run interrupted by Ctrl-C, as shells expect (128 + SIGINT). */
export const INTERRUPTED = 130;

/** A run ended by SIGTERM (128 + 15). */
export const TERMINATED = 143;

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The reason the process aborts `CliIO.signal` with: which signal stopped the run. */
export class Interruption extends Error {
  constructor(readonly signalName: StopSignal) {
    super(`interrupted by ${signalName}`);
    this.name = 'Interruption';
  }
}

/** The exit code of a run its signal stopped: 143 for SIGTERM, else 130. */
export function interruptedExitCode(signal: AbortSignal | undefined): number {
  return signalName(signal) === 'SIGTERM' ? TERMINATED : INTERRUPTED;
}

export function signalName(signal: AbortSignal | undefined): StopSignal {
  const reason: unknown = signal?.reason;
  return reason instanceof Interruption ? reason.signalName : 'SIGINT';
}
