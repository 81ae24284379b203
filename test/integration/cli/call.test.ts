import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
let userIds: string[] = [];

beforeAll(async () => {
  const { stdout } = await dpx(
    ['list', 'users', '--page-size', '10', '--output', 'json', '--filter', '{"is_enabled":{"$eq":true}}'],
    { env: env() },
  );
  userIds = (JSON.parse(stdout) as { items: { id: string }[] }).items.map((item) => item.id);
  expect(userIds.length).toBeGreaterThanOrEqual(5);
});

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

async function isEnabled(id: string): Promise<boolean> {
  const { code, stdout } = await dpx(['call', 'users', 'get_user', '--var', `user_id=${id}`], { env: env() });
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { is_enabled: boolean }).is_enabled;
}

describe('dpx call — reads', () => {
  it('sends a templated read and prints the body as JSON, the status on stderr', async () => {
    const { code, stdout, stderr } = await dpx(['call', 'users', 'get_user', '--var', `user_id=${userIds[0]}`], {
      env: env(),
    });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { id: string }).id).toBe(userIds[0]);
    expect(stderr).toMatch(/^200 OK · \d+ ms$/m);
  });

  it('indents the JSON on a terminal', async () => {
    const { stdout } = await dpx(['call', 'users', 'get_user', '--var', `user_id=${userIds[0]}`], {
      env: env(),
      stdoutTTY: true,
    });
    expect(stdout).toMatch(/^\{\n {2}"/);
  });

  it('names a missing path variable (exit 2)', async () => {
    const { code, stderr } = await dpx(['call', 'users', 'get_user'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/user_id/);
  });

  it('a 404 from the server is exit 1 with its error entry', async () => {
    const { code, stderr } = await dpx(
      ['call', 'users', 'get_user', '--var', 'user_id=00000000-0000-4000-8000-000000000000'],
      { env: env() },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: HTTP 404/m);
    expect(stderr).toMatch(/^ {2}\[\w+\] /m);
  });
});

describe('dpx call — --dry-run', () => {
  it('prints a curl command with $DPX_TOKEN that a shell can run, and sends nothing', async () => {
    const id = userIds[1]!;
    const before = demo.region.requestCount();
    const { code, stdout } = await dpx(['call', 'users', 'disable_user', '--var', `user_id=${id}`, '--dry-run'], {
      env: env(),
    });
    expect(code).toBe(0);
    // The index only: the write itself was never sent.
    expect(demo.region.requestCount() - before).toBe(1);
    expect(stdout).toContain('$DPX_TOKEN');
    expect(stdout).toContain(`${demo.region.baseUrl}/users/${id}/disable`);
    expect(await isEnabled(id)).toBe(true);
    // The printed command, run by a shell with the token in its environment, performs the write.
    // (Asynchronously: the demo answering it lives in this process.)
    await promisify(execFile)('bash', ['-c', stdout.replace(/^curl /, 'curl -sf ')], {
      env: { ...process.env, DPX_TOKEN: demo.region.tokens.personal },
    });
    expect(await isEnabled(id)).toBe(false);
  });
});

describe('dpx call — writes', () => {
  it('refuses a write without --allow-writes: exit 4, the write never reaches the server', async () => {
    const id = userIds[2]!;
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['call', 'users', 'disable_user', '--var', `user_id=${id}`, '--yes'], {
      env: env(),
    });
    expect(code).toBe(4);
    expect(stderr).toMatch(/^error: .*read-only/m);
    expect(stderr).toMatch(/^hint: .*--allow-writes/m);
    expect(demo.region.requestCount() - before).toBe(1);
    expect(await isEnabled(id)).toBe(true);
  });

  it('refuses an unconfirmed write when there is no terminal to ask on (exit 4)', async () => {
    const id = userIds[2]!;
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['call', 'users', 'disable_user', '--var', `user_id=${id}`, '--allow-writes'], {
      env: env(),
    });
    expect(code).toBe(4);
    expect(stderr).toMatch(/^hint: add --yes/m);
    expect(demo.region.requestCount() - before).toBe(1);
    expect(await isEnabled(id)).toBe(true);
  });

  it('sends a write with --allow-writes --yes', async () => {
    const id = userIds[2]!;
    const { code, stderr } = await dpx(
      ['call', 'users', 'disable_user', '--var', `user_id=${id}`, '--allow-writes', '--yes'],
      { env: env() },
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/^2\d\d /m);
    expect(await isEnabled(id)).toBe(false);
  });

  it('on a terminal, shows the write and sends it only when answered y', async () => {
    const id = userIds[3]!;
    const declined = await dpx(['call', 'users', 'disable_user', '--var', `user_id=${id}`, '--allow-writes'], {
      env: env(),
      stderrTTY: true,
      typed: 'n\n',
    });
    expect(declined.code).toBe(4);
    expect(declined.stderr).toContain(`POST ${demo.region.baseUrl}/users/${id}/disable`);
    expect(declined.stderr).toContain(`control plane: ${demo.region.baseUrl}`);
    expect(declined.stderr).toMatch(/organizational unit: /);
    expect(declined.stderr).toContain('[y/N]');
    expect(await isEnabled(id)).toBe(true);

    const accepted = await dpx(['call', 'users', 'disable_user', '--var', `user_id=${id}`, '--allow-writes'], {
      env: env(),
      stderrTTY: true,
      typed: 'y\n',
    });
    expect(accepted.code).toBe(0);
    expect(await isEnabled(id)).toBe(false);
  });

  it('checks --body as JSON before sending (exit 2)', async () => {
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['call', 'users', 'create_user', '--body', '{oops', '--allow-writes', '--yes'], {
      env: env(),
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: --body is not valid JSON/m);
    expect(demo.region.requestCount()).toBe(before);
  });
});
