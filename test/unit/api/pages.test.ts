import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/api/errors.js';
import { recordLinks } from '../../../src/api/hal/links.js';
import { readPage } from '../../../src/api/session/pages.js';

const url = 'https://cp.example/api/things?limit=2&start=2';

describe('readPage', () => {
  it('reads items, counts and every link role, with or without a leading underscore', () => {
    const page = readPage({
      _embedded: { items: [{ id: 'a' }, { id: 'b' }] },
      _links: {
        _self: { href: url },
        first: [{ href: 'things?limit=2&start=1' }],
        _last: { href: '/api/things?limit=2&start=9' },
        _next: { href: 'https://cp.example/api/things?limit=2&start=3' },
        previous: { href: 'things?limit=2&start=1' },
      },
      current_count: 2, total_count: 17, total_pages_count: 9, start: '2',
    }, url);
    expect(page.items).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(Object.fromEntries(Object.entries(page.links).map(([role, link]) => [role, link!.href]))).toEqual({
      self: url,
      first: 'https://cp.example/api/things?limit=2&start=1',
      last: 'https://cp.example/api/things?limit=2&start=9',
      next: 'https://cp.example/api/things?limit=2&start=3',
      prev: 'https://cp.example/api/things?limit=2&start=1',
    });
    expect([page.currentCount, page.totalCount, page.totalPages, page.start]).toEqual([2, 17, 9, '2']);
  });

  it('leaves counts out when absent and keeps items without a self link', () => {
    const page = readPage({ _embedded: { items: [{ no: 'links' }] }, _links: { prev: { href: '?p=opaque%3D%3D' } } }, url);
    expect(page.items).toEqual([{ no: 'links' }]);
    expect(page.totalCount).toBeUndefined();
    expect(page.links.prev!.href).toBe('https://cp.example/api/things?p=opaque%3D%3D');
  });

  it('reads an empty page without _embedded, and warns about non-object items', () => {
    expect(readPage({ _links: {}, current_count: 0 }, url).items).toEqual([]);
    const page = readPage({ _embedded: { items: [1, { id: 'x' }] }, _links: {} }, url);
    expect(page.items).toEqual([{ id: 'x' }]);
    expect(page.warnings).toContain('list /_embedded/items/0: not an object; left out');
  });

  it('refuses what is not a list envelope', () => {
    expect(() => readPage([], url)).toThrow(ProtocolError);
    expect(() => readPage({ id: 'a record' }, url)).toThrow(ProtocolError);
    expect(() => readPage({ _embedded: { a: [], b: [] } }, url)).toThrow(ProtocolError);
  });

  it('warns, with a JSON pointer, when the envelope does not match its schema', () => {
    const page = readPage({ _embedded: { items: [] }, _links: {}, current_count: 'many' }, url);
    expect(page.warnings.some((warning) => warning.startsWith('list /current_count: '))).toBe(true);
  });
});

describe('recordLinks', () => {
  it('flattens objects and arrays, with the method from type and the title', () => {
    expect(recordLinks({
      id: 'r',
      _links: {
        self: { href: '/things/r' },
        abort: { href: '/things/r/abort', type: 'post', title: 'Abort' },
        related: [{ href: '/a/{id}', templated: true }, { href: '/b' }],
        broken: { title: 'no href' },
        media: { href: '/m', type: 'application/json' },
      },
    })).toEqual([
      { rel: 'self', href: '/things/r', templated: false },
      { rel: 'abort', href: '/things/r/abort', templated: false, method: 'POST', title: 'Abort' },
      { rel: 'related', href: '/a/{id}', templated: true },
      { rel: 'related', href: '/b', templated: false },
      { rel: 'media', href: '/m', templated: false },
    ]);
    expect(recordLinks('nope')).toEqual([]);
    expect(recordLinks({ id: 1 })).toEqual([]);
  });
});
