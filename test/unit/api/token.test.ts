import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { describeToken } from '../../../src/api/security/token.js';

const key = new TextEncoder().encode('a test key that is long enough for HS256');
const now = Date.UTC(2030, 0, 1, 12, 0, 0);
const seconds = (ms: number) => Math.floor(ms / 1000);

function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

describe('describeToken', () => {
  it('reads subject, type, issuer, issue and expiry times', async () => {
    const info = describeToken(
      await token({
        sub: 'alice',
        token_type: 'personal',
        iss: 'https://cp.example/',
        iat: seconds(now - 3600_000),
        exp: seconds(now + 3600_000),
      }),
      'https://cp.example',
      now,
    );
    expect(info).toEqual({
      subject: 'alice',
      type: 'personal',
      issuer: 'https://cp.example/',
      issuedAt: new Date(now - 3600_000),
      expiresAt: new Date(now + 3600_000),
      warnings: [],
    });
  });

  it('finds the type under other claim names', async () => {
    expect(describeToken(await token({ typ: 'service' }), 'https://cp', now).type).toBe('service');
    expect(describeToken(await token({ type: 'service' }), 'https://cp', now).type).toBe('service');
  });

  it('warns when expired and when expiring within ten minutes', async () => {
    const expired = describeToken(await token({ exp: seconds(now - 120_000) }), 'https://cp', now);
    expect(expired.warnings).toEqual([expect.stringMatching(/^the token expired 2 min ago/)]);
    const soon = describeToken(await token({ exp: seconds(now + 5 * 60_000) }), 'https://cp', now);
    expect(soon.warnings).toEqual([expect.stringMatching(/^the token expires in 5 min/)]);
    const later = describeToken(await token({ exp: seconds(now + 11 * 60_000) }), 'https://cp', now);
    expect(later.warnings).toEqual([]);
  });

  it('leaves out an iat or exp beyond what a date can hold, with a warning', async () => {
    const info = describeToken(await token({ sub: 'alice', iat: -1e20, exp: 1e20 }), 'https://cp', now);
    expect(info.issuedAt).toBeUndefined();
    expect(info.expiresAt).toBeUndefined();
    expect(info.subject).toBe('alice');
    expect(info.warnings).toEqual([
      "the token's iat claim (-100000000000000000000) is not a time a date can hold; ignored",
      "the token's exp claim (100000000000000000000) is not a time a date can hold; ignored",
    ]);
    expect(describeToken(await token({ exp: 8.64e12 }), 'https://cp', now).expiresAt?.toISOString()).toBe(
      '+275760-09-13T00:00:00.000Z',
    );
  });

  it('warns when the issuer origin is not the base URL origin', async () => {
    const info = describeToken(await token({ iss: 'http://127.0.0.1:4001' }), 'http://127.0.0.1:4002/api', now);
    expect(info.warnings).toEqual([
      expect.stringContaining('issued by http://127.0.0.1:4001, not by this control plane (http://127.0.0.1:4002)'),
    ]);
    expect(describeToken(await token({ iss: 'dpx-demo' }), 'http://127.0.0.1:4002', now).warnings).toEqual([]);
  });

  it('turns a malformed token into a warning that does not quote it', () => {
    // Not JSON, a JSON array, a payload with a character outside base64url, five parts (an encrypted JWT).
    for (const bad of [
      'not-a-token',
      'a.b.c',
      '',
      'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig',
      'eyJhbGciOiJIUzI1NiJ9.W10.sig',
      'eyJhbGciOiJIUzI1NiJ9.e30+.sig',
      'a.e30.b.c.d',
    ]) {
      const info = describeToken(bad, 'https://cp', now);
      expect(info.subject).toBeUndefined();
      expect(info.warnings).toHaveLength(1);
      if (bad) expect(info.warnings[0]).not.toContain(bad);
    }
  });
});
