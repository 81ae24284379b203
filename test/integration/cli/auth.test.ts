import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';
import { closedPort } from '../../helpers/ports.js';

const demo = useDemo();
const folder = temporaryFolder('dpx-auth-');
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

function tokenFile(name: string, token: string, mode: number): string {
  const path = join(folder, name);
  writeFileSync(path, `${token}\n`, { mode });
  return path;
}

describe('dpx whoami', () => {
  it('shows subject, type, issuer, issue and expiry times and the control plane — never the token', async () => {
    const { code, stdout } = await dpx(['whoami'], { env: env() });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^subject\s+\S+@/m);
    expect(stdout).toMatch(/^type\s+personal$/m);
    expect(stdout).toMatch(new RegExp(`^issuer\\s+${demo.region.baseUrl}`, 'm'));
    expect(stdout).toMatch(/^issued\s+\d{4}-\d\d-\d\dT.*\(\d+[smhdy] ago\)$/m);
    expect(stdout).toMatch(/^expires\s+\d{4}-\d\d-\d\dT.*\(in \d+[smhdy]\)$/m);
    expect(stdout).toMatch(new RegExp(`^control plane\\s+${demo.region.baseUrl}$`, 'm'));
    expect(stdout).toMatch(/^token from\s+DPX_TOKEN$/m);
    expect(stdout).not.toMatch(/^warning/m);
  });

  it('warns about an expired token and about a token from another control plane', async () => {
    const expired = await dpx(['whoami', '--output', 'json'], {
      env: { ...env(), DPX_TOKEN: demo.region.tokens.expired },
    });
    const info = JSON.parse(expired.stdout) as { warnings: string[]; expires_in_seconds: number };
    expect(info.expires_in_seconds).toBeLessThan(0);
    expect(info.warnings.join('\n')).toMatch(/expired/);
    const foreign = await dpx(['whoami'], { env: { ...env(), DPX_TOKEN: demo.otherRegion.tokens.personal } });
    expect(foreign.stdout).toMatch(/^warning\s+.*not by this control plane/m);
  });

  it('prints a token whose exp no date can hold, in both formats, with a warning instead of the time', async () => {
    const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${segment({ alg: 'none' })}.${segment({ sub: 'far-future', exp: 1e20 })}.`;
    const table = await dpx(['whoami'], { env: { ...env(), DPX_TOKEN: token } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^subject\s+far-future$/m);
    expect(table.stdout).toMatch(/^warning\s+the token's exp claim .* is not a time a date can hold; ignored$/m);
    const json = await dpx(['whoami', '--output', 'json'], { env: { ...env(), DPX_TOKEN: token } });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      subject: 'far-future',
      expires_at: null,
      expires_in_seconds: null,
    });
  });

  it('says so when there is no token (exit 2)', async () => {
    const { code, stderr } = await dpx(['whoami'], { env: { DPX_BASE_URL: demo.region.baseUrl } });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^hint: .*DPX_TOKEN/m);
  });
});

describe('where the token comes from', () => {
  it('reads a token file that only its owner can read', async () => {
    const path = tokenFile('private.token', demo.region.tokens.personal, 0o600);
    const { code, stdout } = await dpx(
      ['--token-file', path, 'list', 'users', '--output', 'json', '--page-size', '1'],
      { env: { DPX_BASE_URL: demo.region.baseUrl } },
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { items: unknown[] }).items).toHaveLength(1);
  });

  it('refuses a token file others can read (mode 0644): exit 4, nothing sent', async () => {
    const path = tokenFile('shared.token', demo.region.tokens.personal, 0o644);
    const before = demo.region.requestCount();
    const { code, stderr } = await dpx(['list', 'users', '--token-file', path], {
      env: { DPX_BASE_URL: demo.region.baseUrl },
    });
    expect(code).toBe(4);
    expect(stderr).toMatch(/0644/);
    expect(stderr).toMatch(/^hint: .*chmod 600/m);
    expect(demo.region.requestCount()).toBe(before);
  });

  it('rejects --token on the command line with a hint, and does not echo it', async () => {
    const secret = demo.region.tokens.service;
    const { code, stderr } = await dpx(['list', 'users', '--token', secret], {
      env: { DPX_BASE_URL: demo.region.baseUrl },
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^hint: .*DPX_TOKEN.*--token-file/m);
    expect(stderr).not.toContain(secret);
  });
});

describe('failures and their exit codes', () => {
  it('an expired token: exit 1, the 401 and a hint about the expiry', async () => {
    const { code, stderr } = await dpx(['list', 'users'], { env: { ...env(), DPX_TOKEN: demo.region.tokens.expired } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: HTTP 401/m);
    expect(stderr).toMatch(/^hint: .*expired/m);
  });

  it('a token from the other region: exit 1', async () => {
    const { code, stderr } = await dpx(['resources'], {
      env: { ...env(), DPX_TOKEN: demo.otherRegion.tokens.personal },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/HTTP 401/);
  });

  it('a closed port: exit 3 with a network hint', async () => {
    const port = await closedPort();
    const { code, stderr } = await dpx(['resources'], { env: { ...env(), DPX_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(code).toBe(3);
    expect(stderr).toContain(
      `error: could not reach http://127.0.0.1:${port}: nothing is listening at 127.0.0.1:${port} (ECONNREFUSED)\n`,
    );
    expect(stderr).toContain(
      `hint: check the base URL: dpx asked http://127.0.0.1:${port}/ for the discovery index, which should be the control plane's API root`,
    );
  });

  it('no base URL: exit 2 pointing at the ways to give one', async () => {
    const { code, stderr } = await dpx(['resources'], { env: { DPX_TOKEN: demo.region.tokens.personal } });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^hint: .*--base-url.*DPX_BASE_URL/m);
  });

  it('an unknown command: exit 2', async () => {
    const { code, stderr } = await dpx(['lsit', 'users'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: unknown command 'lsit'/m);
  });
});

describe('dpx profile', () => {
  it('adds, lists, uses and removes profiles; a profile then supplies base URL and token', async () => {
    const config = join(folder, 'profiles.json');
    const path = tokenFile('profile.token', demo.region.tokens.personal, 0o600);
    const profileEnv = { DPX_CONFIG: config };
    expect(
      (
        await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-file', path], {
          env: profileEnv,
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await dpx(
          ['profile', 'add', 'us', '--base-url', demo.otherRegion.baseUrl, '--token-env', 'US_TOKEN', '--allow-writes'],
          { env: profileEnv },
        )
      ).code,
    ).toBe(0);

    const listed = await dpx(['profile', 'list'], { env: profileEnv });
    expect(listed.stdout).toMatch(/^\*\s+eu\s/m);
    expect(listed.stdout).toMatch(/us .*env US_TOKEN\s+allowed/);

    const viaProfile = await dpx(['list', 'users', '--output', 'json', '--page-size', '1'], { env: profileEnv });
    expect(viaProfile.code).toBe(0);

    expect((await dpx(['profile', 'use', 'us'], { env: profileEnv })).code).toBe(0);
    const whoami = await dpx(['whoami', '--output', 'json'], {
      env: { ...profileEnv, US_TOKEN: demo.otherRegion.tokens.personal },
    });
    expect((JSON.parse(whoami.stdout) as { control_plane: string }).control_plane).toBe(demo.otherRegion.baseUrl);

    expect((await dpx(['profile', 'remove', 'us'], { env: profileEnv })).code).toBe(0);
    expect((await dpx(['profile', 'use', 'us'], { env: profileEnv })).code).toBe(2);
  });
});

describe('--trail', () => {
  it('records every exchange as HAR, with the token redacted', async () => {
    const path = join(folder, 'trail.har');
    const { code } = await dpx(['list', 'users', '--page-size', '2', '--trail', path], { env: env() });
    expect(code).toBe(0);
    const text = readFileSync(path, 'utf8');
    const har = JSON.parse(text) as { log: { entries: { request: { url: string } }[] } };
    expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual(['/', '/users']);
    expect(text).not.toContain(demo.region.tokens.personal);
  });
});
