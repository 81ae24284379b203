// What the x-ray keeps of a control plane's filter language: the forms to try on a list, the fields it
// refused (for a day) and accepted (for a month), and what goes to and comes back from the cache folder.
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import {
  FilterKnowledge,
  filterIn,
  KNOWLEDGE_KEPT_MS,
  REFUSAL_KEPT_MS,
  type FilterStore,
  type StoredFilterKnowledge,
} from '../../../src/api/xray/filters.js';
import { filterCache } from '../../../src/config/cache.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const session = () => new Session({ baseUrl: `${NOWHERE}/api` });

function memoryStore(initial?: StoredFilterKnowledge): FilterStore & { written: StoredFilterKnowledge[] } {
  const written: StoredFilterKnowledge[] = [];
  return {
    written,
    read: async () => initial,
    write: async (_baseUrl, value) => void written.push(structuredClone(value)),
  };
}

describe('filter knowledge', () => {
  it('writes conditions in the operator form or the bare one', () => {
    expect(filterIn('operator', { job_id: 'j-1', size: 3 })).toEqual({ job_id: { $eq: 'j-1' }, size: { $eq: 3 } });
    expect(filterIn('bare', { job_id: 'j-1' })).toEqual({ job_id: 'j-1' });
  });

  it("tries the operator form first, the list's own form alone once known, and the control plane's first on other lists", async () => {
    const knowledge = await FilterKnowledge.of(session(), undefined);
    expect(knowledge.formsFor('jobs v1')).toEqual(['operator', 'bare']);
    knowledge.accepted('jobs v1', 'bare', ['owner_id']);
    expect(knowledge.formsFor('jobs v1')).toEqual(['bare']);
    expect(knowledge.formsFor('notes v1')).toEqual(['bare', 'operator']);
    expect(knowledge.isAccepted('jobs v1', 'owner_id')).toBe(true);
  });

  it('forgets a refusal after a day and what a list accepted after a month', async () => {
    const now = 1_000_000_000_000;
    const store = memoryStore();
    const first = await FilterKnowledge.of(session(), store, () => now);
    first.refused('notes v1', 'job_id', '40013', 'not filterable');
    first.accepted('jobs v1', 'operator', ['status']);
    await first.save();
    const saved = store.written.at(-1)!;

    const later = async (ms: number) => FilterKnowledge.of(session(), memoryStore(saved), () => now + ms);
    expect((await later(REFUSAL_KEPT_MS - 1)).refusal('notes v1', ['job_id'])?.refusal.code).toBe('40013');
    expect((await later(REFUSAL_KEPT_MS + 1)).refusal('notes v1', ['job_id'])).toBeUndefined();
    expect((await later(REFUSAL_KEPT_MS + 1)).formsFor('jobs v1')).toEqual(['operator']);
    expect((await later(31 * 24 * 60 * 60 * 1000)).formsFor('jobs v1')).toEqual(['operator', 'bare']);
  });

  it('is kept in the cache folder per base URL; a file for another base URL, or a broken one, reads as nothing', async () => {
    const dir = temporaryFolder('dpx-filters-');
    const cache = filterCache(dir);
    const value: StoredFilterKnowledge = {
      form: 'operator',
      lists: {
        'jobs v1': { form: 'operator', accepted: ['status'], refused: {}, typeFields: { target_type: true }, at: 1 },
        'tasks v1': {
          accepted: [],
          refused: {},
          typeFields: {},
          seen: { fields: ['primary_entity.id'], at: 1 },
          at: 1,
        },
      },
    };
    await cache.write('http://a.example', value);
    expect(await cache.read('http://a.example')).toEqual(value);
    expect(await cache.read('http://b.example')).toBeUndefined();
    await cache.write('http://c.example', {
      lists: { 'jobs v1': { accepted: 'status' } },
    } as unknown as StoredFilterKnowledge);
    expect(await cache.read('http://c.example')).toBeUndefined();
    await cache.write('http://d.example', {
      lists: { 'tasks v1': { accepted: [], refused: {}, typeFields: {}, seen: { fields: [7], at: 1 }, at: 1 } },
    } as unknown as StoredFilterKnowledge);
    expect(await cache.read('http://d.example')).toBeUndefined();
  });

  it("keeps the fields seen on a list's records for a month", async () => {
    const now = Date.UTC(2026, 0, 1);
    const store = memoryStore();
    const knowledge = await FilterKnowledge.of(session(), store, () => now);
    expect(knowledge.fieldsSeen('tasks v1')).toBeUndefined();
    knowledge.sawFields('tasks v1', ['id', 'primary_entity.id']);
    await knowledge.save();
    const later = async (ms: number) =>
      FilterKnowledge.of(session(), memoryStore(store.written.at(-1)), () => now + ms);
    expect((await later(KNOWLEDGE_KEPT_MS)).fieldsSeen('tasks v1')).toEqual(['id', 'primary_entity.id']);
    expect((await later(KNOWLEDGE_KEPT_MS + 1)).fieldsSeen('tasks v1')).toBeUndefined();
  });
});
