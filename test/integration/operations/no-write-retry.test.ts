// A write is sent once, whatever comes back; a read in the same situation is retried.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';

// A server that says nothing of its limit until it answers 429: one that announced it would be followed.
const demo = useDemo({ rateLimit: 1, rateLimitHeaders: false });

describe('retries', () => {
  it('sends a rate-limited POST exactly once, and retries a rate-limited GET', async () => {
    const s = new Session({
      baseUrl: demo.region.baseUrl,
      token: demo.region.tokens.service,
      maxRetries: 1,
      retryBaseDelayMs: 10,
      maxRetryDelayMs: 5000,
    });
    const catalog = await s.catalog();
    const restores = catalog.resources.find((r) => r.name === 'restores')!;
    const create = restores.versions[0]!.operations.find((op) => op.method === 'POST')!;
    // The index request used this second's only slot: the POST meets a 429.
    const before = demo.region.requestCount();
    const error = await s
      .send(
        await s.prepare({
          resource: restores.name,
          operationId: create.id,
          body: '{"backup_id":"00000000-0000-4000-8000-000000000000"}',
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(demo.region.requestCount() - before).toBe(1);

    // The 429's Retry-After now holds every request of `s` until this second is over, so a read of its
    // own would not meet a 429 at all; a second session with the same token still finds the second full.
    expect(s.traffic.pausedMs).toBeGreaterThan(0);
    const reader = new Session({
      baseUrl: demo.region.baseUrl,
      token: demo.region.tokens.service,
      maxRetries: 1,
      retryBaseDelayMs: 10,
      maxRetryDelayMs: 5000,
    });
    await reader.catalog().catch(() => undefined);
    const list = restores.versions[0]!.operations.find((op) => op.method === 'GET' && op.pathVariables.length === 0)!;
    const beforeRead = demo.region.requestCount();
    const read = await reader
      .send(await reader.prepare({ resource: restores.name, operationId: list.id }), { reload: true })
      .catch(() => undefined);
    expect(reader.traffic.rateLimited).toBeGreaterThanOrEqual(1);
    expect(demo.region.requestCount() - beforeRead).toBeGreaterThanOrEqual(2);
    expect(read?.status).toBe(200);
  });
});
