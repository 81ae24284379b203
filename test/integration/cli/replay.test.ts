// `dpx replay`: trails recorded with the CLI against the demo over HTTP, replayed against another unit,
// after the demo's live tasks moved, and with writes in them.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { readHar } from '../../unit/trail/har-schema.js';
import { dpx, tokensShown } from './harness.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const demo = useDemo({ taskSpeed: 20 });
const GLOBEX = 'd469d32e-85ba-4a77-9f25-23e39deb60fd';
const HEADER = 'x-service-organizationalunit-context';
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
let dir: string;

interface ReplayJson {
  requests: {
    method: string;
    url: string;
    then: { status: number };
    now: { status: number; error?: string };
    added: { id: string; label?: string }[];
    removed: { id: string; label?: string }[];
    changed: { id: string; fields: { path: string; then?: unknown; now?: unknown }[] }[];
  }[];
  skipped: { method: string; url: string; reason: string }[];
}

async function record(name: string, argv: string[]): Promise<string> {
  const path = join(dir, name);
  const run = await dpx(['--trail', path, ...argv], { env: env() });
  expect(run.code, run.stderr).toBe(0);
  return path;
}

async function replay(path: string, ...argv: string[]): Promise<{ code: number; report: ReplayJson; stderr: string }> {
  const run = await dpx(['replay', path, '-o', 'json', ...argv], { env: env() });
  return { code: run.code, report: JSON.parse(run.stdout) as ReplayJson, stderr: run.stderr };
}

beforeAll(async () => {
  dir = temporaryFolder('dpx-replay-');
});
afterAll(async () => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

describe('dpx replay', () => {
  it('against the same unit and day, finds every recorded answer unchanged: exit 0, with --exit-code too', async () => {
    const path = await record('same.har', ['list', 'users', '--page-size', '10']);
    const { code, report } = await replay(path);
    expect(code).toBe(0);
    expect(report.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET ${demo.region.baseUrl}/`,
      `GET ${demo.region.baseUrl}/users?limit=10`,
    ]);
    for (const request of report.requests)
      expect(request).toMatchObject({
        then: { status: 200 },
        now: { status: 200 },
        added: [],
        removed: [],
        changed: [],
      });
    expect(report.skipped).toEqual([]);
    expect((await dpx(['replay', path, '--exit-code'], { env: env() })).code).toBe(0);
  });

  it('against another unit: the records outside it are removed, its own are added, as the server scopes them', async () => {
    const path = await record('global.har', ['list', 'tasks', '--page-size', '30']);
    const { code, report, stderr } = await replay(path, '--ou', GLOBEX, '--exit-code');
    expect(code).toBe(5);
    expect(stderr).toMatch(/replayed against .* \(unit d469d32e-85ba-4a77-9f25-23e39deb60fd\): 1 differ/);
    const then = (await demoRequest(demo.region, '/tasks?limit=30')).body._embedded.items as { id: string }[];
    const now = (await demoRequest(demo.region, '/tasks?limit=30', { headers: { [HEADER]: GLOBEX } })).body._embedded
      .items as { id: string }[];
    const thenIds = new Set(then.map((task) => task.id));
    const nowIds = new Set(now.map((task) => task.id));
    const page = report.requests.find((request) => request.url.includes('/tasks'))!;
    expect(page.added.map((record) => record.id).sort()).toEqual(
      now
        .filter((task) => !thenIds.has(task.id))
        .map((task) => task.id)
        .sort(),
    );
    expect(page.removed.map((record) => record.id).sort()).toEqual(
      then
        .filter((task) => !nowIds.has(task.id))
        .map((task) => task.id)
        .sort(),
    );
    expect(page.removed.length).toBeGreaterThan(0);
    expect(page.added[0]?.label).toEqual(expect.any(String));
  });

  it('after the live tasks moved, shows the progress of a running task then and now', async () => {
    const filter = JSON.stringify({ status: { $eq: 'in_progress' } });
    const path = await record('running.har', ['list', 'tasks', '--page-size', '10', '--filter', filter]);
    const recorded = JSON.parse(readHar(path).log.entries[1]?.response.content.text ?? '') as {
      _embedded: { items: { id: string; progress_percentage: number }[] };
    };
    const progressThen = new Map(recorded._embedded.items.map((task) => [task.id, task.progress_percentage]));
    // The demo's tasks advance with the clock (20× here): replay until one has moved.
    let moved: { id: string; fields: { path: string; then?: unknown; now?: unknown }[] } | undefined;
    while (!moved) {
      const { report } = await replay(path);
      moved = report.requests[1]?.changed.find((change) =>
        change.fields.some((field) => field.path === 'progress_percentage'),
      );
    }
    const progress = moved.fields.find((field) => field.path === 'progress_percentage')!;
    expect(progress.then).toBe(progressThen.get(moved.id));
    expect(progress.now).toBeGreaterThan(progress.then as number);
  });

  it('lists writes as skipped and never sends them, even with writes allowed', async () => {
    const queued = (
      await demoRequest(
        demo.region,
        `/tasks?limit=1&filter=${encodeURIComponent('{"status":{"$in":["queued","scheduled"]}}')}`,
      )
    ).body._embedded.items[0] as { id: string };
    const written = join(dir, 'abort.har');
    const abort = await dpx(
      ['--trail', written, '--allow-writes', 'call', 'tasks', 'abort_task', '--var', `task_id=${queued.id}`, '--yes'],
      { env: env() },
    );
    expect(abort.code, abort.stderr).toBe(0);
    expect(readHar(written).log.entries.map((entry) => entry.request.method)).toContain('POST');

    const replayed = join(dir, 'replay-of-abort.har');
    const run = await dpx(['--trail', replayed, '--allow-writes', 'replay', written, '-o', 'json'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayJson;
    expect(report.skipped).toEqual([
      {
        method: 'POST',
        url: `${demo.region.baseUrl}/tasks/${queued.id}/abort`,
        reason: 'a write: never sent by replay',
      },
    ]);
    const sent = readHar(replayed).log.entries.map((entry) => entry.request.method);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((method) => method === 'GET')).toBe(true);
    const table = await dpx(['replay', written], { env: env() });
    expect(table.stdout).toMatch(/^skipped:\n {2}POST \/tasks\/\S+\/abort {2}a write: never sent by replay$/m);
    expect(await readFile(replayed, 'utf8')).not.toContain(demo.region.tokens.personal);
  });

  it('onto an unreachable control plane: each request reports no answer (status 0), and the run still ends well', async () => {
    const path = await record('unreachable.har', ['list', 'users', '--page-size', '3']);
    const run = await dpx(['replay', path, '-o', 'json', '--base-url', NOWHERE, '--timeout', '2'], {
      env: { DPX_TOKEN: demo.region.tokens.personal },
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayJson;
    expect(report.requests.map((request) => request.now.status)).toEqual([0, 0]);
    expect(report.requests[1]?.now.error).toMatch(/could not reach/);
    expect(report.requests[1]?.url).toBe(`${NOWHERE}/users?limit=3`);
  });

  it('refuses a file that is not a trail with a usage error', async () => {
    const run = await dpx(['replay', join(dir, 'missing.har')], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: cannot read the trail/m);
  });
});
