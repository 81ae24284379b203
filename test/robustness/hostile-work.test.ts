// Cyclic, endless, silent and oversized answers from a control plane shaped like the real service
// (test/helpers/hostile-plane.ts), through the command line in-process: nothing crashes, nothing hangs
// past the request timeout, and no answer is silently partial — a cut is named and exits 1, paging that
// never ends exits 3, a parent cycle is reported while the other units answer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bigTree, startHostilePlane, type HostilePlane, type HostilePlaneOptions } from '../helpers/hostile-plane.js';
import { expectCleanFailure, runDpx, tempDir } from './cli.js';
import { unreachableOrigin } from '../helpers/ports.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const TOKEN = 'hostile-work-token-2b7d93';
/** Paced for a test: the default 50 a second would make a 2,503-unit count take a minute. */
const FAST = ['--rate', '100000', '--concurrency', '32'];

let planes: HostilePlane[] = [];
afterEach(async () => {
  await Promise.all(planes.map((plane) => plane.close()));
  planes = [];
});

async function serve(options: HostilePlaneOptions = {}): Promise<HostilePlane> {
  const plane = await startHostilePlane(options);
  planes.push(plane);
  return plane;
}

function cli(plane: HostilePlane, argv: string[], env: NodeJS.ProcessEnv = {}) {
  const home = tempDir('dpx-hostile-work-');
  return runDpx([...argv, '--base-url', plane.baseUrl], {
    DPX_TOKEN: TOKEN,
    DPX_CONFIG: join(home, 'config.json'),
    XDG_CACHE_HOME: join(home, 'cache'),
    ...env,
  });
}

const ndjson = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);

describe('a unit tree with a parent cycle (u-a and u-b name each other)', () => {
  it('list --ou u-e,u-a,u-b: no stack overflow; the cycle is reported and every unit answers', async () => {
    const plane = await serve();
    const run = await cli(plane, ['list', 'tasks', '--ou', 'u-e,u-a,u-b', '-o', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const units = new Set(ndjson(run.stdout).map((record) => record['_context'].ou));
    expect([...units].sort()).toEqual(['u-a', 'u-b', 'u-e']);
    expect(run.stderr).toContain(
      'warning: the units Alpha (u-a) → Beta (u-b) → Alpha (u-a) name each other as parents (a cycle in the unit tree)',
    );
  });

  it('list --ou all and count --ou all: every unit of the tree answers, the cycle said once', async () => {
    const plane = await serve();
    const listed = await cli(plane, ['list', 'tasks', '--ou', 'all', '-o', 'ndjson']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(new Set(ndjson(listed.stdout).map((record) => record['_context'].ou))).toEqual(
      new Set(['u-root', 'u-e', 'u-a', 'u-b', 'u-c']),
    );
    expect(listed.stderr.match(/a cycle in the unit tree/g)).toHaveLength(1);

    const counted = await cli(plane, ['count', 'tasks', '--ou', 'all', '-o', 'json']);
    expect(counted.code, counted.stderr).toBe(0);
    const rows = JSON.parse(counted.stdout).rows as { ou: string; total: number | null; error: string | null }[];
    expect(rows.map((row) => row.ou).sort()).toEqual(['u-a', 'u-b', 'u-c', 'u-e', 'u-root']);
    expect(rows.every((row) => row.total !== null && row.error === null)).toBe(true);
    expect(counted.stderr).toContain('a cycle in the unit tree');
  });
});

describe('no silent caps', () => {
  it('a 2,503-unit tree counts every unit (the 2,000-unit cap is gone)', async () => {
    const plane = await serve({ units: bigTree(2503) });
    const run = await cli(plane, ['count', 'tasks', '--ou', 'all', '-o', 'json', ...FAST]);
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.rows).toHaveLength(2503);
    expect(document.rows.filter((row: { total: number | null }) => row.total === null)).toEqual([]);
    expect(document.rows[0]).toMatchObject({ ou: 'unit-0', total: 2503 * 2 });
    // Every page of units was read: 26 pages of 100.
    expect(plane.apiRequests().filter((request) => request.url.startsWith('/organizational-units')).length).toBe(26);
  });

  it("the x-ray's 500-record cap is named in the tree and in json, and the answer exits 1 (partial)", async () => {
    const plane = await serve({ wideLinks: 520 });
    const tree = await cli(plane, ['xray', 'jobs', 'j-wide', '--no-inbound', ...FAST]);
    expect(tree.code, tree.stderr).toBe(1);
    expect(tree.stdout).toContain(
      'cut: 21 links were not followed: the x-ray holds 500 records at most (a partial answer)',
    );
    expect(tree.stderr).toContain('error: the x-ray stopped at 500 records');
    // 499 linked jobs read besides the root, not one more.
    expect(plane.apiRequests().filter((request) => /^\/jobs\/j-w-\d+$/.test(request.url)).length).toBe(499);

    const json = await cli(plane, ['xray', 'jobs', 'j-wide', '--no-inbound', '-o', 'json', ...FAST]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).cut).toEqual({ max_records: 500, links_not_followed: 21 });
  });
});

describe('paging that never ends', () => {
  it('new page tokens forever stop at the page guard (DPX_MAX_PAGES) with a message and exit 3; no page past it is asked', async () => {
    const plane = await serve();
    const run = await cli(plane, ['list', 'events', '--all', '-o', 'ndjson', ...FAST], { DPX_MAX_PAGES: '40' });
    expectCleanFailure(run, 3);
    expect(run.stderr).toContain('error: the next links go on past 40 pages: stopped at the page guard');
    expect(ndjson(run.stdout)).toHaveLength(40);
    expect(plane.apiRequests().filter((request) => request.url.startsWith('/events')).length).toBe(40);
  });

  it("a chain that outruns the server's own counts stops at once, without waiting for the guard", async () => {
    const plane = await serve();
    const run = await cli(plane, ['list', 'feeds', '--all', '-o', 'ndjson', ...FAST]);
    expectCleanFailure(run, 3);
    expect(run.stderr).toContain(
      "error: the next links go on past what the server's counts say (16 pages read of 5): stopped",
    );
    expect(plane.apiRequests().filter((request) => request.url.startsWith('/feeds')).length).toBe(16);
  });
});

describe('a unit that never answers', () => {
  it('does not hold the other units past the request timeout: count and list finish, its row is the one error, exit 1', async () => {
    const plane = await serve({ silentUnit: 'u-c' });
    const counted = await cli(plane, ['count', 'tasks', '--ou', 'all', '-o', 'json', '--timeout', '1']);
    expect(counted.code, counted.stderr).toBe(1);
    expect(counted.elapsedMs).toBeLessThan(3_000);
    const rows = JSON.parse(counted.stdout).rows as { ou: string; total: number | null; error: string | null }[];
    expect(rows.filter((row) => row.error !== null).map((row) => row.ou)).toEqual(['u-c']);
    expect(rows.find((row) => row.ou === 'u-c')!.error).toContain('no answer');
    expect(rows.filter((row) => row.total !== null)).toHaveLength(4);

    const listed = await cli(plane, ['list', 'tasks', '--ou', 'all', '-o', 'ndjson', '--timeout', '1']);
    expect(listed.code).toBe(1);
    expect(listed.elapsedMs).toBeLessThan(3_000);
    expect(new Set(ndjson(listed.stdout).map((record) => record['_context'].ou))).toEqual(
      new Set(['u-root', 'u-e', 'u-a', 'u-b']),
    );
    expect(listed.stderr).toMatch(/error: .*Gamma \(u-c\): no answer/);
  });
});

describe('--profiles all with bad profiles among good ones', () => {
  it('a missing token file and an unreachable host are one failed row each; the good profile answers', async () => {
    const plane = await serve();
    const home = tempDir('dpx-hostile-profiles-');
    const tokenFile = join(home, 'token');
    writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
    const config = {
      current: 'good',
      profiles: {
        good: { baseUrl: plane.baseUrl, tokenFile },
        gone: { baseUrl: plane.baseUrl, tokenFile: join(home, 'no-such-token') },
        down: { baseUrl: NOWHERE, tokenFile },
      },
    };
    writeFileSync(join(home, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const env = { DPX_CONFIG: join(home, 'config.json'), XDG_CACHE_HOME: join(home, 'cache') };

    const counted = await runDpx(['count', 'tasks', '--profiles', 'all', '-o', 'json'], env);
    expect(counted.code, counted.stderr).toBe(1);
    const rows = JSON.parse(counted.stdout).rows as { profile: string; total: number | null; error: string | null }[];
    expect(rows.map((row) => row.profile).sort()).toEqual(['down', 'gone', 'good']);
    expect(rows.find((row) => row.profile === 'good')).toMatchObject({ total: 10, error: null });
    expect(rows.find((row) => row.profile === 'gone')!.error).toContain('cannot read the token file');
    expect(rows.find((row) => row.profile === 'down')!.error).toContain('could not reach');

    const listed = await runDpx(['list', 'tasks', '--profiles', 'all', '-o', 'json'], env);
    expect(listed.code).toBe(1);
    const document = JSON.parse(listed.stdout);
    expect(document.items.length).toBeGreaterThan(0);
    expect(document.errors.map((error: { profile: string }) => error.profile).sort()).toEqual(['down', 'gone']);
    expect(listed.stderr).not.toContain(TOKEN);
  });
});
