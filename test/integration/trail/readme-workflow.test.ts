// The case-file workflow of docs/cases-and-reports.md, run as written: its first shell block is read and each line is
// run by bash against the demo, with `dpx` on the PATH and the ids the block names in the environment. Every line
// succeeds except the replay elsewhere with --exit-code, which exits 5; the offline lines send nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bundle = join(root, 'dist', 'dpx.js');
const UNIT = '12ea2b10-e6d9-4c3f-90f8-0199acb1b1d2';
const OTHER_UNIT = 'd469d32e-85ba-4a77-9f25-23e39deb60fd';
const HEADER = 'x-service-organizationalunit-context';

const demo = useDemo();
let dir: string;

/** The first shell block of the case files guide, one command a line. */
async function workflow(): Promise<string[]> {
  const section = await readFile(join(root, 'docs', 'cases-and-reports.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

function bash(line: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', line], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error('dist/dpx.js is missing: npm test builds it first (node scripts/build.mjs)');
  dir = await mkdtemp(join(tmpdir(), 'dpx-readme-case-'));
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

describe("the case files guide's workflow", () => {
  it('runs as written against the demo', async () => {
    const lines = await workflow();
    expect(lines.length).toBeGreaterThanOrEqual(8);
    const failed = await demoRequest(
      demo.region,
      `/tasks?limit=1&filter=${encodeURIComponent('{"status":{"$eq":"failed"}}')}`,
      { headers: { [HEADER]: UNIT } },
    );
    const task = (failed.body._embedded.items as { id: string }[])[0]!.id;
    const env = {
      PATH: `${join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
      HOME: dir,
      DPX_CONFIG: join(dir, 'config.json'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      DPX_BASE_URL: demo.region.baseUrl,
      DPX_TOKEN: demo.region.tokens.personal,
      UNIT,
      OTHER_UNIT,
      TASK: task,
    };
    for (const line of lines) {
      const before = demo.region.requestCount();
      const { code, stderr } = await bash(line, env);
      expect(code, `${line}\n${stderr}`).toBe(line.includes('--exit-code') ? 5 : 0);
      if (line.includes('--offline') || /^dpx case /.test(line)) expect(demo.region.requestCount(), line).toBe(before);
    }
    const replay = JSON.parse(await readFile(join(dir, 'replay.json'), 'utf8')) as { requests: unknown[] };
    expect(replay.requests.length).toBeGreaterThan(0);
    const document = JSON.parse(await readFile(join(dir, 'case-1234.har'), 'utf8')) as { log: { pages: unknown[] } };
    expect(document.log.pages).toHaveLength(lines.filter((line) => line.includes('--trail')).length);
  });
});
