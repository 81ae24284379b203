// The terminal while the explorer owns it: alternate screen and bracketed paste on (a paste is text, never
// keys: paste.ts), and one idempotent restore that runs on every way out — quit, Ctrl-C, SIGTERM, SIGHUP,
// a thrown error, a rejected promise.
import { PASTE_OFF, PASTE_ON } from './paste.js';

const ENTER = `\x1b[?1049h\x1b[H\x1b[2J${PASTE_ON}`;
const LEAVE = `${PASTE_OFF}\x1b[?25h\x1b[?1049l`;

export interface TerminalGuard {
  /** Leaves the alternate screen and removes the handlers; safe to call any number of times. */
  restore(): void;
}

export function takeOverTerminal(
  stdout: NodeJS.WriteStream,
  onFatal: (reason: string, error?: unknown) => void,
): TerminalGuard {
  let restored = false;
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals) => onFatal(signal);
  const onException = (error: unknown) => onFatal('uncaughtException', error);
  const onRejection = (error: unknown) => onFatal('unhandledRejection', error);
  const onExit = () => guard.restore();

  const guard: TerminalGuard = {
    restore() {
      if (restored) return;
      restored = true;
      for (const signal of signals) process.off(signal, onSignal);
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
      process.off('exit', onExit);
      if (stdout.isTTY) stdout.write(LEAVE);
    },
  };

  if (stdout.isTTY) stdout.write(ENTER);
  for (const signal of signals) process.on(signal, onSignal);
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  process.on('exit', onExit);
  return guard;
}

/** Exit status for a fatal reason: 128 + signal number for signals, 1 otherwise. */
export function fatalExitCode(reason: string): number {
  const numbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
  const n = numbers[reason];
  return n === undefined ? 1 : 128 + n;
}
