import { describe, expect, it } from 'vitest';
import { findResource, findVersion, parseCatalog, type Operation } from '../../../src/api/hal/catalog.js';
import { ProtocolError, UsageError } from '../../../src/api/errors.js';
import { resolveHref } from '../../../src/api/hal/links.js';
import {
  findListOperation,
  findReadOperation,
  isListOperation,
  listOperations,
  pagingParameters,
  resolveRequest,
} from '../../../src/api/hal/operation.js';

const catalog = parseCatalog(
  {
    widgets: {
      supported_versions: ['v1', 'v2'],
      v1: { all_widgets: { href: '/widgets', type: 'get' }, make_widget: { href: '/widgets', type: 'post' } },
      v2: {
        get_widget: { href: '/widgets/{widget_id}', type: 'get', templated: true },
        listWidgets: { href: '/widgets{?page_size,page,q}', type: 'get', templated: true },
        update_widget: { href: '/widgets/{widget_id}', type: 'patch', templated: true },
      },
    },
  },
  'acme',
);
const context = { baseUrl: 'https://cp.example:8443', vendor: 'acme', ouHeader: 'X-Acme-OU' };

function operation(href: string, queryVariables: string[]): Operation {
  return { id: 'x', method: 'GET', href, templated: true, pathVariables: [], queryVariables };
}

describe('findListOperation', () => {
  it('prefers a GET whose id starts with list, else the first GET without path variables', () => {
    const widgets = findResource(catalog, 'widgets')!;
    expect(findListOperation(findVersion(widgets, 'v2')!)!.id).toBe('listWidgets');
    expect(findListOperation(findVersion(widgets, 'v1')!)!.id).toBe('all_widgets');
  });
});

describe('lists under a parent', () => {
  const nested = parseCatalog(
    {
      parts: {
        supported_versions: ['v1'],
        v1: {
          get_part: { href: '/parts/{part_id}', type: 'get' },
          partsOfMachine: { href: '/machines/{machine_id}/parts{?per_page,page}', type: 'get' },
          list_bin_parts: { href: '/sites/{site}/bins/{bin}/parts', type: 'get' },
          list_parts: { href: '/parts{?limit}', type: 'get' },
          add_part: { href: '/machines/{machine_id}/parts{?limit}', type: 'post' },
        },
      },
      bins: {
        supported_versions: ['v1'],
        v1: {
          bin_contents: { href: '/bins/{bin}/contents{?page_size}', type: 'get' },
          get_bin: { href: '/bins/{bin}', type: 'get' },
        },
      },
    },
    'acme',
  );
  const parts = findVersion(findResource(nested, 'parts')!, 'v1')!;
  const bins = findVersion(findResource(nested, 'bins')!, 'v1')!;

  it('a GET is a list when its id says so or its template pages; a read of one record is not', () => {
    const byId = (id: string) => parts.operations.find((operation) => operation.id === id)!;
    expect(isListOperation(byId('partsOfMachine'))).toBe(true);
    expect(isListOperation(byId('list_bin_parts'))).toBe(true);
    expect(isListOperation(byId('get_part'))).toBe(false);
    expect(isListOperation(byId('add_part'))).toBe(false);
  });

  it('lists the top-level collection first, then those under a parent', () => {
    expect(listOperations(parts).map((operation) => operation.id)).toEqual([
      'list_parts',
      'partsOfMachine',
      'list_bin_parts',
    ]);
  });

  it('by default picks the top-level list; given variables, the list under the parent they name', () => {
    expect(findListOperation(parts)!.id).toBe('list_parts');
    expect(findListOperation(parts, ['machine_id'])!.id).toBe('partsOfMachine');
    expect(findListOperation(parts, ['site', 'bin'])!.id).toBe('list_bin_parts');
    expect(findListOperation(parts, ['bin'])!.id).toBe('list_parts');
  });

  it('the read of one record is never a list under a parent, whichever the index names first', () => {
    const machineParts = parseCatalog(
      {
        parts: {
          supported_versions: ['v1'],
          v1: {
            partsOfMachine: { href: '/machines/{machine_id}/parts{?per_page}', type: 'get' },
            get_part: { href: '/parts/{part_id}', type: 'get' },
          },
        },
      },
      'acme',
    );
    expect(findReadOperation(findResource(machineParts, 'parts')!)?.operation.id).toBe('get_part');
    expect(findReadOperation(findResource(nested, 'bins')!)?.operation.id).toBe('get_bin');
  });

  it('a resource listable only under a parent has that list as its list', () => {
    expect(findListOperation(bins)!.id).toBe('bin_contents');
  });

  it("resolving it without the parent's variable is a usage error naming the variable", () => {
    expect(() => resolveRequest(nested, { resource: 'bins', operationId: 'bin_contents' }, context)).toThrow(
      UsageError,
    );
    expect(() => resolveRequest(nested, { resource: 'bins', operationId: 'bin_contents' }, context)).toThrow(
      'bin_contents needs the variable bin',
    );
    const prepared = resolveRequest(
      nested,
      { resource: 'bins', operationId: 'bin_contents', variables: { bin: 'b 7' }, query: { page_size: '5' } },
      context,
    );
    expect(prepared.url).toBe('https://cp.example:8443/bins/b%207/contents?page_size=5');
  });
});

describe('pagingParameters', () => {
  it('maps aliases from the template', () => {
    expect(pagingParameters(operation('/w{?page_size,page,q}', ['page_size', 'page', 'q']))).toEqual({
      pageSize: 'page_size',
      page: 'page',
      filter: 'q',
    });
    expect(
      pagingParameters(operation('/w{?per_page,page_number,where}', ['per_page', 'page_number', 'where'])),
    ).toEqual({ pageSize: 'per_page', page: 'page_number', filter: 'where' });
    expect(pagingParameters(operation('/w{?size}', ['size']))).toEqual({
      pageSize: 'size',
      page: 'start',
      filter: 'filter',
    });
  });

  it('falls back to limit, start, filter', () => {
    expect(pagingParameters({ ...operation('/w', []), templated: false })).toEqual({
      pageSize: 'limit',
      page: 'start',
      filter: 'filter',
    });
  });
});

describe('resolveRequest', () => {
  it('expands path variables and sets Accept for the chosen version', () => {
    const request = resolveRequest(
      catalog,
      { resource: 'widgets', operationId: 'get_widget', variables: { widget_id: 'a b' } },
      context,
    );
    expect(request).toEqual({
      method: 'GET',
      url: 'https://cp.example:8443/widgets/a%20b',
      headers: { accept: 'application/api.acme.widgets=v2+json' },
      resource: 'widgets',
      version: 'v2',
      operationId: 'get_widget',
    });
  });

  it('puts template query variables in the template and others in an appended query', () => {
    const request = resolveRequest(
      catalog,
      { resource: 'widgets', operationId: 'listWidgets', query: { page_size: '5', extra: 'y' } },
      context,
    );
    expect(request.url).toBe('https://cp.example:8443/widgets?page_size=5&extra=y');
  });

  it('adds the OU header when an OU is set, and a content type with a body', () => {
    const request = resolveRequest(
      catalog,
      { resource: 'widgets', operationId: 'make_widget', version: 'v1', body: '{"n":1}' },
      { ...context, ou: '0f0e' },
    );
    expect(request.method).toBe('POST');
    expect(request.body).toBe('{"n":1}');
    expect(request.headers).toEqual({
      accept: 'application/api.acme.widgets=v1+json',
      'x-acme-ou': '0f0e',
      'content-type': 'application/json',
    });
  });

  it('names missing path variables', () => {
    expect(() => resolveRequest(catalog, { resource: 'widgets', operationId: 'update_widget' }, context)).toThrow(
      'update_widget needs the variable widget_id',
    );
    try {
      resolveRequest(
        catalog,
        { resource: 'widgets', operationId: 'update_widget', variables: { widget_id: '' } },
        context,
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).hint).toContain('widget_id');
    }
  });

  it('refuses unknown resources, versions, operations and variables, listing what exists', () => {
    const attempt = (target: Parameters<typeof resolveRequest>[1]) => {
      try {
        resolveRequest(catalog, target, context);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return `${(error as UsageError).message} | ${(error as UsageError).hint}`;
      }
      throw new Error('no error');
    };
    expect(attempt({ resource: 'gizmos', operationId: 'x' })).toBe(
      'unknown resource: gizmos | the index lists: widgets',
    );
    expect(attempt({ resource: 'widgets', operationId: 'x', version: 'v9' })).toBe(
      'widgets has no version v9 | supported versions: v2, v1',
    );
    expect(attempt({ resource: 'widgets', operationId: 'nope' })).toContain(
      'operations: get_widget, listWidgets, update_widget',
    );
    expect(
      attempt({ resource: 'widgets', operationId: 'get_widget', variables: { widget_id: '1', wigdet: '2' } }),
    ).toContain('has no variable wigdet');
  });
});

describe('resolveHref', () => {
  it('appends paths to a base URL with a path prefix, without doubling it', () => {
    expect(resolveHref('https://h/api/', '/things')).toBe('https://h/api/things');
    expect(resolveHref('https://h/api', '/api/things')).toBe('https://h/api/things');
    expect(resolveHref('https://h/api', 'things?x=1')).toBe('https://h/api/things?x=1');
    expect(resolveHref('https://h', '/things')).toBe('https://h/things');
    expect(resolveHref('https://h/api', 'https://other/x')).toBe('https://other/x');
  });

  it("refuses an href no URL can be made of as the server's fault (exit 3), naming it", () => {
    for (const href of ['\\\\', 'http://[']) {
      let thrown: unknown;
      try {
        resolveHref('https://h/api', href);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ProtocolError);
      expect((thrown as ProtocolError).exitCode).toBe(3);
      expect((thrown as ProtocolError).message).toContain(JSON.stringify(href));
    }
  });
});
