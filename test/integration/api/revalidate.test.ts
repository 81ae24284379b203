// Conditional requests for watch polling, against the demo, which tags every read and answers 304.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/api/exchange.js';
import { listRequest } from '../../../src/api/session/pages.js';
import { Session, VALIDATOR_CAPACITY } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';

const demo = useDemo({ taskSpeed: 50 });

function watchedSession(): { session: Session; sent: Exchange[] } {
  const sent: Exchange[] = [];
  const session = new Session({
    baseUrl: demo.region.baseUrl,
    token: demo.region.tokens.personal,
    onExchange: (exchange) => sent.push(exchange),
  });
  return { session, sent };
}

const ifNoneMatch = (exchange: Exchange | undefined): string | undefined => exchange?.request.headers['if-none-match'];

describe('revalidating a GET', () => {
  it('sends If-None-Match with the last ETag; a 304 gives the last answer back, marked not modified', async () => {
    const { session, sent } = watchedSession();
    const request = await listRequest(session, { resource: 'users', pageSize: 3 });
    const first = await session.send(request);
    expect(ifNoneMatch(sent.at(-1))).toBeUndefined();
    const etag = first.headers['etag'];
    expect(etag).toBeDefined();

    const again = await session.send(request, { revalidate: true });
    expect(ifNoneMatch(sent.at(-1))).toBe(etag);
    expect(sent.at(-1)?.response?.status).toBe(304);
    expect(again.notModified).toBe(true);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.notModified).toBeUndefined();
  });

  it('gets the new answer, not marked, when the data moved', async () => {
    const { session, sent } = watchedSession();
    const running = await listRequest(session, {
      resource: 'tasks',
      pageSize: 1,
      filter: '{"status":{"$eq":"in_progress"}}',
    });
    const page = (await session.send(running)).body as {
      _embedded: { items: { _links: { self: { href: string } } }[] };
    };
    const task = session.prepareLink(page._embedded.items[0]!._links.self.href, { resource: 'tasks', version: 'v1' });
    const before = await session.send(task);
    let after = await session.send(task, { revalidate: true });
    // The demo's live tasks advance with time; poll until this one has moved.
    while (after.notModified) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await session.send(task, { revalidate: true });
    }
    expect(ifNoneMatch(sent.at(-1))).toBe(before.headers['etag']);
    expect(after.notModified).toBeUndefined();
    expect(after.body).not.toEqual(before.body);
    // The next poll asks with the new tag.
    await session.send(task, { revalidate: true });
    expect(ifNoneMatch(sent.at(-1))).toBe(after.headers['etag']);
  });

  it('sends no condition when not asked to revalidate, and remembers a bounded number of answers', async () => {
    const { session, sent } = watchedSession();
    const pages = await Promise.all(
      Array.from({ length: VALIDATOR_CAPACITY + 1 }, (_, index) =>
        listRequest(session, { resource: 'audit-trails', pageSize: 1, page: String(index + 1) }),
      ),
    );
    for (const page of pages) await session.send(page);
    expect(sent.every((exchange) => ifNoneMatch(exchange) === undefined)).toBe(true);
    // The oldest answer was let go: asking for it again is a plain GET; the newest is still conditional.
    await session.send(pages[0]!, { revalidate: true });
    expect(ifNoneMatch(sent.at(-1))).toBeUndefined();
    await session.send(pages.at(-1)!, { revalidate: true });
    expect(ifNoneMatch(sent.at(-1))).toBeDefined();
  });
});
