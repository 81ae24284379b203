import { afterAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

describe('dpx resources', () => {
  it('prints every resource of the index with its versions, newest marked as the default', async () => {
    const { code, stdout } = await dpx(['resources'], { env: env() });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^resource\s+versions\s+operations/);
    const users = lines.find((line) => line.startsWith('users '));
    expect(users).toMatch(/v2\* v1/);
    expect(lines.length).toBeGreaterThan(8);
  });

  it('prints JSON a program can read', async () => {
    const { code, stdout } = await dpx(['resources', '--output', 'json'], { env: env() });
    expect(code).toBe(0);
    const resources = JSON.parse(stdout) as {
      name: string;
      default_version: string;
      versions: string[];
      operations: string[];
    }[];
    const users = resources.find((resource) => resource.name === 'users');
    expect(users).toMatchObject({ default_version: 'v2', versions: ['v2', 'v1'] });
    expect(users?.operations).toContain('list_users');
  });

  it('works against the embedded demo with --demo and nothing else configured', async () => {
    const { code, stdout } = await dpx(['--demo', 'resources', '--output', 'json'], { env: {} });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { name: string }[]).map((resource) => resource.name)).toContain('tasks');
  });

  it('refuses an unknown output format with exit 2', async () => {
    const { code, stderr } = await dpx(['resources', '--output', 'yaml'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: unknown output format 'yaml'\nhint: .*table, json/m);
  });
});

describe('dpx operations', () => {
  it('lists the operations of the newest version with method, href and variables', async () => {
    const { code, stdout, stderr } = await dpx(['operations', 'users'], { env: env() });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^list_users\s+GET\s+\/users\{\?limit,start,filter\}\s+limit start filter$/m);
    expect(stdout).toMatch(/^get_user\s+GET\s+\/users\/\{user_id\}\s+user_id$/m);
    expect(stderr).toMatch(/users v2 \(also: v1/);
  });

  it('lists an older version on request, as JSON', async () => {
    const { code, stdout } = await dpx(['operations', 'users', '--version', 'v1', '--output', 'json'], { env: env() });
    expect(code).toBe(0);
    const operations = JSON.parse(stdout) as { id: string; method: string }[];
    expect(operations.find((operation) => operation.id.startsWith('list'))?.method).toBe('GET');
  });

  it('names the known resources when asked for an unknown one (exit 2)', async () => {
    const { code, stderr } = await dpx(['operations', 'usres'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: unknown resource: usres$/m);
    expect(stderr).toMatch(/^hint: .*users/m);
  });

  it('names the supported versions when asked for one the index does not list', async () => {
    const { code, stderr } = await dpx(['operations', 'users', '--version', 'v9'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/hint: supported versions: v2, v1/);
  });
});

describe('help', () => {
  it('prints help for dpx and for each command, exit 0', async () => {
    const top = await dpx(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/dpx list <resource>/);
    const list = await dpx(['list', '--help']);
    expect(list.stdout).toMatch(/--max-items N/);
    expect(list.stdout).toMatch(
      /Exit codes: 0 ok, 1 API error or partial answer, 2 usage error, 3 network or protocol error/,
    );
    expect(list.stdout).toMatch(
      /4 refused for safety, 5 differences found .*\n6 a followed task that did not succeed, 130\/143 interrupted \(SIGINT\/SIGTERM\)/,
    );
  });
});
