// A doc's shell lines run as a reader would run them: by bash, in a temporary home, with `dpx` on the PATH as
// the built bundle and dpx's config and cache inside that home.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { temporaryFolder } from './temporary.js';

const bundle = fileURLToPath(new URL('../../dist/dpx.js', import.meta.url));

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface DocShell {
  /** The temporary home; read it inside tests or hooks. */
  readonly dir: string;
  /** A reader's environment: `dpx` first on the PATH, HOME, DPX_CONFIG and XDG_CACHE_HOME in the home. */
  env(): Record<string, string>;
  /** Runs one line with bash in the home, under `env` (the reader's environment when not given). */
  run(line: string, env?: Record<string, string>): Promise<ShellResult>;
}

/** Makes the home (named from `prefix`) before the file's tests and removes it after them. */
export function useDocShell(prefix: string): DocShell {
  let home: string | undefined;
  beforeAll(async () => {
    if (!existsSync(bundle))
      throw new Error('dist/dpx.js is missing: npm test builds it first (node scripts/build.mjs)');
    home = temporaryFolder(prefix);
    await mkdir(join(home, 'bin'));
    await writeFile(
      join(home, 'bin', 'dpx'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)} "$@"\n`,
    );
    await chmod(join(home, 'bin', 'dpx'), 0o755);
  });
  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });
  const dir = (): string => {
    if (!home) throw new Error('the doc shell has no home yet: use it inside tests or hooks');
    return home;
  };
  const env = (): Record<string, string> => ({
    PATH: `${join(dir(), 'bin')}:${process.env['PATH'] ?? ''}`,
    HOME: dir(),
    DPX_CONFIG: join(dir(), 'config.json'),
    XDG_CACHE_HOME: join(dir(), 'cache'),
  });
  const run = (line: string, lineEnv: Record<string, string> = env()): Promise<ShellResult> =>
    new Promise((resolve, reject) => {
      const child = spawn('bash', ['--norc', '--noprofile', '-c', line], {
        cwd: dir(),
        env: lineEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  return {
    get dir() {
      return dir();
    },
    env,
    run,
  };
}
