// A session that answers from a trail recorded against the demo over HTTP: the same paging, errors and
// origin guard as online, nothing sent, and "not in this case" for anything not recorded.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, SafetyError } from '../../../src/api/errors.js';
import type { Exchange } from '../../../src/api/exchange.js';
import { readTrail, type RecordedTrail } from '../../../src/api/case/har.js';
import { NotInTrailError, trailTransport } from '../../../src/api/case/offline.js';
import { listRequest, walkPages } from '../../../src/api/session/pages.js';
import { Session } from '../../../src/api/session/session.js';
import { HarTrail } from '../../../src/api/case/trail.js';
import { useDemo } from '../../helpers/demo.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
let dir: string;
let trail: RecordedTrail;
let recordedIds: string[];
let missingTaskUrl: string;

beforeAll(async () => {
  dir = temporaryFolder('dpx-offline-');
  const path = join(dir, 'case.har');
  const writer = await HarTrail.open(path, () => [demo.region.tokens.personal]);
  const online = new Session({
    baseUrl: demo.region.baseUrl,
    token: demo.region.tokens.personal,
    onExchange: writer.record,
  });
  const first = await listRequest(online, { resource: 'users', pageSize: 4 });
  recordedIds = [];
  for await (const page of walkPages(online, first, { maxPages: 2 }))
    recordedIds.push(...page.items.map((item) => String(item['id'])));
  const missing = await online.prepare({
    resource: 'tasks',
    operationId: 'get_task',
    variables: { task_id: 'no-such-task' },
  });
  missingTaskUrl = missing.url;
  await expect(online.send(missing)).rejects.toBeInstanceOf(ApiError);
  await writer.close();
  trail = await readTrail(path);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function offlineSession(onExchange?: (exchange: Exchange) => void): Session {
  return new Session({
    baseUrl: trail.baseUrl,
    transport: trailTransport(trail),
    ...(onExchange ? { onExchange } : {}),
  });
}

describe('an offline session', () => {
  it('is not paced by the limiter: nothing it answers goes to a control plane', async () => {
    const session = new Session({
      baseUrl: trail.baseUrl,
      transport: trailTransport(trail),
      concurrency: 1,
      ratePerSecond: 1,
    });
    await session.catalog();
    const first = await listRequest(session, { resource: 'users', pageSize: 4 });
    const sends = [1, 2, 3].map(() => session.send(first, { reload: true }));
    // Online, one at a time at one a second, two of these would be waiting for a slot; offline none is.
    expect(session.traffic.waiting).toBe(0);
    await Promise.all(sends);
  });

  it('answers the catalog and the recorded pages without a token and without a single request to the server', async () => {
    const before = demo.region.requestCount();
    const session = offlineSession();
    const catalog = await session.catalog();
    expect(catalog.resources.map((resource) => resource.name)).toContain('users');
    const first = await listRequest(session, { resource: 'users', pageSize: 4 });
    const ids: string[] = [];
    const walk = walkPages(session, first);
    await expect(
      (async () => {
        for await (const page of walk) ids.push(...page.items.map((item) => String(item['id'])));
      })(),
    ).rejects.toThrow(/not in this case/);
    // Paging follows the recorded next links as far as the recording went.
    expect(ids).toEqual(recordedIds);
    expect(demo.region.requestCount()).toBe(before);
  });

  it('answers a request whose query parameters come in another order', async () => {
    const session = offlineSession();
    const first = await listRequest(session, { resource: 'users', pageSize: 4 });
    const asRecorded = (await session.send(first)).body as { _links: { next: { href: string } } };
    const next = new URL(asRecorded._links.next.href, trail.baseUrl);
    const params = [...next.searchParams];
    expect(params.length).toBeGreaterThan(1);
    const reversed = new URL(next);
    reversed.search = new URLSearchParams(params.reverse()).toString();
    expect(reversed.toString()).not.toBe(next.toString());
    const inOrder = await session.send({ ...first, url: next.toString() });
    expect((await session.send({ ...first, url: reversed.toString() })).body).toEqual(inOrder.body);
  });

  it('gives back a recorded error as the same API error', async () => {
    const session = offlineSession();
    const failure = await session
      .send({
        method: 'GET',
        url: missingTaskUrl,
        headers: { accept: 'application/api.service.tasks=v1+json' },
        resource: 'tasks',
        version: 'v1',
        operationId: '',
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(404);
  });

  it(
    'fails a request the trail does not hold — another version, another unit, another record — ' +
      'with "not in this case", and records it as not sent',
    async () => {
      const asked: Exchange[] = [];
      const session = offlineSession((exchange) => asked.push(exchange));
      const v2 = await listRequest(session, { resource: 'users', pageSize: 4 });
      const v1 = await listRequest(session, { resource: 'users', pageSize: 4, version: 'v1' });
      const otherUnit = await listRequest(session, {
        resource: 'users',
        pageSize: 4,
        ou: '12ea2b10-e6d9-4c3f-90f8-0199acb1b1d2',
      });
      const record = await session.prepare({
        resource: 'users',
        operationId: 'get_user',
        variables: { user_id: recordedIds[0]! },
      });
      expect((await session.send(v2)).status).toBe(200);
      for (const request of [v1, otherUnit, record]) {
        const failure = await session.send(request).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(NotInTrailError);
        expect((failure as NotInTrailError).message).toMatch(/ is not in this case$/);
        expect((failure as NotInTrailError).exitCode).toBe(3);
      }
      expect(asked.filter((exchange) => exchange.error !== undefined).map((exchange) => exchange.error)).toEqual([
        expect.stringMatching(/not in this case/),
        expect.stringMatching(/not in this case/),
        expect.stringMatching(/not in this case/),
      ]);
    },
  );

  it('keeps the origin guard: a link to another host is refused before the trail is asked', async () => {
    const session = offlineSession();
    await expect(
      session.send({
        method: 'GET',
        url: 'http://elsewhere.example/users',
        headers: {},
        resource: '',
        version: '',
        operationId: '',
      }),
    ).rejects.toBeInstanceOf(SafetyError);
  });
});
