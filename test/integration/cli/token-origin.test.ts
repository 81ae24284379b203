// A token goes only to the origin it belongs to, and that is checked before the first request: another
// control plane (a bare TCP listener here) sees no connection at all. A token file is one line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { useBareListener } from '../../helpers/servers.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const folder = temporaryFolder('dpx-origin-');
const config = join(folder, 'config.json');

/** Another "control plane", which must receive nothing. */
const other = useBareListener();

beforeAll(async () => {
  const file = tokenFile('eu.token', `${demo.region.tokens.personal}\n`);
  const env = { DPX_CONFIG: config };
  expect(
    (await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-file', file], { env })).code,
  ).toBe(0);
});

afterAll(async () => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

function tokenFile(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: Record<string, unknown>) =>
  `${segment({ alg: 'none' })}.${segment({ sub: 'someone', ...claims })}.`;

function expectRefused(result: { code: number; stderr: string }, belongsTo: string, target: string): void {
  expect(result.code, result.stderr).toBe(4);
  expect(result.stderr).toMatch(
    new RegExp(`^error: refused to send the token .* to ${target}: it belongs to ${belongsTo}$`, 'm'),
  );
  expect(result.stderr).toMatch(/^hint: add a profile for .*--token-file FILE.*--trust-origin /m);
  expect(other.connections).toBe(0);
}

describe("a profile's token belongs to the profile's base URL", () => {
  it('is not sent to --base-url of another origin: exit 4, both origins named, nothing reaches the other server', async () => {
    const result = await dpx(['--profile', 'eu', '--base-url', other.url, 'resources'], {
      env: { DPX_CONFIG: config },
    });
    expectRefused(result, demo.region.baseUrl, other.url);
  });

  it('is not sent to DPX_BASE_URL of another origin either', async () => {
    const result = await dpx(['resources'], { env: { DPX_CONFIG: config, DPX_BASE_URL: other.url } });
    expectRefused(result, demo.region.baseUrl, other.url);
  });

  it('goes to its own control plane as before, whatever path the base URL adds', async () => {
    const result = await dpx(['--base-url', `${demo.region.baseUrl}/`, 'resources', '-o', 'json'], {
      env: { DPX_CONFIG: config },
    });
    expect(result.code, result.stderr).toBe(0);
  });

  it('is sent to another origin with --trust-origin naming it, on purpose', async () => {
    const before = demo.otherRegion.requestCount();
    const result = await dpx(
      [
        '--profile',
        'eu',
        '--base-url',
        demo.otherRegion.baseUrl,
        '--trust-origin',
        demo.otherRegion.baseUrl,
        'resources',
      ],
      { env: { DPX_CONFIG: config } },
    );
    // The other region refuses a token it did not issue; what matters is that it was sent.
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/HTTP 401/);
    expect(demo.otherRegion.requestCount()).toBeGreaterThan(before);
  });

  it('refuses a --trust-origin that names no origin', async () => {
    const result = await dpx(['--trust-origin', 'not an origin', 'resources'], { env: { DPX_CONFIG: config } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--trust-origin takes an origin/);
  });
});

describe('DPX_TOKEN and --token-file', () => {
  it('belong to a known control plane that their iss names: refused elsewhere', async () => {
    // The demo's tokens name their region in iss; eu's base URL is a profile's, so dpx knows it.
    const result = await dpx(['resources'], {
      env: { DPX_CONFIG: config, DPX_PROFILE: 'eu', DPX_BASE_URL: other.url, DPX_TOKEN: demo.region.tokens.service },
    });
    expectRefused(result, demo.region.baseUrl, other.url);
  });

  it('belong to a known control plane that their aud names', async () => {
    const file = tokenFile(
      'aud.token',
      jwt({ iss: 'https://login.example.com', aud: ['account', demo.region.baseUrl] }),
    );
    const result = await dpx(['--token-file', file, '--base-url', other.url, 'resources'], {
      env: { DPX_CONFIG: config },
    });
    expectRefused(result, demo.region.baseUrl, other.url);
  });

  it('belong to the base URL they were given with when their claims name no control plane dpx knows', async () => {
    // An identity provider's own URL in iss says nothing about where the token may go.
    const token = jwt({ iss: 'https://login.example.com', aud: 'https://elsewhere.example.com' });
    const result = await dpx(['whoami', '-o', 'json'], {
      env: { DPX_CONFIG: config, DPX_BASE_URL: other.url, DPX_TOKEN: token },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      control_plane: other.url,
      token_origin: other.url,
      token_kind: 'variable',
    });
    expect(other.connections).toBe(0);
  });
});

describe('a token file with two lines', () => {
  it('exits 2 before anything is sent, saying one token was expected', async () => {
    const file = tokenFile('two.token', `${demo.region.tokens.personal}\n${demo.region.tokens.service}\n`);
    const before = demo.region.requestCount();
    const result = await dpx(['--token-file', file, 'resources'], {
      env: { DPX_CONFIG: config, DPX_BASE_URL: demo.region.baseUrl },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the token file .*two\.token: expected one token, found 2 lines$/m);
    expect(demo.region.requestCount()).toBe(before);
  });
});
