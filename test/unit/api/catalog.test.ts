import { describe, expect, it } from 'vitest';
import { findResource, findVersion, parseCatalog } from '../../../src/api/hal/catalog.js';

const index = {
  _links: { self: { href: '/' } },
  widgets: {
    supported_versions: ['v1', 'v10', 'v2'],
    v1: { list_widgets: { href: '/widgets', type: 'get', templated: false } },
    v2: {
      list_widgets: { href: '/widgets{?page_size,page,q}', type: 'get', templated: true },
      get_widget: { href: '/widgets/{widget_id}', type: 'get', templated: true },
      delete_widget: { href: '/widgets/{widget_id}', type: 'delete', templated: true },
    },
    v10: { list_widgets: { href: '/widgets{?limit}', type: 'get', templated: true } },
  },
  gadgets: {
    supported_versions: ['v1'],
    v1: {
      list_gadgets: { href: '/gadgets', type: 'get' },
      broken: { type: 'get' },
      no_method: { href: '/gadgets/x' },
      not_object: 'oops',
    },
  },
  junk: 'not an object',
  empty: { supported_versions: ['v1'] },
};

describe('parseCatalog', () => {
  const catalog = parseCatalog(index, 'acme');

  it('orders versions by number, newest first, whatever the index order', () => {
    const widgets = findResource(catalog, 'widgets')!;
    expect(widgets.versions.map((v) => v.version)).toEqual(['v10', 'v2', 'v1']);
    expect(widgets.defaultVersion).toBe('v10');
  });

  it('reads operations with upper-case methods and template variables', () => {
    const v2 = findVersion(findResource(catalog, 'widgets')!, 'v2')!;
    expect(v2.operations).toEqual([
      {
        id: 'list_widgets',
        method: 'GET',
        href: '/widgets{?page_size,page,q}',
        templated: true,
        pathVariables: [],
        queryVariables: ['page_size', 'page', 'q'],
      },
      {
        id: 'get_widget',
        method: 'GET',
        href: '/widgets/{widget_id}',
        templated: true,
        pathVariables: ['widget_id'],
        queryVariables: [],
      },
      {
        id: 'delete_widget',
        method: 'DELETE',
        href: '/widgets/{widget_id}',
        templated: true,
        pathVariables: ['widget_id'],
        queryVariables: [],
      },
    ]);
  });

  it('skips malformed entries with a warning and keeps the rest', () => {
    expect(catalog.resources.map((r) => r.name)).toEqual(['widgets', 'gadgets']);
    expect(findVersion(findResource(catalog, 'gadgets')!)!.operations.map((o) => o.id)).toEqual(['list_gadgets']);
    const text = catalog.warnings.join('\n');
    expect(text).toContain('gadgets v1: operation broken has no href');
    expect(text).toContain('gadgets v1: operation no_method has no HTTP method');
    expect(text).toContain('gadgets v1: operation not_object is not an object');
    expect(text).toContain('resource junk: not an object');
    expect(text).toContain('resource empty: no usable version');
    expect(text).not.toContain('_links');
  });

  it('keeps versions described but not listed, and says so', () => {
    const catalog = parseCatalog(
      { things: { supported_versions: ['v1'], v1: {}, v3: { list: { href: '/t', type: 'get' } } } },
      'acme',
    );
    expect(findResource(catalog, 'things')!.defaultVersion).toBe('v3');
    expect(catalog.warnings).toEqual(['resource things: version v3 is described but not listed in supported_versions']);
  });

  it('keeps one version per number: v01 after v1 is the same version, skipped with a warning', () => {
    const catalog = parseCatalog(
      {
        things: {
          supported_versions: ['v1'],
          v1: { list: { href: '/t', type: 'get' } },
          v01: { other: { href: '/o', type: 'get' } },
        },
      },
      'acme',
    );
    const things = findResource(catalog, 'things')!;
    expect(things.versions.map((version) => version.version)).toEqual(['v1']);
    expect(findVersion(things, 'v01')!.operations.map((operation) => operation.id)).toEqual(['list']);
    expect(catalog.warnings).toContain('resource things: version v01 is the same version as v1; skipped');
  });

  it('reports a body that is not an object', () => {
    expect(parseCatalog([], 'acme')).toEqual({
      vendor: 'acme',
      resources: [],
      warnings: ['the discovery index is not a JSON object'],
    });
  });

  it('treats an href with expressions as a template even when not marked', () => {
    const catalog = parseCatalog(
      { t: { supported_versions: ['v1'], v1: { read: { href: '/t/{id}', type: 'get', templated: false } } } },
      'x',
    );
    expect(findVersion(findResource(catalog, 't')!)!.operations[0]!.pathVariables).toEqual(['id']);
    expect(catalog.warnings[0]).toContain('treated as templated');
  });
});

describe('findVersion', () => {
  const widgets = findResource(parseCatalog(index, 'acme'), 'WIDGETS')!;
  it('accepts v2, V2 and 2, and refuses unknown versions', () => {
    expect(findVersion(widgets, 'v2')!.number).toBe(2);
    expect(findVersion(widgets, 'V2')!.number).toBe(2);
    expect(findVersion(widgets, '2')!.number).toBe(2);
    expect(findVersion(widgets, 'v7')).toBeUndefined();
    expect(findVersion(widgets, 'latest')).toBeUndefined();
  });
});
