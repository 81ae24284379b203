import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/api/hal/catalog.js';
import { routeFor } from '../../../src/api/hal/routes.js';

const catalog = parseCatalog(
  {
    things: {
      supported_versions: ['v1', 'v2'],
      v1: { list_things: { href: '/things{?size,page}', type: 'get', templated: true } },
      v2: {
        list_things: { href: '/things{?size,page}', type: 'get', templated: true },
        get_thing: { href: '/things/{thing_id}', type: 'get', templated: true },
        delete_thing: { href: '/things/{thing_id}', type: 'delete', templated: true },
      },
    },
    parts: {
      supported_versions: ['v1'],
      v1: { get_part: { href: '/things/{thing_id}/parts/{part_id}', type: 'get', templated: true } },
    },
  },
  'acme',
);

describe('routeFor', () => {
  it('finds the resource whose GET href a link fits, behind a base URL with a path prefix', () => {
    const record = routeFor(catalog, 'http://h/api/v9/things/abc', 'http://h/api/v9');
    expect(record).toMatchObject({ resource: 'things', version: 'v2', operation: { id: 'get_thing' } });
    expect(routeFor(catalog, '/api/v9/things?size=5', 'http://h/api/v9')?.operation.id).toBe('list_things');
  });

  it('prefers the most literal href, and matches nothing outside the index', () => {
    expect(routeFor(catalog, 'http://h/things/1/parts/2', 'http://h')).toMatchObject({
      resource: 'parts',
      operation: { id: 'get_part' },
    });
    expect(routeFor(catalog, 'http://h/elsewhere/1', 'http://h')).toBeUndefined();
    expect(routeFor(catalog, 'http://h/', 'http://h')).toBeUndefined();
  });
});
