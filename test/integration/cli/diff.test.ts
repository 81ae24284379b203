// `dpx diff`: one demo record read twice over HTTP — two versions, two units, two profiles — side by side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const GLOBAL = 'ec1cbe9c-f7da-4e0b-8a46-7cc21e5f692c';
const GLOBEX = 'd469d32e-85ba-4a77-9f25-23e39deb60fd';
let user: Record<string, unknown>;
let v1User: Record<string, unknown>;

interface DiffJson {
  left: { label: string; url: string };
  right: { label: string; url: string };
  fields: { path: string; right_path?: string; state: string; left?: unknown; right?: unknown }[];
}

beforeAll(async () => {
  user = (await demoRequest(demo.region, '/users?limit=1')).body._embedded.items[0];
  v1User = (
    await demoRequest(demo.region, `/users/${String(user['id'])}`, {
      headers: { Accept: 'application/api.service.users=v1+json' },
    })
  ).body;
});
afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

describe('dpx diff --versions', () => {
  it('shows users v1 and v2 side by side: username paired with email as the same value, one-sided fields marked', async () => {
    const run = await dpx(['diff', 'users', String(user['id']), '--versions', 'v1,v2', '-o', 'json'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as DiffJson;
    expect(report.left).toEqual({ label: 'v1', url: `${demo.region.baseUrl}/users/${String(user['id'])}` });
    const row = (path: string) => report.fields.find((field) => field.path === path);
    expect(row('id')).toEqual({ path: 'id', state: 'equal', left: user['id'], right: user['id'] });
    expect(row('username')).toEqual({
      path: 'username',
      right_path: 'email',
      state: 'same-value',
      left: user['email'],
      right: user['email'],
    });
    expect(row('role.id')).toMatchObject({ right_path: 'role_id', state: 'same-value' });
    expect(row('first_name')).toEqual({ path: 'first_name', state: 'only-left', left: v1User['first_name'] });
    expect(row('full_name')).toEqual({ path: 'full_name', state: 'only-right', right: user['full_name'] });
    // Links are not data: the v2 record's action links never show up.
    expect(report.fields.some((field) => field.path.startsWith('_links'))).toBe(false);
  });

  it('prints a table aligned by field, and exits 5 with --exit-code when the documents differ', async () => {
    const run = await dpx(['diff', 'users', String(user['id']), '--versions', 'v1,v2', '--exit-code'], {
      env: env(),
      columns: 160,
      stdoutTTY: true,
    });
    expect(run.code).toBe(5);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^field\s+v1\s+v2\s+diff$/);
    expect(run.stdout).toMatch(
      new RegExp(`^username / email\\s+${String(user['email'])}\\s+${String(user['email'])}\\s+same value$`, 'm'),
    );
    expect(run.stdout).toMatch(new RegExp(`^first_name\\s+${String(v1User['first_name'])}\\s+only v1$`, 'm'));
    expect(run.stderr).toMatch(/1 equal · \d+ same value · 2 only v1 · 3 only v2/);
  });
});

describe('dpx diff --ou', () => {
  it('finds a record the same in a unit and in the unit above it (exit 0 even with --exit-code)', async () => {
    const task = (
      await demoRequest(demo.region, '/tasks?limit=1', { headers: { 'x-service-organizationalunit-context': GLOBEX } })
    ).body._embedded.items[0];
    const run = await dpx(['diff', 'tasks', task.id, '--ou', `${GLOBAL},${GLOBEX}`, '--exit-code'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/the two documents are the same/);
  });

  it('names the side that could not be read, with its error', async () => {
    const acmeTask = (
      await demoRequest(demo.region, '/tasks?limit=1', {
        headers: { 'x-service-organizationalunit-context': '12ea2b10-e6d9-4c3f-90f8-0199acb1b1d2' },
      })
    ).body._embedded.items[0];
    const run = await dpx(['diff', 'tasks', acmeTask.id, '--ou', `${GLOBAL},${GLOBEX}`], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^could not read the ${GLOBEX} side:$`, 'm'));
    expect(run.stderr).toMatch(/record_not_found/);
  });
});

describe('dpx diff --profiles', () => {
  it('reads the record through two saved profiles, each with its own token', async () => {
    const profileEnv = { EU_PERSONAL: demo.region.tokens.personal, EU_SERVICE: demo.region.tokens.service };
    expect(
      (await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-env', 'EU_PERSONAL'])).code,
    ).toBe(0);
    expect(
      (await dpx(['profile', 'add', 'eu-service', '--base-url', demo.region.baseUrl, '--token-env', 'EU_SERVICE']))
        .code,
    ).toBe(0);
    const run = await dpx(['diff', 'users', String(user['id']), '--profiles', 'eu,eu-service', '-o', 'json'], {
      env: profileEnv,
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as DiffJson;
    expect([report.left.label, report.right.label]).toEqual(['eu', 'eu-service']);
    expect(report.fields.every((field) => field.state === 'equal')).toBe(true);
  });
});

describe('dpx diff usage', () => {
  it.each([
    [['diff', 'users', 'x']],
    [['diff', 'users', 'x', '--versions', 'v1,v2', '--profiles', 'a,b']],
    [['diff', 'users', 'x', '--versions', 'v1']],
    [['diff', 'users', 'x', '--versions', 'v2,v2']],
    [['diff', 'users', '--versions', 'v1,v2']],
  ])('%j is a usage error', async (argv) => {
    const run = await dpx(argv, { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^hint: /m);
  });
});
