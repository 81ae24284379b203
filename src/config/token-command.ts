// A profile's token from a command (`--token-command "op read op://Support/eu/token"`): any password
// manager or vault that prints a token works. It runs when the token is first needed, within a timeout
// (10 s, DPX_TOKEN_COMMAND_TIMEOUT seconds), and its token is kept in memory for this run only: never
// written to a file, a cache or a trail. After a 401 it is asked once more, in case the token rotated.
// A command that fails is a usage error (exit 2) with its exit status and its stderr made inert.

import { UsageError } from '../api/errors.js';
import { visible } from '../api/visible.js';
import type { Credential } from '../api/wire/credential.js';
import { oneToken } from './token-file.js';

export const TOKEN_COMMAND_TIMEOUT_MS = 10_000;
/** More than any token; a command printing more is not printing a token. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/** Of its stderr, what an error message shows. */
const MAX_STDERR_CHARS = 600;

export class TokenCommand implements Credential {
  private pending: Promise<string> | undefined;
  private renewal: Promise<boolean> | undefined;
  private had: string | undefined;

  constructor(
    /** The command line, run by the shell. */
    readonly command: string,
    private readonly options: { where: string; env: NodeJS.ProcessEnv; timeoutMs: number },
  ) {}

  get known(): string | undefined {
    return this.had;
  }

  token(): Promise<string> {
    this.pending ??= this.run();
    return this.pending;
  }

  /** Once a run: later callers share the first renewal's outcome. */
  renew(): Promise<boolean> {
    this.renewal ??= (async () => {
      this.pending = this.run();
      await this.pending;
      return true;
    })();
    return this.renewal;
  }

  private async run(): Promise<string> {
    const { stdout, stderr, status, timedOut, failure } = await runCommand(
      this.command,
      this.options.env,
      this.options.timeoutMs,
    );
    const { where } = this.options;
    const fix = "run the profile's tokenCommand yourself (dpx profile list shows the profile) to see what it says";
    if (failure) throw new UsageError(`${where} could not be run: ${failure}`, fix);
    if (timedOut) {
      throw new UsageError(
        `${where} did not finish within ${this.options.timeoutMs / 1000} s`,
        'a command that waits for a prompt cannot answer here; sign in to the vault first, then run dpx again ' +
          '(DPX_TOKEN_COMMAND_TIMEOUT sets the limit in seconds)',
      );
    }
    if (status !== 0) {
      const said = visible(stderr.trim()).slice(0, MAX_STDERR_CHARS);
      throw new UsageError(`${where} failed (exit status ${status})${said ? `: ${said}` : ''}`, fix);
    }
    const token = oneToken(stdout, where, 'the command must print the token alone, on one line');
    this.had = token;
    return token;
  }
}

interface Outcome {
  stdout: string;
  stderr: string;
  status: number | string | undefined;
  timedOut: boolean;
  failure?: string;
}

/**
 * Runs `command` through the shell with no stdin. It gets a process group of its own, so that a command
 * that hangs is stopped with everything it started (a shell's `sleep` would keep the pipes open).
 */
async function runCommand(command: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Outcome> {
  // Loaded only for a profile that has a token command: a run without one does not pay for it.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const windows = process.platform === 'win32';
    const child = spawn(command, {
      shell: true,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: !windows,
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let settled = false;
    const finish = (outcome: Omit<Outcome, 'stdout' | 'stderr'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ...outcome });
    };
    const stop = () => {
      try {
        if (windows || child.pid === undefined) child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(() => {
      stop();
      finish({ status: undefined, timedOut: true });
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes <= MAX_OUTPUT_BYTES) out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errBytes += chunk.length;
      if (errBytes <= MAX_OUTPUT_BYTES) err.push(chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish({ status: undefined, timedOut: false, failure: error.code ?? error.message }),
    );
    child.on('close', (code, signal) => finish({ status: code ?? signal ?? undefined, timedOut: false }));
  });
}
