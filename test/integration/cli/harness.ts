// Runs dpx commands in-process through runCli, with string-collecting streams, and remembers every
// byte written so a test can check that no token ever reached the terminal.

import { Writable, PassThrough } from 'node:stream';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run.js';
import { LOCAL_RATE } from '../../helpers/demo.js';
import { perFile } from '../../helpers/per-file.js';
import { temporaryFolder } from '../../helpers/temporary.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

class Collector extends Writable {
  text = '';
  isTTY: boolean;
  columns: number | undefined;
  constructor(
    options: { isTTY?: boolean; columns?: number } = {},
    private readonly watch?: (text: string) => void,
  ) {
    super({ decodeStrings: false });
    this.isTTY = options.isTTY ?? false;
    this.columns = options.columns;
  }
  override _write(chunk: string | Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    this.watch?.(this.text);
    callback();
  }
}

/** Every stdout and stderr text of the file's runs, for the "no token in any output" check. */
export const transcript: string[] = [];
/** A config path of its own per test file, so no user config is read. */
export let configPath = '';
/** A cache folder of its own per test file (XDG_CACHE_HOME), so no user cache is read or written. */
export let cacheHome = '';

perFile(() => {
  const home = temporaryFolder('dpx-cli-');
  configPath = join(home, 'config.json');
  cacheHome = join(home, 'cache');
  transcript.length = 0;
});

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  stdoutTTY?: boolean;
  columns?: number;
  stderrTTY?: boolean;
  /** Text typed on a terminal stdin (makes stdin a TTY). */
  typed?: string;
  /** Text piped into stdin (not a terminal). */
  piped?: string;
  /** Told stdout so far after every write, while the command runs. */
  watchStdout?: (text: string) => void;
  /** Told stderr so far after every write, while the command runs. */
  watchStderr?: (text: string) => void;
  /** Stands for Ctrl-C: the command's interrupt signal. */
  signal?: AbortSignal;
}

export async function dpx(argv: string[], options: RunOptions = {}): Promise<CliResult> {
  const stdout = new Collector(
    { isTTY: options.stdoutTTY ?? false, ...(options.columns === undefined ? {} : { columns: options.columns }) },
    options.watchStdout,
  );
  const stderr = new Collector({ isTTY: options.stderrTTY ?? false }, options.watchStderr);
  let stdin: (PassThrough & { isTTY?: boolean }) | undefined;
  if (options.typed !== undefined) {
    stdin = new PassThrough();
    stdin.isTTY = true;
    stdin.end(options.typed);
  } else if (options.piped !== undefined) {
    stdin = new PassThrough();
    stdin.isTTY = false;
    stdin.end(options.piped);
  }
  const code = await runCli(argv, {
    stdout,
    stderr,
    // The local demo's rate ceiling unless a test sets its own (LOCAL_RATE).
    env: { DPX_CONFIG: configPath, XDG_CACHE_HOME: cacheHome, DPX_RATE: LOCAL_RATE, ...options.env },
    ...(stdin === undefined ? {} : { stdin }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  transcript.push(stdout.text, stderr.text);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Fails when any of the tokens appears in any output of the file's runs so far. */
export function tokensShown(tokens: string[]): string[] {
  return tokens.filter((token) => transcript.some((text) => text.includes(token)));
}
