// The README's quick start, run as written: each of its shell blocks is run by bash with `dpx` on the PATH
// (the built bundle), and what it prints is held against the output block under it: as many lines, each
// beginning with the same word (a resource, an id, a unit, a branch of the tree). The demo's data comes from
// its seed, so the ids are the same on every start; live tasks may move a count by one, which the first
// words do not see.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bundle = join(root, 'dist', 'dpx.js');
let dir: string;

interface Example {
  command: string;
  shown: string[];
}

/** Each shell block of the quick start and the output block that follows it. */
async function examples(): Promise<Example[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([^\n]*)\n```\s*\n```\n([\s\S]*?)```/g)].map((match) => ({
    command: match[1]!.replace(/\s+#.*$/, ''),
    shown: match[2]!.replace(/\n$/, '').split('\n'),
  }));
}

function bash(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', line], {
      cwd: dir,
      env: {
        PATH: `${join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
        HOME: dir,
        DPX_CONFIG: join(dir, 'config.json'),
        XDG_CACHE_HOME: join(dir, 'cache'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const firstWord = (line: string) => line.trim().split(/\s+/)[0] ?? '';

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error('dist/dpx.js is missing: npm test builds it first (node scripts/build.mjs)');
  dir = await mkdtemp(join(tmpdir(), 'dpx-readme-quick-'));
  await mkdir(join(dir, 'bin'));
  await writeFile(
    join(dir, 'bin', 'dpx'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)} "$@"\n`,
  );
  await chmod(join(dir, 'bin', 'dpx'), 0o755);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the README's quick start", () => {
  it('prints what the README shows', async () => {
    const shown = await examples();
    expect(shown.length).toBeGreaterThanOrEqual(4);
    for (const { command, shown: lines } of shown) {
      const result = await bash(command);
      expect(result.code, `${command}\n${result.stderr}`).toBe(0);
      const printed = result.stdout.replace(/\n$/, '').split('\n');
      expect(printed.map(firstWord), command).toEqual(lines.map(firstWord));
    }
  });
});
