// Read-only stays read-only (issue 38): a profile with an explicit "readOnly": true is locked. --allow-writes
// does not lift it, neither on the command line nor when the explorer starts; a profile without the key is
// read-only until --allow-writes, as before; `profile list` tells the three apart.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/config/settings.js';
import { useDemo } from '../../helpers/demo.js';
import { configPath, dpx } from './harness.js';

const demo = useDemo({ tenants: 10, frozen: true });
const env = () => ({ DPX_CONFIG: configPath, DEMO_TOKEN: demo.region.tokens.personal });

function writeConfig(): void {
  const profile = { baseUrl: demo.region.baseUrl, tokenEnv: 'DEMO_TOKEN' };
  writeFileSync(
    configPath,
    JSON.stringify({
      current: 'vault',
      profiles: {
        vault: { ...profile, readOnly: true },
        plain: profile,
        writer: { ...profile, readOnly: false },
      },
    }),
  );
}

async function someUserId(): Promise<string> {
  const { stdout } = await dpx(['list', 'users', '--page-size', '1', '-o', 'json', '--fields', 'id'], { env: env() });
  return String((JSON.parse(stdout) as { items: { id: string }[] }).items[0]!.id);
}

describe('a profile with "readOnly": true is locked', () => {
  it('refuses a write whatever --allow-writes says: exit 4, naming the profile and how to change it', async () => {
    writeConfig();
    const id = await someUserId();
    const refused = await dpx(
      ['call', 'users', 'delete_user', id, '--profile', 'vault', '--allow-writes', '--confirm-id', id],
      { env: env() },
    );
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('DELETE changes data and was not sent: the profile is set to read-only');
    expect(refused.stderr).toContain(`the profile vault is locked by "readOnly": true in ${configPath}`);
    expect(refused.stderr).toContain('neither --allow-writes nor W lifts it');
    expect((await dpx(['call', 'users', 'get_user', id, '--profile', 'vault'], { env: env() })).code).toBe(0);
    // Without the key the profile is read-only by default, and --allow-writes turns writes on, as before.
    const plain = await dpx(
      ['call', 'users', 'delete_user', id, '--profile', 'plain', '--allow-writes', '--confirm-id', id],
      { env: env() },
    );
    expect(plain.code).toBe(0);
  });

  it('starts the explorer locked though --allow-writes is given (the W key then says why)', async () => {
    writeConfig();
    const locked = await resolveSettings({ profile: 'vault', allowWrites: true }, env(), configPath);
    expect(locked.readOnly).toBe(true);
    expect(locked.writesLocked).toBe('the profile is set to read-only');
    const plain = await resolveSettings({ profile: 'plain', allowWrites: true }, env(), configPath);
    expect(plain.readOnly).toBe(false);
    expect(plain.writesLocked).toBeUndefined();
    expect((await resolveSettings({ profile: 'plain' }, env(), configPath)).readOnly).toBe(true);
  });

  it('`profile list` shows locked, read-only by default and writes allowed', async () => {
    writeConfig();
    const { code, stdout } = await dpx(['profile', 'list'], { env: env(), columns: 200 });
    expect(code).toBe(0);
    const writes = (name: string) =>
      stdout
        .split('\n')
        .find((line) => line.includes(` ${name} `))
        ?.trimEnd();
    expect(writes('vault')).toMatch(/locked$/);
    expect(writes('plain')).toMatch(/read-only by default$/);
    expect(writes('writer')).toMatch(/allowed$/);
  });

  it('`profile add --read-only` locks the profile it adds', async () => {
    writeConfig();
    const added = await dpx(['profile', 'add', 'locked2', '--base-url', demo.region.baseUrl, '--read-only'], {
      env: env(),
    });
    expect(added.code).toBe(0);
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { profiles: Record<string, { readOnly?: boolean }> };
    expect(config.profiles['locked2']?.readOnly).toBe(true);
  });

  it('`profile add` again, without --read-only or with --allow-writes, does not lift the lock: exit 4', async () => {
    writeConfig();
    const add = (...extra: string[]) =>
      dpx(['profile', 'add', 'vault', '--base-url', demo.region.baseUrl, ...extra], { env: env() });
    for (const extra of [[], ['--allow-writes']]) {
      const again = await add(...extra);
      expect(again.code).toBe(4);
      expect(again.stderr).toMatch(/profile vault is locked \("readOnly": true\)/);
      expect(again.stderr).toMatch(/dpx profile set vault readOnly false/);
    }
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { profiles: Record<string, { readOnly?: boolean }> };
    expect(config.profiles['vault']?.readOnly).toBe(true);
    expect((await add('--read-only')).code).toBe(0);
  });
});
