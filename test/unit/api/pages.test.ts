import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/api/errors.js';
import { linkUrl, recordLinks } from '../../../src/api/hal/links.js';
import { readPage } from '../../../src/api/session/pages.js';
import type { Page } from '../../../src/api/session/page.js';

const url = 'https://cp.example/api/things?limit=2&start=2';
const base = 'https://cp.example/api';

/** Each role of the page and the absolute URL its link leads to. */
function roles(page: Page): Record<string, string> {
  return Object.fromEntries(page.links.getAll().map((link) => [link.rel, linkUrl(link, base)]));
}

describe('readPage', () => {
  it('reads items, counts and every link role, with or without a leading underscore', () => {
    const page = readPage({
      body: {
        _embedded: { items: [{ id: 'a' }, { id: 'b' }] },
        _links: {
          _self: { href: url },
          first: [{ href: 'things?limit=2&start=1' }],
          _last: { href: '/api/things?limit=2&start=9' },
          _next: { href: 'https://cp.example/api/things?limit=2&start=3' },
          previous: { href: 'things?limit=2&start=1' },
        },
        current_count: 2,
        total_count: 17,
        total_pages_count: 9,
        start: '2',
      },
      url,
    });
    expect(page.items).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(roles(page)).toEqual({
      self: url,
      first: 'https://cp.example/api/things?limit=2&start=1',
      last: 'https://cp.example/api/things?limit=2&start=9',
      next: 'https://cp.example/api/things?limit=2&start=3',
      prev: 'https://cp.example/api/things?limit=2&start=1',
    });
    expect([page.currentCount, page.totalCount, page.totalPages, page.start]).toEqual([2, 17, 9, '2']);
  });

  it('leaves counts out when absent and keeps items without a self link', () => {
    const page = readPage({
      body: { _embedded: { items: [{ no: 'links' }] }, _links: { prev: { href: '?p=opaque%3D%3D' } } },
      url,
    });
    expect(page.items).toEqual([{ no: 'links' }]);
    expect(page.totalCount).toBeUndefined();
    expect(linkUrl(page.links.get('prev')!, base)).toBe('https://cp.example/api/things?p=opaque%3D%3D');
  });

  it('reads an empty page without _embedded, and warns about non-object items', () => {
    expect(readPage({ body: { _links: {}, current_count: 0 }, url }).items).toEqual([]);
    const page = readPage({ body: { _embedded: { items: [1, { id: 'x' }] }, _links: {} }, url });
    expect(page.items).toEqual([{ id: 'x' }]);
    expect(page.warnings).toContain('list /_embedded/items/0: not an object; left out');
  });

  it('refuses what is not a list envelope', () => {
    expect(() => readPage({ body: [], url })).toThrow(ProtocolError);
    expect(() => readPage({ body: { id: 'a record' }, url })).toThrow(ProtocolError);
    expect(() => readPage({ body: { _embedded: { a: [], b: [] } }, url })).toThrow(ProtocolError);
  });

  it('warns, with a JSON pointer, when the envelope does not match its schema', () => {
    const page = readPage({ body: { _embedded: { items: [] }, _links: {}, current_count: 'many' }, url });
    expect(page.warnings.some((warning) => warning.startsWith('list /current_count: '))).toBe(true);
  });
});

describe('readPage with an RFC 8288 Link header', () => {
  const items = { _embedded: { items: [{ id: 'a' }] }, current_count: 1 };

  it('takes every role from the Link header of a page without _links, relative hrefs against the page', () => {
    const page = readPage({
      body: items,
      url,
      headers: {
        link:
          '<https://cp.example/api/things?limit=2&start=3>; rel="next", <things?limit=2&start=1>; rel="first prev", ' +
          '</api/things?limit=2&start=9>; rel=last',
      },
    });
    expect(roles(page)).toEqual({
      next: 'https://cp.example/api/things?limit=2&start=3',
      first: 'https://cp.example/api/things?limit=2&start=1',
      prev: 'https://cp.example/api/things?limit=2&start=1',
      last: 'https://cp.example/api/things?limit=2&start=9',
    });
    // The envelope needs no _links when its header carries them.
    expect(page.warnings).toEqual([]);
  });

  it('reads the header in any case, and relations in any case (RFC 8288 compares them so)', () => {
    const page = readPage({
      body: items,
      url,
      headers: { Link: '<things?start=3>; rel="Next", <things?start=1>; rel="previous"' },
    });
    expect(roles(page)).toEqual({
      next: 'https://cp.example/api/things?start=3',
      prev: 'https://cp.example/api/things?start=1',
    });
  });

  it('lets _links win for every role both name, and takes from the header the roles _links lack', () => {
    const page = readPage({
      body: { ...items, _links: { self: { href: url }, next: { href: '/api/things?from=links' } } },
      url,
      headers: { link: '</api/things?from=header>; rel="next", </api/things?from=header-last>; rel="last"' },
    });
    expect(roles(page)).toEqual({
      self: url,
      next: 'https://cp.example/api/things?from=links',
      last: 'https://cp.example/api/things?from=header-last',
    });
  });

  it('warns about a Link header it cannot read, and reads the page without it', () => {
    const page = readPage({ body: { ...items, _links: {} }, url, headers: { link: 'not a link header' } });
    expect(page.links.getAll()).toEqual([]);
    expect(page.warnings).toEqual([expect.stringMatching(/^list: its Link header could not be read/)]);
  });

  it('still asks for _links when neither they nor a Link header are there', () => {
    const page = readPage({ body: items, url });
    expect(page.warnings).toEqual([expect.stringContaining('_links')]);
  });
});

describe('recordLinks', () => {
  it('flattens objects and arrays, with the method from type and the title', () => {
    expect(
      recordLinks(
        {
          id: 'r',
          _links: {
            self: { href: '/things/r' },
            abort: { href: '/things/r/abort', type: 'post', title: 'Abort' },
            related: [{ href: '/a/{id}', templated: true }, { href: '/b' }],
            broken: { title: 'no href' },
            media: { href: '/m', type: 'application/json' },
          },
        },
        'https://cp.example/api/things/r',
      ),
    ).toEqual([
      { rel: 'self', href: '/things/r', context: 'https://cp.example/api/things/r', templated: false },
      {
        rel: 'abort',
        href: '/things/r/abort',
        context: 'https://cp.example/api/things/r',
        templated: false,
        method: 'POST',
        title: 'Abort',
      },
      { rel: 'related', href: '/a/{id}', context: 'https://cp.example/api/things/r', templated: true },
      { rel: 'related', href: '/b', context: 'https://cp.example/api/things/r', templated: false },
      { rel: 'media', href: '/m', context: 'https://cp.example/api/things/r', templated: false },
    ]);
    expect(recordLinks('nope')).toEqual([]);
    expect(recordLinks({ id: 1 })).toEqual([]);
  });
});
