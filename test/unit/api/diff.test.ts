import { describe, expect, it } from 'vitest';
import {
  alignDocuments,
  bodyKind,
  changedFields,
  diffRecords,
  diffResponses,
  flattenDocument,
  hasDifferences,
  topLevelField,
} from '../../../src/api/case/diff.js';

const v1User = {
  id: 'u-1',
  username: 'aiko.perlman@demo.example',
  first_name: 'Aiko',
  last_name: 'Perlman',
  enabled: true,
  confirmed: true,
  role: { id: 'r-7' },
  organizational_unit: { id: 'ou-3' },
  created: '2026-11-21T09:34:23.843Z',
  _links: { self: { href: '/users/u-1' } },
};
const v2User = {
  id: 'u-1',
  email: 'aiko.perlman@demo.example',
  name: 'aiko.perlman',
  full_name: 'Aiko Perlman',
  is_confirmed: true,
  is_enabled: true,
  role_id: 'r-7',
  organizational_unit_id: 'ou-3',
  created_timestamp: '2026-11-21T09:34:23.843Z',
  last_login_timestamp: null,
  _links: { self: { href: '/users/u-1' }, disable: { href: '/users/u-1/disable', type: 'post' } },
};

describe('flattening a document', () => {
  it('gives every leaf by path in document order, without _links and _etag at any depth', () => {
    const leaves = flattenDocument({
      a: 1,
      b: { c: [true, { d: null }], _etag: 'x' },
      'odd.key': 'v',
      e: {},
      f: [],
      _links: { self: { href: '/' } },
    });
    expect([...leaves]).toEqual([
      ['a', 1],
      ['b.c[0]', true],
      ['b.c[1].d', null],
      ['["odd.key"]', 'v'],
      ['e', {}],
      ['f', []],
    ]);
    expect(topLevelField('b.c[1].d')).toBe('b');
    expect(topLevelField('["odd.key"]')).toBe('odd.key');
    expect(topLevelField('f[0]')).toBe('f');
  });
});

describe('changed fields', () => {
  it('lists values that differ, fields gone (no now) and fields new (no then)', () => {
    expect(
      changedFields({ a: 1, b: { c: 'x' }, gone: 1, _etag: '1' }, { a: 2, b: { c: 'x' }, added: 'y', _etag: '2' }),
    ).toEqual([
      { path: 'a', then: 1, now: 2 },
      { path: 'gone', then: 1 },
      { path: 'added', now: 'y' },
    ]);
  });

  it('tells an empty object from an empty array and from null', () => {
    expect(changedFields({ a: {}, b: [], c: {} }, { a: [], b: [], c: null }).map((change) => change.path)).toEqual([
      'a',
      'c',
    ]);
  });
});

describe('two documents side by side', () => {
  it('pairs users v1 and v2: same fields aligned, renamed fields holding the same value paired, the rest marked one-sided', () => {
    const rows = alignDocuments(v1User, v2User);
    const by = (state: string) =>
      rows.filter((row) => row.state === state).map((row) => (row.nowPath ? `${row.path} = ${row.nowPath}` : row.path));
    expect(by('equal')).toEqual(['id']);
    expect(by('same-value')).toEqual([
      'username = email',
      'enabled = is_enabled',
      'confirmed = is_confirmed',
      'role.id = role_id',
      'organizational_unit.id = organizational_unit_id',
      'created = created_timestamp',
    ]);
    expect(by('only-then')).toEqual(['first_name', 'last_name']);
    expect(by('only-now')).toEqual(['name', 'full_name', 'last_login_timestamp']);
    expect(rows.find((row) => row.path === 'username')).toMatchObject({
      then: 'aiko.perlman@demo.example',
      now: 'aiko.perlman@demo.example',
    });
  });

  it('does not pair on a value that proves nothing, or when the pairing is ambiguous', () => {
    // true is everywhere; the names share no word.
    expect(alignDocuments({ active: true }, { visible: true }).map((row) => row.state)).toEqual([
      'only-then',
      'only-now',
    ]);
    // Two fields could claim the same text: neither is chosen.
    expect(alignDocuments({ owner: 'ada@x' }, { email: 'ada@x', contact: 'ada@x' }).map((row) => row.state)).toEqual([
      'only-then',
      'only-now',
      'only-now',
    ]);
    // Among several, the one whose name shares a word wins.
    expect(
      alignDocuments({ is_enabled: true }, { enabled: true, confirmed: true })
        .filter((row) => row.state === 'same-value')
        .map((row) => row.nowPath),
    ).toEqual(['enabled']);
  });

  it('marks a changed value', () => {
    expect(alignDocuments({ status: 'queued', n: 1 }, { status: 'running', n: 1 })).toEqual([
      { path: 'status', state: 'changed', then: 'queued', now: 'running' },
      { path: 'n', state: 'equal', then: 1, now: 1 },
    ]);
  });
});

describe('two lists record by record', () => {
  it('matches records by id and lists added, removed and changed with their fields', () => {
    const then = [
      { id: 'a', p: 10 },
      { id: 'b', p: 20 },
      { id: 'c', p: 30 },
    ];
    const now = [
      { id: 'd', p: 0 },
      { id: 'a', p: 15 },
      { id: 'b', p: 20 },
    ];
    expect(diffRecords(then, now)).toEqual({
      added: [{ id: 'd', record: { id: 'd', p: 0 } }],
      removed: [{ id: 'c', record: { id: 'c', p: 30 } }],
      changed: [{ id: 'a', fields: [{ path: 'p', then: 10, now: 15 }] }],
    });
  });

  it("matches records without an id by their self link, relative to each side's base URL, else by position", () => {
    const then = [{ n: 1, _links: { self: { href: 'http://eu.example/api/x/1' } } }, { n: 2 }];
    const now = [{ n: 9, _links: { self: { href: 'http://us.example/api/x/1' } } }, { n: 2 }];
    expect(diffRecords(then, now, { then: 'http://eu.example/api', now: 'http://us.example/api' })).toEqual({
      added: [],
      removed: [],
      changed: [{ id: '/x/1', fields: [{ path: 'n', then: 1, now: 9 }] }],
    });
  });
});

describe('two answers to one request', () => {
  const page = (items: object[], extra: object = {}) => ({
    _embedded: { items },
    _links: { self: { href: '/x' } },
    ...extra,
  });

  it('ignores the envelope around the records: counts, page and the time the answer was made', () => {
    const diff = diffResponses(
      { status: 200, body: page([{ id: 'a', v: 1 }], { total_count: 5, generated_at: '2025-01-01T00:00:00Z' }) },
      { status: 200, body: page([{ id: 'a', v: 1 }], { total_count: 6, generated_at: '2025-01-02T00:00:00Z' }) },
    );
    expect(diff.kind).toBe('list');
    expect(hasDifferences(diff)).toBe(false);
  });

  it('compares two records field by field, but a record and an error only by status', () => {
    const changed = diffResponses(
      { status: 200, body: { id: 't', progress: 10, _etag: '1' } },
      { status: 200, body: { id: 't', progress: 40, _etag: '2' } },
    );
    expect(changed).toMatchObject({
      kind: 'record',
      changed: [{ id: 't', fields: [{ path: 'progress', then: 10, now: 40 }] }],
    });
    const gone = diffResponses({ status: 200, body: { id: 't' } }, { status: 404, body: { errors: [] } });
    expect(gone).toMatchObject({ kind: 'other', thenStatus: 200, nowStatus: 404, added: [], removed: [], changed: [] });
    expect(hasDifferences(gone)).toBe(true);
    expect(bodyKind({ users: { supported_versions: ['v1'] } })).toBe('other');
  });
});
