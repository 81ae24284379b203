import { describe, expect, it } from 'vitest';
import { type DemoResponse, demoRequest, expectError, useDemo } from '../../helpers/demo.js';

const demo = useDemo({ rateLimit: 3 });

describe('demo control plane: rate limit per token', () => {
  it('answers 429 with Retry-After once a token exceeds its requests per second', async () => {
    const token = await demo.region.mintToken({ type: 'service' });
    const statuses: number[] = [];
    let limited: DemoResponse | undefined;
    for (let i = 0; i < 20; i++) {
      const response = await demoRequest(demo.region, '/', { token });
      statuses.push(response.status);
      if (response.status === 429) limited ??= response;
    }
    // The window is one second: twenty quick requests cannot all fit, whatever the machine's speed.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expectError(limited!, 429, 'rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('counts each token on its own, and admits it again after Retry-After', async () => {
    const busy = await demo.region.mintToken({});
    const other = await demo.region.mintToken({});
    let retryAfter = 0;
    for (let i = 0; i < 20; i++) {
      const response = await demoRequest(demo.region, '/', { token: busy });
      if (response.status === 429) retryAfter = Number(response.headers.get('retry-after'));
    }
    expect(retryAfter).toBeGreaterThan(0);
    expect((await demoRequest(demo.region, '/', { token: other })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await demoRequest(demo.region, '/', { token: busy })).status).toBe(200);
  });

  it('is off by default', async () => {
    const { startDemo } = await import('../../../src/demo/server.js');
    const open = await startDemo();
    try {
      const region = open.regions[0]!;
      const responses = await Promise.all(Array.from({ length: 30 }, () => demoRequest(region, '/tasks?limit=1')));
      expect(responses.every((r) => r.status === 200)).toBe(true);
    } finally {
      await open.close();
    }
  });
});
