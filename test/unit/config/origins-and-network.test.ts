// What settings resolution decides about tokens and the network before anything is sent: the origin a
// token belongs to (and the refusal when the run's control plane is another), one token per variable,
// and the proxy and certificate authorities a run asks for.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SafetyError, UsageError } from '../../../src/api/errors.js';
import { saveConfig } from '../../../src/config/profiles.js';
import { Resolved } from '../../../src/config/resolved.js';
import { resolveProfileSettings, resolveSettings } from '../../../src/config/settings.js';
import { temporaryFolder } from '../../helpers/temporary.js';

let dir: string;
let configPath: string;
const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>) => `${segment({ alg: 'none' })}.${segment(claims)}.`;

beforeEach(async () => {
  dir = temporaryFolder('dpx-origins-');
  configPath = join(dir, 'config.json');
  await saveConfig(configPath, {
    current: 'eu',
    profiles: {
      eu: { baseUrl: 'https://eu.example.com/api', tokenEnv: 'EU_TOKEN' },
      us: { baseUrl: 'https://us.example.com:8443/api', tokenEnv: 'US_TOKEN', proxy: '', caFile: 'ca.pem' },
    },
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the origin a token belongs to', () => {
  it("is the profile's for the profile's token, and another base URL is refused with both named", async () => {
    expect(await resolveSettings({}, { EU_TOKEN: 't' }, configPath)).toMatchObject({
      tokenOrigins: ['https://eu.example.com'],
      tokenKind: 'variable',
    });
    const error = await resolveSettings({ baseUrl: 'http://127.0.0.1:39999' }, { EU_TOKEN: 't' }, configPath).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SafetyError);
    expect((error as SafetyError).message).toBe(
      'refused to send the token (EU_TOKEN) to http://127.0.0.1:39999: it belongs to https://eu.example.com',
    );
    expect((error as SafetyError).hint).toMatch(/--trust-origin http:\/\/127\.0\.0\.1:39999/);
  });

  it('is the one --trust-origin names, on purpose', async () => {
    const settings = await resolveSettings(
      { baseUrl: 'http://127.0.0.1:39999/api', trustOrigin: 'http://127.0.0.1:39999/' },
      { EU_TOKEN: 't' },
      configPath,
    );
    expect(settings.baseUrl).toBe('http://127.0.0.1:39999/api');
  });

  it('for DPX_TOKEN: a known control plane its iss or aud names, else the base URL it was given with', async () => {
    const forUs = jwt({ iss: 'https://idp.example.com', aud: 'https://us.example.com:8443' });
    await expect(
      resolveSettings({}, { DPX_TOKEN: forUs, DPX_BASE_URL: 'https://eu.example.com/api' }, configPath),
    ).rejects.toBeInstanceOf(SafetyError);
    const elsewhere = jwt({ iss: 'https://idp.example.com' });
    expect(
      await resolveSettings({}, { DPX_TOKEN: elsewhere, DPX_BASE_URL: 'https://lab.example.com' }, configPath),
    ).toMatchObject({ tokenOrigins: ['https://lab.example.com'] });
    expect(await resolveSettings({}, { DPX_TOKEN: 'not-a-jwt' }, configPath)).toMatchObject({
      tokenOrigins: ['https://eu.example.com'],
    });
  });

  it('of a profile among several is its own, whatever the flags say', async () => {
    await writeFile(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    expect(
      await resolveProfileSettings('us', { baseUrl: 'http://127.0.0.1:1' }, { US_TOKEN: 'u' }, configPath),
    ).toMatchObject({ tokenOrigins: ['https://us.example.com:8443'] });
  });
});

describe('one token', () => {
  it('per variable: two lines are a usage error', async () => {
    const error = await resolveSettings({}, { DPX_TOKEN: 'one\ntwo' }, configPath).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('DPX_TOKEN: expected one token, found 2 lines');
    await expect(resolveSettings({}, { EU_TOKEN: 'a\r\nb\r\nc' }, configPath)).rejects.toThrow(
      'EU_TOKEN: expected one token, found 3 lines',
    );
  });
});

describe('the network', () => {
  it("keeps the environment's proxy variables, and none when there are none", async () => {
    expect((await resolveSettings({}, { EU_TOKEN: 't' }, configPath)).network).toBeUndefined();
    const { network } = await resolveSettings(
      {},
      { EU_TOKEN: 't', HTTPS_PROXY: ' http://proxy:3128 ', no_proxy: 'internal', HOME: '/x' },
      configPath,
    );
    expect(network).toEqual({ proxyEnvironment: { HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'internal' } });
  });

  it("takes --proxy over the profile's, reads host:port as http, and refuses what is no http proxy", async () => {
    expect((await resolveSettings({ proxy: 'proxy.corp:3128' }, { EU_TOKEN: 't' }, configPath)).network).toEqual({
      proxy: 'http://proxy.corp:3128',
    });
    await expect(
      resolveSettings({ proxy: 'socks5://user:pw@proxy:1080' }, { EU_TOKEN: 't' }, configPath),
    ).rejects.toThrow('--proxy socks5://proxy:1080 is not an http or https proxy');
  });

  it("reads the profile's caFile relative to the config file, with Node's authorities and NODE_EXTRA_CA_CERTS'", async () => {
    const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`;
    await writeFile(join(dir, 'ca.pem'), pem('company'));
    await writeFile(join(dir, 'extra.pem'), pem('extra'));
    const { network } = await resolveProfileSettings(
      'us',
      {},
      { US_TOKEN: 'u', NODE_EXTRA_CA_CERTS: join(dir, 'extra.pem') },
      configPath,
    );
    expect(network?.proxy).toBe('');
    expect(network?.ca?.slice(-2)).toEqual([pem('extra'), pem('company')]);
    expect(network?.ca?.length).toBeGreaterThan(100);
    await writeFile(join(dir, 'ca.pem'), 'not a certificate');
    await expect(resolveProfileSettings('us', {}, { US_TOKEN: 'u' }, configPath)).rejects.toThrow(
      /ca\.pem \(the profile's caFile\) holds no PEM certificate/,
    );
  });
});

describe("a run's configuration, resolved once", () => {
  it('reads the config file once: its profiles and their settings come from that reading', async () => {
    const resolved = await Resolved.of({}, { EU_TOKEN: 'e', US_TOKEN: 'u' }, configPath);
    await rm(configPath);
    await writeFile(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    expect(resolved.settings).toMatchObject({ profile: 'eu', baseUrl: 'https://eu.example.com/api', token: 'e' });
    expect(resolved.profileNames).toEqual(['eu', 'us']);
    expect(await resolved.profile('us')).toMatchObject({
      profile: 'us',
      baseUrl: 'https://us.example.com:8443/api',
      token: 'u',
    });
    const session = resolved.session({ ...resolved.settings, baseUrl: resolved.settings.baseUrl! }, {});
    expect(session.baseUrl).toBe('https://eu.example.com/api');
  });
});
