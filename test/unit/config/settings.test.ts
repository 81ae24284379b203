import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafetyError, UsageError } from '../../../src/api/errors.js';
import { saveConfig, type ConfigFile } from '../../../src/config/profiles.js';
import { resolveProfileSettings, resolveSettings, type GlobalFlags } from '../../../src/config/settings.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

let dir: string;
let configPath: string;

beforeEach(async () => {
  dir = temporaryFolder('dpx-settings-');
  configPath = join(dir, 'config.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tokenFile(name: string, content: string, mode = 0o600): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  await chmod(path, mode);
  return path;
}

async function withConfig(config: ConfigFile): Promise<void> {
  await saveConfig(configPath, config);
}

function resolveWith(flags: GlobalFlags, env: NodeJS.ProcessEnv = {}) {
  return resolveSettings(flags, env, configPath);
}

const prod = {
  baseUrl: 'https://prod.example/api',
  ou: 'ou-profile',
  ouHeader: 'x-acme-ou',
  vendor: 'acme',
  pageSize: 50,
  schemaDir: 'schemas',
};

describe('defaults', () => {
  it('are read-only with a 30 s timeout and nothing else when there is no config', async () => {
    expect(await resolveWith({})).toEqual({ now: expect.any(Date), readOnly: true, timeoutMs: 30_000 });
  });

  it('use DPX_CONFIG when no path is given', async () => {
    await withConfig({ current: 'prod', profiles: { prod } });
    const settings = await resolveSettings({}, { DPX_CONFIG: configPath });
    expect(settings.baseUrl).toBe(prod.baseUrl);
  });
});

describe('precedence: flags > environment > profile > defaults', () => {
  beforeEach(async () => {
    await withConfig({
      current: 'prod',
      profiles: { prod, lab: { baseUrl: 'https://lab.example/api', ou: 'ou-lab' } },
    });
  });

  it('takes everything from the current profile when nothing overrides it', async () => {
    expect(await resolveWith({})).toEqual({
      now: expect.any(Date),
      profile: 'prod',
      baseUrl: prod.baseUrl,
      ou: 'ou-profile',
      ouHeader: 'x-acme-ou',
      vendor: 'acme',
      pageSize: 50,
      schemaDir: join(dir, 'schemas'),
      readOnly: true,
      timeoutMs: 30_000,
    });
  });

  it('lets the environment override the profile', async () => {
    const settings = await resolveWith({}, { DPX_PROFILE: 'lab', DPX_BASE_URL: `${NOWHERE}/api`, DPX_OU: 'ou-env' });
    expect(settings).toMatchObject({ profile: 'lab', baseUrl: `${NOWHERE}/api`, ou: 'ou-env' });
  });

  it('lets flags override the environment', async () => {
    const settings = await resolveWith(
      {
        profile: 'prod',
        baseUrl: 'http://127.0.0.1:7/api',
        ou: 'ou-flag',
        ouHeader: 'x-flag',
        vendor: 'flagvendor',
        timeout: 2.5,
        trail: 'out.har',
      },
      { DPX_PROFILE: 'lab', DPX_BASE_URL: `${NOWHERE}/api`, DPX_OU: 'ou-env' },
    );
    expect(settings).toMatchObject({
      profile: 'prod',
      baseUrl: 'http://127.0.0.1:7/api',
      ou: 'ou-flag',
      ouHeader: 'x-flag',
      vendor: 'flagvendor',
      timeoutMs: 2500,
      trail: 'out.har',
    });
  });

  it('takes the request budget (concurrency, rate) from flags, then DPX_CONCURRENCY/DPX_RATE, then the profile', async () => {
    await withConfig({ current: 'prod', profiles: { prod: { ...prod, concurrency: 4, rate: 20 } } });
    expect(await resolveWith({})).toMatchObject({ concurrency: 4, ratePerSecond: 20 });
    expect(await resolveWith({}, { DPX_CONCURRENCY: '2', DPX_RATE: '30' })).toMatchObject({
      concurrency: 2,
      ratePerSecond: 30,
    });
    expect(await resolveWith({ concurrency: 16, rate: 99.5 }, { DPX_CONCURRENCY: '2', DPX_RATE: '30' })).toMatchObject({
      concurrency: 16,
      ratePerSecond: 99.5,
    });
    await expect(resolveWith({}, { DPX_CONCURRENCY: '2.5' })).rejects.toThrow(
      /DPX_CONCURRENCY must be a positive whole number/,
    );
    await expect(resolveWith({}, { DPX_RATE: 'fast' })).rejects.toBeInstanceOf(UsageError);
    await withConfig({ current: 'prod', profiles: { prod: { ...prod, rate: -1 } } });
    await expect(resolveWith({})).rejects.toThrow(/profiles\.prod\.rate must be a positive number/);
  });

  it('refuses an unknown profile, a bad base URL and a bad timeout as usage errors', async () => {
    await expect(resolveWith({ profile: 'nope' })).rejects.toThrow(/no profile named "nope"/);
    await expect(resolveWith({ baseUrl: 'not a url' })).rejects.toBeInstanceOf(UsageError);
    await expect(resolveWith({ baseUrl: 'ftp://x.example' })).rejects.toBeInstanceOf(UsageError);
    await expect(resolveWith({ timeout: 0 })).rejects.toBeInstanceOf(UsageError);
  });

  it('ignores the profile and its token sources for the demo unless a profile is named', async () => {
    await withConfig({ current: 'prod', profiles: { prod: { ...prod, tokenEnv: 'UNSET_VARIABLE' } } });
    const settings = await resolveWith({ demo: true }, { DPX_TOKEN: 'env-token' });
    expect(settings.profile).toBeUndefined();
    expect(settings.baseUrl).toBeUndefined();
    expect(settings.token).toBeUndefined();
  });
});

describe('read-only', () => {
  it('is lifted by --allow-writes or a profile with readOnly false, and forced by --read-only', async () => {
    await withConfig({
      profiles: { rw: { baseUrl: 'https://a.example', readOnly: false }, ro: { baseUrl: 'https://a.example' } },
    });
    expect((await resolveWith({ profile: 'ro' })).readOnly).toBe(true);
    expect((await resolveWith({ profile: 'ro', allowWrites: true })).readOnly).toBe(false);
    expect((await resolveWith({ profile: 'rw' })).readOnly).toBe(false);
    expect((await resolveWith({ profile: 'rw', readOnly: true })).readOnly).toBe(true);
    expect((await resolveWith({ allowWrites: true, readOnly: true })).readOnly).toBe(true);
  });
});

describe('token sources', () => {
  it('takes DPX_TOKEN from the environment, trimmed', async () => {
    const settings = await resolveWith({}, { DPX_TOKEN: ' env-token\n' });
    expect(settings).toMatchObject({ token: 'env-token', tokenSource: 'DPX_TOKEN' });
  });

  it('takes --token-file over DPX_TOKEN, trimming the content', async () => {
    const file = await tokenFile('token', '  file-token\n');
    const settings = await resolveWith({ tokenFile: file }, { DPX_TOKEN: 'env-token' });
    expect(settings.token).toBe('file-token');
    expect(settings.tokenSource).toContain(file);
    expect(settings.tokenSource).not.toContain('file-token');
  });

  it('takes DPX_TOKEN over the profile, then the profile token file (relative to the config), then its variable', async () => {
    await tokenFile('prod.token', 'profile-file-token\n');
    await withConfig({
      profiles: {
        f: { baseUrl: 'https://a.example', tokenFile: 'prod.token' },
        e: { baseUrl: 'https://a.example', tokenEnv: 'MY_TOKEN' },
      },
    });
    expect((await resolveWith({ profile: 'f' }, { DPX_TOKEN: 'env-token' })).token).toBe('env-token');
    expect((await resolveWith({ profile: 'f' })).token).toBe('profile-file-token');
    expect(await resolveWith({ profile: 'e' }, { MY_TOKEN: 'var-token' })).toMatchObject({
      token: 'var-token',
      tokenSource: 'MY_TOKEN',
    });
  });

  it('says which variable to set when the profile names one that is not set', async () => {
    await withConfig({ profiles: { e: { baseUrl: 'https://a.example', tokenEnv: 'MY_TOKEN' } } });
    await expect(resolveWith({ profile: 'e' })).rejects.toThrow(/MY_TOKEN is not set/);
  });

  it.each([0o644, 0o640, 0o604, 0o660])('refuses a token file with mode %o, saying the chmod to run', async (mode) => {
    const file = await tokenFile('open.token', 'secret-token', mode);
    const error = await resolveWith({ tokenFile: file }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SafetyError);
    expect((error as SafetyError).message).toContain(file);
    expect((error as SafetyError).hint).toContain(`chmod 600 '${file}'`);
    expect(`${(error as SafetyError).message} ${(error as SafetyError).hint}`).not.toContain('secret-token');
  });

  it('accepts mode 0400 and refuses an empty or missing token file', async () => {
    expect((await resolveWith({ tokenFile: await tokenFile('ro.token', 'tok', 0o400) })).token).toBe('tok');
    await expect(resolveWith({ tokenFile: await tokenFile('empty.token', ' \n') })).rejects.toThrow(/is empty/);
    await expect(resolveWith({ tokenFile: join(dir, 'missing') })).rejects.toBeInstanceOf(UsageError);
  });

  it('has no token and no source when none is configured', async () => {
    const settings = await resolveWith({});
    expect(settings.token).toBeUndefined();
    expect(settings.tokenSource).toBeUndefined();
  });
});

describe('one profile of several (--profiles)', () => {
  it('takes the control plane from the profile alone: no base URL, token or unit of the flags or the environment', async () => {
    await tokenFile('lab.token', 'lab-file-token\n');
    await withConfig({
      current: 'prod',
      profiles: {
        prod: { baseUrl: 'https://prod.example/api', ou: 'ou-prod', tokenEnv: 'PROD_TOKEN' },
        lab: { baseUrl: 'https://lab.example/api', tokenFile: 'lab.token' },
        bare: { baseUrl: 'https://bare.example/api' },
        plain: { baseUrl: 'https://plain.example/api', tokenEnv: 'DPX_TOKEN' },
      },
    });
    const flags: GlobalFlags = {
      baseUrl: 'http://127.0.0.1:7',
      tokenFile: join(dir, 'nowhere'),
      ou: 'ou-flag',
      rate: 10,
      timeout: 5,
    };
    const env = {
      DPX_BASE_URL: NOWHERE,
      DPX_TOKEN: 'env-token',
      DPX_OU: 'ou-env',
      DPX_PROFILE: 'lab',
      PROD_TOKEN: 'prod-token',
    };
    expect(await resolveProfileSettings('prod', flags, env, configPath)).toMatchObject({
      profile: 'prod',
      baseUrl: 'https://prod.example/api',
      ou: 'ou-prod',
      token: 'prod-token',
      ratePerSecond: 10,
      timeoutMs: 5000,
    });
    expect(await resolveProfileSettings('lab', flags, env, configPath)).toMatchObject({
      baseUrl: 'https://lab.example/api',
      token: 'lab-file-token',
    });
    const bare = await resolveProfileSettings('bare', flags, env, configPath);
    expect(bare.token).toBeUndefined();
    expect(bare.ou).toBeUndefined();
    // A profile that names DPX_TOKEN as its own variable still reads it.
    expect((await resolveProfileSettings('plain', flags, env, configPath)).token).toBe('env-token');
  });
});

describe('a malformed config file', () => {
  it('fails settings resolution with a usage error naming its path', async () => {
    await writeFile(configPath, '{ "current": "prod", ');
    const error = await resolveWith({}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(configPath);
  });
});
