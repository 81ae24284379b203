// `dpx list` across units and control planes, against the demo over HTTP (and one slow local control
// plane): where each record came from, each record once, every source's records as soon as they come,
// and failures that leave the other sources printed.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { miniApi, startServer, type TestServer } from '../../helpers/servers.js';
import { dpx, tokensShown } from './harness.js';
import { unreachableOrigin } from '../../helpers/ports.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});
afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

type Tagged = Record<string, unknown> & {
  _context: { profile: string | null; base_url: string; ou: string | null; ou_name: string | null };
};

async function merged(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stderr: string; items: Tagged[]; errors?: Record<string, unknown>[] }> {
  const { code, stdout, stderr } = await dpx(['list', ...args, '--output', 'json'], { env: { ...env(), ...extraEnv } });
  const document = JSON.parse(stdout) as { items: Tagged[]; errors?: Record<string, unknown>[] };
  return { code, stderr, items: document.items, ...(document.errors ? { errors: document.errors } : {}) };
}

async function units(): Promise<{ id: string; name: string; parent_id: string | null }[]> {
  const { stdout } = await dpx(['list', 'organizational-units', '--all', '--page-size', '100', '--output', 'json'], {
    env: env(),
  });
  return (JSON.parse(stdout) as { items: { id: string; name: string; parent_id: string | null }[] }).items;
}

describe('dpx list --ou all --all', () => {
  it('gives every record once, tagged with the deepest unit that holds it: its own', async () => {
    const { code, stderr, items } = await merged(['users', '--ou', 'all', '--all', '--page-size', '100']);
    expect(code, stderr).toBe(0);
    const { stdout } = await dpx(['list', 'users', '--all', '--page-size', '100', '--output', 'json'], { env: env() });
    const everyone = (JSON.parse(stdout) as { items: Record<string, unknown>[] }).items;
    expect(items).toHaveLength(everyone.length);
    expect(new Set(items.map((item) => item['id'])).size).toBe(everyone.length);
    const tree = await units();
    const names = new Map(tree.map((unit) => [unit.id, unit.name]));
    const parents = new Map(tree.map((unit) => [unit.id, unit.parent_id]));
    const pathOf = (id: string | null): string[] =>
      id === null ? [] : [...pathOf(parents.get(id) ?? null), names.get(id)!];
    for (const item of items) {
      const own = String(item['organizational_unit_id']);
      expect(item._context).toEqual({
        profile: null,
        base_url: demo.region.baseUrl,
        ou: own,
        ou_name: names.get(own),
        ou_path: pathOf(own),
      });
    }
    const { _context: _dropped, ...record } = items[0]!;
    expect(everyone).toContainEqual(record);
  });

  it('ndjson: every line carries _context', async () => {
    const { code, stdout } = await dpx(['list', 'tasks', '--ou', 'all', '--page-size', '5', '--output', 'ndjson'], {
      env: env(),
    });
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Tagged);
    expect(lines.length).toBeGreaterThan(15);
    for (const line of lines)
      expect(Object.keys(line._context)).toEqual(['profile', 'base_url', 'ou', 'ou_name', 'ou_path']);
  });
});

describe('dpx list --ou all (one page per unit)', () => {
  it("gives each unit's first page, no record twice", async () => {
    const { code, items } = await merged(['tasks', '--ou', 'all', '--page-size', '4']);
    expect(code).toBe(0);
    const ids = items.map((item) => item['id']);
    expect(new Set(ids).size).toBe(ids.length);
    const byUnit = new Map<string, number>();
    for (const item of items) byUnit.set(item._context.ou!, (byUnit.get(item._context.ou!) ?? 0) + 1);
    for (const count of byUnit.values()) expect(count).toBeLessThanOrEqual(4);
    // Every leaf unit holds tasks of its own, and nothing deeper can have taken them.
    const tree = await units();
    const leaves = tree.filter((unit) => !tree.some((other) => other.parent_id === unit.id));
    for (const leaf of leaves) expect(byUnit.get(leaf.id), leaf.name).toBe(4);
  });

  it('table and csv lead with the profile and the unit', async () => {
    const table = await dpx(['list', 'tasks', '--ou', 'all', '--page-size', '2', '--profiles', 'all', '--demo'], {
      columns: 120,
    });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^_profile\s+_unit\s+id\s/);
    expect(table.stdout).toMatch(/^eu-west\s+Berlin\s/m);
    expect(table.stdout).toMatch(/^us-east\s+Berlin\s/m);
    const csv = await dpx(['list', 'tasks', '--ou', 'all', '--page-size', '2', '--output', 'csv', '--csv-crlf'], {
      env: env(),
    });
    const [header, first] = csv.stdout.split('\r\n');
    expect(header!.startsWith('_profile,_unit,_ou,id,')).toBe(true);
    expect(first!.split(',')[0]).toBe(new URL(demo.region.baseUrl).host);
  });
});

describe('dpx list — partial failure', () => {
  it('a unit that refuses is named on stderr and in json errors; the other units are printed; exit 1', async () => {
    const tree = await units();
    const missing = '00000000-0000-4000-8000-000000000000';
    const { code, stderr, items, errors } = await merged([
      'tasks',
      '--ou',
      `${tree[1]!.id},${missing}`,
      '--page-size',
      '3',
    ]);
    expect(code).toBe(1);
    expect(items).toHaveLength(3);
    expect(items.every((item) => item._context.ou === tree[1]!.id)).toBe(true);
    expect(errors).toEqual([
      {
        profile: null,
        base_url: demo.region.baseUrl,
        ou: missing,
        ou_name: missing,
        ou_path: [missing],
        error: expect.stringMatching(/^HTTP 403/),
      },
    ]);
    expect(stderr).toMatch(new RegExp(`^error: ${demo.region.baseUrl} ${missing}: HTTP 403`, 'm'));
  });

  it("a control plane that does not answer fails alone: the other profile's records are printed, exit 1", async () => {
    await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-env', 'EU_TOKEN']);
    await dpx(['profile', 'add', 'gone', '--base-url', NOWHERE, '--token-env', 'EU_TOKEN']);
    const { code, stderr, items, errors } = await merged(['roles', '--profiles', 'eu,gone'], {
      EU_TOKEN: demo.region.tokens.personal,
    });
    expect(code).toBe(1);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item._context.profile === 'eu')).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors![0]).toMatchObject({ profile: 'gone', base_url: NOWHERE });
    expect(stderr).toMatch(/^error: gone: could not reach/m);
  });

  it('--profiles refuses --base-url, which names only one control plane', async () => {
    const { code, stderr } = await dpx(['list', 'roles', '--profiles', 'all', '--base-url', demo.region.baseUrl], {
      env: env(),
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--profiles takes each control plane from its profile/);
  });
});

describe('dpx list — streaming', () => {
  it('prints the records of a quick source while a slow one has not answered yet', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = miniApi({
      vendor: 'service',
      resource: 'roles',
      items: 3,
      params: { pageSize: 'limit', page: 'start', filter: 'filter' },
      versions: ['v1'],
    });
    const slow = await startServer(async (request, response, server) => {
      if (request.url !== '/') await held;
      await handler(request, response, server);
    });
    servers.push(slow);
    await dpx(['profile', 'add', 'quick', '--base-url', demo.region.baseUrl, '--token-env', 'EU_TOKEN']);
    await dpx(['profile', 'add', 'slow', '--base-url', slow.baseUrl, '--token-env', 'EU_TOKEN']);
    let quickPrinted = false;
    const run = dpx(['list', 'roles', '--profiles', 'quick,slow', '--output', 'ndjson'], {
      env: { EU_TOKEN: demo.region.tokens.personal },
      watchStdout: (text) => {
        if (!quickPrinted && text.includes('"profile":"quick"')) {
          quickPrinted = true;
          release();
        }
      },
    });
    const { code, stdout } = await run;
    expect(code).toBe(0);
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Tagged);
    // The slow source answered only once the quick one's records were out, so they come first.
    const firstSlow = lines.findIndex((line) => line._context.profile === 'slow');
    expect(firstSlow).toBeGreaterThan(0);
    expect(lines.slice(0, firstSlow).every((line) => line._context.profile === 'quick')).toBe(true);
    expect(lines.filter((line) => line._context.profile === 'slow')).toHaveLength(3);
  });
});
