// A session that keeps the discovery index in a store revalidates it with If-None-Match: the demo's 304
// is an answer, and the kept index is the catalog.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/api/exchange.js';
import type { IndexStore, StoredIndex } from '../../../src/api/hal/discovery.js';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';

const demo = useDemo({ scale: 1 });

function memoryStore(): IndexStore & { kept: Map<string, StoredIndex> } {
  const kept = new Map<string, StoredIndex>();
  return {
    kept,
    read: async (baseUrl) => kept.get(baseUrl),
    write: async (baseUrl, index) => {
      kept.set(baseUrl, index);
    },
  };
}

function session(indexStore: IndexStore, exchanges: Exchange[] = [], warnings: string[] = []): Session {
  return new Session({
    baseUrl: `${demo.region.baseUrl}/`,
    token: demo.region.tokens.personal,
    indexStore,
    onExchange: (exchange) => exchanges.push(exchange),
    onWarning: (warning) => warnings.push(warning),
  });
}

describe('a session with an index store', () => {
  it('keeps the index with its ETag, then asks with If-None-Match and uses the kept one on 304', async () => {
    const store = memoryStore();
    const first: Exchange[] = [];
    const fetched = await session(store, first).catalog();
    const kept = store.kept.get(demo.region.baseUrl)!;
    expect(kept.etag).toMatch(/^W\/"/);
    expect(kept.contentType).toBe('application/api.service.*=v1+json');
    expect(first[0]!.request.headers['if-none-match']).toBeUndefined();

    const second: Exchange[] = [];
    const keptAt = kept.checkedAt;
    const revalidated = await session(store, second).catalog();
    expect(second).toHaveLength(1);
    expect(second[0]!.request.headers['if-none-match']).toBe(kept.etag);
    expect(second[0]!.response!.status).toBe(304);
    expect(second[0]!.response!.body).toBe('');
    expect(revalidated.resources.map((resource) => resource.name)).toEqual(
      fetched.resources.map((resource) => resource.name),
    );
    expect(revalidated.vendor).toBe('service');
    expect(store.kept.get(demo.region.baseUrl)!.checkedAt).toBeGreaterThanOrEqual(keptAt);
  });

  it('fetches anew when the kept tag no longer matches, and keeps the new one', async () => {
    const store = memoryStore();
    await store.write(demo.region.baseUrl, {
      body: { stale: {} },
      contentType: 'application/json',
      etag: 'W/"old"',
      checkedAt: 0,
    });
    const catalog = await session(store).catalog();
    expect(catalog.resources.map((resource) => resource.name)).toContain('users');
    expect(store.kept.get(demo.region.baseUrl)!.etag).not.toBe('W/"old"');
  });

  it('a store that cannot be written costs a warning, not the catalog', async () => {
    const warnings: string[] = [];
    const broken: IndexStore = {
      read: async () => undefined,
      write: async () => Promise.reject(new Error('EACCES: read-only folder')),
    };
    const catalog = await session(broken, [], warnings).catalog();
    expect(catalog.resources.length).toBeGreaterThan(0);
    expect(warnings).toEqual(['the discovery index was not kept for next time: EACCES: read-only folder']);
  });
});
