import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { demoRequest, expectError, expectSchema, useDemo } from '../../helpers/demo.js';

const demo = useDemo();

describe('demo control plane: authentication and regions', () => {
  it('serves the index to personal and service tokens of its own region', async () => {
    for (const token of [demo.region.tokens.personal, demo.region.tokens.service]) {
      const response = await demoRequest(demo.region, '/', { token });
      expect(response.status).toBe(200);
      expectSchema('index', response.body);
      expect(Object.keys(response.body).length).toBeGreaterThanOrEqual(10);
    }
  });

  it('runs two regions on two listeners with different base URLs', () => {
    expect(demo.handle.regions.map((r) => r.name)).toEqual(['eu-west', 'us-east']);
    expect(new URL(demo.region.baseUrl).port).not.toBe(new URL(demo.otherRegion.baseUrl).port);
  });

  it('puts subject, token type, issuer, issued-at and expiry in the tokens', async () => {
    const personal = decodeJwt(demo.region.tokens.personal);
    const service = decodeJwt(demo.otherRegion.tokens.service);
    expect(personal).toMatchObject({
      sub: 'ada.lovelace@demo.example',
      token_type: 'personal',
      iss: demo.region.baseUrl,
    });
    expect(service).toMatchObject({ token_type: 'service', iss: demo.otherRegion.baseUrl });
    expect(service.sub).toMatch(/@/);
    for (const claims of [personal, service]) expect(claims.exp! - claims.iat!).toBeGreaterThan(0);
    const minted = decodeJwt(
      await demo.region.mintToken({ subject: 'grace@demo.example', type: 'service', expiresInSeconds: 60 }),
    );
    expect(minted).toMatchObject({ sub: 'grace@demo.example', token_type: 'service' });
    expect(minted.exp! - minted.iat!).toBe(60);
  });

  it("answers 401 token_region_mismatch to the other region's token", async () => {
    expectError(
      await demoRequest(demo.otherRegion, '/', { token: demo.region.tokens.personal }),
      401,
      'token_region_mismatch',
    );
    expectError(
      await demoRequest(demo.region, '/tasks', { token: demo.otherRegion.tokens.service }),
      401,
      'token_region_mismatch',
    );
  });

  it('answers 401 to expired, malformed, forged and missing tokens', async () => {
    expectError(await demoRequest(demo.region, '/', { token: demo.region.tokens.expired }), 401, 'token_expired');
    expectError(
      await demoRequest(demo.region, '/', { token: await demo.region.mintToken({ expiresInSeconds: -5 }) }),
      401,
      'token_expired',
    );
    expectError(await demoRequest(demo.region, '/', { token: 'not-a-jwt' }), 401, 'malformed_token');
    const [header, payload] = demo.region.tokens.personal.split('.');
    expectError(
      await demoRequest(demo.region, '/', { token: `${header}.${payload}.${'A'.repeat(43)}` }),
      401,
      'invalid_token',
    );
    expectError(await demoRequest(demo.region, '/', { token: null }), 401, 'missing_token');
    expectError(
      await demoRequest(demo.region, '/', { token: null, headers: { Authorization: 'Basic dXNlcjpwYXNz' } }),
      401,
      'malformed_token',
    );
  });

  it('authenticates before anything else, even on unknown paths', async () => {
    expectError(await demoRequest(demo.region, '/no-such-thing', { token: null }), 401, 'missing_token');
    expectError(await demoRequest(demo.region, '/no-such-thing'), 404, 'not_found');
    expectError(await demoRequest(demo.region, '/tasks', { method: 'PUT', body: {} }), 405, 'method_not_allowed');
  });

  it('counts the requests each region receives', async () => {
    const before = [demo.region.requestCount(), demo.otherRegion.requestCount()];
    await demoRequest(demo.region, '/');
    await demoRequest(demo.region, '/', { token: null });
    expect(demo.region.requestCount()).toBe((before[0] ?? 0) + 2);
    expect(demo.otherRegion.requestCount()).toBe(before[1]);
  });
});
