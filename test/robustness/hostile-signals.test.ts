// The built bundle, run as a user runs it, against a control plane shaped like the real service
// (test/helpers/hostile-plane.ts): SIGINT and SIGTERM in the middle of a count, a walk of pages, a fan-out
// and an x-ray stop the sending at once — the server's log shows no request after the signal — and dpx
// says what it did and did not do, exiting 130 or 143. Output through a pipe arrives whole, and a reader
// that leaves early ends the output without changing the exit code the work earned.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bigTree, startHostilePlane, type HostilePlane, type HostilePlaneOptions } from '../helpers/hostile-plane.js';
import { runDpx, tempDir } from './cli.js';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'dpx.js');
const TOKEN = 'hostile-signals-token-91ad5c';
/** A request the child started just before the signal reached it may arrive a moment later; none after this. */
const GRACE_MS = 150;
/** The line stderr ends with when a signal stops a command: `what` (a pattern) and that nothing was sent after. */
const interrupted = (signal: string, what: string) =>
  new RegExp(String.raw`^interrupted \(${signal}\): ${what}; no request was sent after the signal$`, 'm');

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root });
}, 120_000);

let planes: HostilePlane[] = [];
afterEach(async () => {
  await Promise.all(planes.map((plane) => plane.close()));
  planes = [];
});

async function serve(options: HostilePlaneOptions): Promise<HostilePlane> {
  const plane = await startHostilePlane(options);
  planes.push(plane);
  return plane;
}

function childEnv(plane: HostilePlane): NodeJS.ProcessEnv {
  const home = tempDir('dpx-hostile-signals-');
  return {
    PATH: process.env['PATH'],
    DPX_TOKEN: TOKEN,
    DPX_BASE_URL: plane.baseUrl,
    DPX_CONFIG: join(home, 'config.json'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };
}

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Requests the plane received after the signal was sent (past the grace). */
  late: string[];
  /** Requests received before the signal. */
  before: number;
}

/** Runs the bundle, sends `signal` once the plane has answered `after` API requests, and waits for the exit. */
async function interrupt(
  plane: HostilePlane,
  argv: string[],
  signal: 'SIGINT' | 'SIGTERM',
  after: number,
): Promise<Interrupted> {
  const child = spawn(process.execPath, [bundle, ...argv], { env: childEnv(plane), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = performance.now() + 20_000;
  while (plane.apiRequests().length < after && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 2));
  const signalAt = performance.now();
  const before = plane.apiRequests().length;
  child.kill(signal);
  const code = await exited;
  // Whatever was still on its way has arrived by now.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const late = plane
    .apiRequests()
    .filter((request) => (request.at ?? 0) > signalAt + GRACE_MS)
    .map((request) => request.url);
  return { code, stdout, stderr, late, before };
}

describe('SIGINT and SIGTERM stop the sending at once, say what was done, and never exit 0', () => {
  it('count --ou all over 2,503 units: SIGINT exits 130, no request after the signal, stderr says how many rows were counted', async () => {
    const plane = await serve({ units: bigTree(2503) });
    const run = await interrupt(plane, ['count', 'tasks', '--ou', 'all', '-o', 'json'], 'SIGINT', 60);
    expect(run.code, run.stderr).toBe(130);
    expect(run.late).toEqual([]);
    expect(run.stderr).toMatch(interrupted('SIGINT', String.raw`\d+ of 2503 rows counted; \d+ not .*`));
    const rows = JSON.parse(run.stdout).rows as { total: number | null; error: string | null }[];
    expect(rows.filter((row) => row.total === null).every((row) => row.error === 'not counted: interrupted')).toBe(
      true,
    );
    expect(rows.some((row) => row.total !== null)).toBe(true);
  });

  it('list --all: SIGTERM exits 143; the JSON written so far is whole, and stderr says how far the walk got', async () => {
    const plane = await serve({ units: bigTree(300) });
    const run = await interrupt(plane, ['list', 'tasks', '--all', '--page-size', '10', '-o', 'json'], 'SIGTERM', 30);
    expect(run.code, run.stderr).toBe(143);
    expect(run.late).toEqual([]);
    const match = interrupted(
      'SIGTERM',
      String.raw`(\d+) pages read and (\d+) records written of 600; the rest of the list was not read`,
    ).exec(run.stderr);
    expect(match, run.stderr).not.toBeNull();
    const document = JSON.parse(run.stdout);
    expect(document.items).toHaveLength(Number(match![2]));
    expect(document.pages_fetched).toBe(Number(match![1]));
  });

  it('list --ou all (a fan-out): SIGINT exits 130 and says how many units were read', async () => {
    const plane = await serve({ units: bigTree(2503) });
    const run = await interrupt(plane, ['list', 'tasks', '--ou', 'all', '-o', 'ndjson'], 'SIGINT', 60);
    expect(run.code, run.stderr).toBe(130);
    expect(run.late).toEqual([]);
    expect(run.stderr).toMatch(
      interrupted(
        'SIGINT',
        String.raw`\d+ of 2503 units read, \d+ not or not whole \(\d+ records written from \d+ pages\)`,
      ),
    );
  });

  it('xray: SIGTERM exits 143 and says how many records it had read', async () => {
    const plane = await serve({ wideLinks: 450 });
    const run = await interrupt(plane, ['xray', 'jobs', 'j-wide'], 'SIGTERM', 40);
    expect(run.code, run.stderr).toBe(143);
    expect(run.late).toEqual([]);
    expect(run.stderr).toMatch(
      interrupted(
        'SIGTERM',
        String.raw`the x-ray had read \d+ records and had answers from \d+ lists? that may refer to it; ` +
          String.raw`\d+ records were not read.*`,
      ),
    );
  });
});

describe('output through a pipe', () => {
  it('is never cut: an x-ray of hundreds of KiB arrives whole to a reader that is slow to start', async () => {
    const plane = await serve({ wideLinks: 450, wideNameLength: 600 });
    for (const format of ['json', 'tree']) {
      const child = spawn(
        process.execPath,
        [bundle, 'xray', 'jobs', 'j-wide', '--no-inbound', '-o', format, '--rate', '100000', '--concurrency', '32'],
        { env: childEnv(plane), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout.pause();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // The reader starts late: everything dpx wrote waits in the pipe and in dpx.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const chunks: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stdout.resume();
      const [code] = await Promise.all([exited, new Promise((resolve) => child.stdout.on('end', resolve))]);
      const text = Buffer.concat(chunks).toString('utf8');
      expect(code).toBe(0);
      expect(text.length).toBeGreaterThan(256 * 1024);
      if (format === 'json') expect(JSON.parse(text).nodes).toHaveLength(451);
      else expect(text.trimEnd().split('\n').at(-1)).toContain('Wide member 449');
    }
  });

  it('a reader that leaves early (EPIPE, as with `| head`) ends the output quietly, and replay --exit-code still exits 5', async () => {
    const plane = await serve({ tasksPerUnit: 20, delayMs: 100 });
    const home = tempDir('dpx-hostile-replay-');
    const trail = join(home, 'case.har');
    const env = { DPX_TOKEN: TOKEN, DPX_CONFIG: join(home, 'config.json'), XDG_CACHE_HOME: join(home, 'cache') };
    const recorded = await runDpx(
      ['--trail', trail, 'list', 'tasks', '--all', '--page-size', '20', '--base-url', plane.baseUrl, '-o', 'ndjson'],
      env,
    );
    expect(recorded.code, recorded.stderr).toBe(0);
    // Every task's name is different now: each replayed page differs.
    plane.setGeneration(2);

    const child = spawn(process.execPath, [bundle, 'replay', trail, '--exit-code'], {
      env: childEnv(plane),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let first = '';
    // The reader takes the first chunk and leaves, as `head -c` does.
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString();
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
    expect(first).toMatch(/^GET \//);
    expect(code, stderr).toBe(5);
    expect(stderr).not.toMatch(/error|EPIPE/i);
    expect(stderr).toMatch(/6 requests replayed against .*: 5 differ/);
  });
});
