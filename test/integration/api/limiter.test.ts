// The session's limiter, seen from the server's side: when requests arrive, how many are open at once,
// and what a 429 with Retry-After does to every other request of the same control plane.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { SessionOptions } from '../../../src/api/session/session-options.js';
import { Session } from '../../../src/api/session/session.js';
import { sendJson, startServer, type Handler, type TestServer } from '../../helpers/servers.js';

const TOKEN = 'header.payload.signature-for-limiter-tests';
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function session(server: TestServer, options: Partial<SessionOptions> = {}): Session {
  return new Session({ baseUrl: server.baseUrl, token: TOKEN, retryBaseDelayMs: 1, ...options });
}

/** A GET of its own URL each time, so that no answer comes from the freshness window. */
function get(server: TestServer, n: number) {
  return {
    method: 'GET',
    url: `${server.baseUrl}/things?n=${n}`,
    headers: { accept: 'application/json' },
    resource: '',
    version: '',
    operationId: '',
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The most arrivals that fall within any one second. */
function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    let j = i;
    while (j < sorted.length && sorted[j]! < sorted[i]! + 1000) j += 1;
    most = Math.max(most, j - i);
  }
  return most;
}

describe('the rate ceiling', () => {
  it('holds at the server: no second receives more than the rate (plus one that left on time and arrived late)', async () => {
    const arrivals: number[] = [];
    const server = await serve((_request, response) => {
      arrivals.push(performance.now());
      sendJson(response, 200, { ok: true });
    });
    const rate = 5;
    // One at a time, so that each request reaches the server before the next leaves: what the server
    // counts is then what the limiter let through, give or take the one request a window edge can shift.
    const client = session(server, { ratePerSecond: rate, concurrency: 1 });
    const count = 16;
    await Promise.all(Array.from({ length: count }, (_, n) => client.send(get(server, n))));
    expect(arrivals).toHaveLength(count);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(rate + 1);
    // Sixteen at five a second need three full windows after the first; two seconds is a safe floor.
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(2000);
    expect(client.traffic.requests).toBe(count);
  });

  it('lets requests asked together leave together while the second has room, and holds the rest', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, { ok: true }));
    const client = session(server, { ratePerSecond: 5, concurrency: 8 });
    const sending = Array.from({ length: 8 }, (_, n) => client.send(get(server, n)));
    // Taken at once, before any answer or timer: five starts fill this second, three wait for the next.
    expect(client.traffic).toMatchObject({ inFlight: 5, waiting: 3 });
    await Promise.all(sending);
  });
});

describe('the concurrency bound', () => {
  it('never has more requests open at the server than the bound, and does reach it', async () => {
    let open = 0;
    let mostOpen = 0;
    const server = await serve((_request, response) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => {
        open -= 1;
        sendJson(response, 200, { ok: true });
      }, 100);
    });
    const client = session(server, { concurrency: 3, ratePerSecond: 1000 });
    const sending = Promise.all(Array.from({ length: 12 }, (_, n) => client.send(get(server, n))));
    await until(() => client.traffic.inFlight === 3);
    expect(client.traffic.waiting).toBeGreaterThan(0);
    await sending;
    expect(server.requests).toHaveLength(12);
    expect(mostOpen).toBe(3);
    expect(client.traffic).toMatchObject({ requests: 12, inFlight: 0, waiting: 0 });
  });
});

describe('429 with Retry-After', () => {
  /** The first request gets 429 with `retryAfter`; every other one 200. Arrival times by request number. */
  async function limitedOnce(retryAfter: string) {
    const arrivals: number[] = [];
    const server = await serve((_request, response) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1)
        sendJson(
          response,
          429,
          { errors: [{ error_code: 'rate_limited', error_message: 'slow down' }] },
          { 'retry-after': retryAfter },
        );
      else sendJson(response, 200, { ok: true });
    });
    return { server, arrivals };
  }

  it('pauses every request of the plane until it has passed; the limited request is retried after it', async () => {
    const { server, arrivals } = await limitedOnce('1');
    const client = session(server, { ratePerSecond: 1000 });
    const first = client.send(get(server, 0));
    await until(() => client.traffic.rateLimited === 1);
    const others = await Promise.all([1, 2, 3].map((n) => client.send(get(server, n))));
    expect((await first).status).toBe(200);
    expect(others.map((response) => response.status)).toEqual([200, 200, 200]);
    const limitedAt = arrivals[0]!;
    expect(arrivals).toHaveLength(5);
    for (const arrival of arrivals.slice(1)) expect(arrival - limitedAt).toBeGreaterThanOrEqual(1000);
    expect(client.traffic.rateLimited).toBe(1);
    expect(client.traffic.pausedMs).toBeGreaterThanOrEqual(1000);
    expect(client.traffic.pausedMs).toBeLessThan(2000);
  });

  it('still pauses the others when the retry policy gives up on the limited request', async () => {
    const { server, arrivals } = await limitedOnce('1');
    const client = session(server, { ratePerSecond: 1000, maxRetries: 0 });
    const first = client.send(get(server, 0)).catch((error: unknown) => error);
    await until(() => client.traffic.rateLimited === 1);
    await client.send(get(server, 1));
    const failure = await first;
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1000);
  });

  it('does not hold the plane for a Retry-After longer than any retry would wait: that request fails at once', async () => {
    const { server, arrivals } = await limitedOnce('3600');
    const client = session(server, { ratePerSecond: 1000, maxRetryDelayMs: 500 });
    const failure = await client.send(get(server, 0)).catch((error: unknown) => error);
    expect((failure as ApiError).retryAfterSeconds).toBe(3600);
    await client.send(get(server, 1));
    expect(arrivals).toHaveLength(2);
    expect(client.traffic).toMatchObject({ rateLimited: 1, pausedMs: 0 });
  });
});

describe('cancelling', () => {
  it('a request cancelled while it waits for a slot is never sent', async () => {
    const server = await serve((_request, response) => {
      setTimeout(() => sendJson(response, 200, { ok: true }), 50);
    });
    const client = session(server, { concurrency: 1, ratePerSecond: 1000 });
    const first = client.send(get(server, 0));
    const stop = new AbortController();
    const second = client.send(get(server, 1), { signal: stop.signal }).catch((error: unknown) => error);
    stop.abort();
    expect(String(await second)).toMatch(/cancelled/);
    await first;
    expect(server.requests.map((request) => request.url)).toEqual(['/things?n=0']);
    expect(client.traffic.waiting).toBe(0);
  });
});

describe('priority', () => {
  it('sends a request of a higher priority before those queued earlier at a lower one', async () => {
    const order: string[] = [];
    const server = await serve((request, response) => {
      order.push(new URL(request.url ?? '/', 'http://x').searchParams.get('n') ?? '');
      sendJson(response, 200, { ok: true });
    });
    const client = session(server, { concurrency: 1, ratePerSecond: 1000 });
    const background = Array.from({ length: 6 }, (_, n) => client.send(get(server, n)));
    const front = client.send(get(server, 99), { priority: 1 });
    await Promise.all([...background, front]);
    // The first background request already had the one slot; the front one goes next.
    expect(order.slice(0, 2)).toEqual(['0', '99']);
    expect(order.slice(2)).toEqual(['1', '2', '3', '4', '5']);
  });
});
