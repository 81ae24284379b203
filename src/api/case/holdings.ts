// What a case holds, in words: a request as the operation it asks (`list_tasks (tasks v1) with
// limit 7, filter {"status":…}, in unit …`) and, for a request the case lacks, what it holds for that
// resource instead — which operations, in which units, with which page size and filters, how many pages
// or records. Query values are shown decoded: a percent-encoded URL is for machines.

import { isListOperation, pagingParameters } from '../hal/operation.js';
import { routeFor } from '../hal/routes.js';
import { parseVendorMediaType } from '../media.js';
import { recordedUnit, type RecordedExchange, type RecordedTrail } from './har.js';

export interface DescribedRequest {
  /** `list_tasks (tasks v1) with limit 7, in unit 12ea…` */
  text: string;
  resource?: string;
}

interface Shape {
  resource?: string;
  version?: string;
  operation?: string;
  list: boolean;
  /** The path below the base URL, decoded. */
  path: string;
  /** Query parameters, decoded and named in words (`page size`), without the page (start, page…). */
  query: [string, string][];
  /** The page asked for, when the query names one. */
  page?: string;
}

/** A request in words: its operation and resource when the index names them, its decoded query and its unit. */
export function describeRequest(
  trail: RecordedTrail,
  method: string,
  url: string,
  accept: string | undefined,
  unit: string | undefined,
): DescribedRequest {
  const shape = shapeOf(trail, url, accept);
  const what = shape.operation ? `${shape.operation} (${shape.resource} ${shape.version})` : `${method} ${shape.path}`;
  const where = shape.operation && !shape.list ? ` for ${shape.path}` : '';
  const query = shape.query.length > 0 ? ` with ${queryWords(shape.query)}` : '';
  const page = shape.page !== undefined ? `, page ${shape.page}` : '';
  return {
    text: `${what}${where}${query}${page} in ${unitWords(unit)}`,
    ...(shape.resource ? { resource: shape.resource } : {}),
  };
}

/** What the case holds for `resource` (or, when the resource is not known, for nothing in particular), in one line. */
export function holdingsFor(
  trail: RecordedTrail,
  resource: string | undefined,
  ouHeader: string = trail.ouHeader,
): string {
  const file = trail.source.split(/[\\/]/).pop() ?? trail.source;
  const groups = new Map<string, { shape: Shape; unit: string | undefined; pages: Set<string>; paths: Set<string> }>();
  for (const exchange of trail.exchanges) {
    if (!answered(exchange)) continue;
    const shape = shapeOf(trail, exchange.url, exchange.requestHeaders['accept']);
    if (resource === undefined ? shape.resource === undefined : shape.resource !== resource) continue;
    const unit = recordedUnit({ ouHeader }, exchange);
    const key = JSON.stringify([shape.operation ?? shape.path, shape.version, unit, shape.list ? shape.query : []]);
    const group = groups.get(key) ?? { shape, unit, pages: new Set<string>(), paths: new Set<string>() };
    group.pages.add(shape.page ?? '');
    group.paths.add(shape.path);
    groups.set(key, group);
  }
  if (groups.size === 0) {
    const resources = [
      ...new Set(
        trail.exchanges
          .filter(answered)
          .map((exchange) => shapeOf(trail, exchange.url, exchange.requestHeaders['accept']).resource)
          .filter((name): name is string => name !== undefined),
      ),
    ];
    return resource === undefined
      ? `${file} holds answers for ${resources.length > 0 ? resources.join(', ') : 'no resource'}`
      : `${file} holds nothing for ${resource}${resources.length > 0 ? `; it holds ${resources.join(', ')}` : ''}`;
  }
  const lines = [...groups.values()].map(({ shape, unit, pages, paths }) => {
    const name = shape.operation ? `${shape.operation} ${shape.version}` : shape.path;
    if (shape.list) {
      const query = shape.query.length > 0 ? ` with ${queryWords(shape.query)}` : '';
      return `${name}${query} in ${unitWords(unit)} (${pages.size} page${pages.size === 1 ? '' : 's'})`;
    }
    const shown = [...paths].slice(0, 3).join(', ');
    return `${name} in ${unitWords(unit)} (${paths.size} record${paths.size === 1 ? '' : 's'}: ${shown}${paths.size > 3 ? ', …' : ''})`;
  });
  const shown = lines.slice(0, 8);
  return `for ${resource ?? 'that path'}, ${file} holds ${shown.join('; ')}${lines.length > shown.length ? `; and ${lines.length - shown.length} more` : ''}`;
}

function answered(exchange: RecordedExchange): boolean {
  return (exchange.method === 'GET' || exchange.method === 'HEAD') && exchange.status >= 200 && exchange.status !== 304;
}

function shapeOf(trail: RecordedTrail, url: string, accept: string | undefined): Shape {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { list: false, path: url, query: [] };
  }
  const basePath = new URL(trail.baseUrl).pathname.replace(/\/$/, '');
  const path = safeDecode(
    parsed.pathname.startsWith(basePath) ? parsed.pathname.slice(basePath.length) || '/' : parsed.pathname,
  );
  const route = routeFor(trail.catalog, url, trail.baseUrl);
  const media = accept ? parseVendorMediaType(accept) : undefined;
  const paging = route ? pagingParameters(route.operation) : undefined;
  let page: string | undefined;
  const query: [string, string][] = [];
  for (const [name, value] of [...parsed.searchParams].sort(([a], [b]) => a.localeCompare(b))) {
    if (paging && name === paging.page) page = value;
    else if (paging && name === paging.pageSize) query.push(['page size', value]);
    else if (paging && name === paging.filter) query.push(['filter', value]);
    else query.push([name, value]);
  }
  return {
    ...(route
      ? {
          resource: route.resource,
          operation: route.operation.id,
          version: media?.resource === route.resource ? media.version : route.version,
        }
      : {}),
    list: route ? isListOperation(route.operation) : false,
    path,
    query,
    ...(page === undefined ? {} : { page }),
  };
}

function queryWords(query: [string, string][]): string {
  return query.map(([name, value]) => `${name} ${value}`).join(', ');
}

function unitWords(unit: string | undefined): string {
  return unit ? `unit ${unit}` : 'no unit';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
