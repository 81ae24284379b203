// The dpx commands a browser's requests amount to, for a page of a case that carries no command line (a
// devtools export, Playwright's): the index is `resources`, a list's first page `list <resource>` with
// its page size, filter and unit, a record `call <resource> <operation> --var …`. Later pages, writes and
// requests outside the API make no command of their own. Each command once, in the order first asked.
import type { Operation } from '../hal/catalog.js';
import { isListOperation, pagingParameters } from '../hal/operation.js';
import { routeFor } from '../hal/routes.js';
import { templateParts } from '../hal/template.js';
import { recordedUnit, type RecordedExchange, type RecordedTrail } from './har.js';

export function commandsFromRequests(trail: RecordedTrail, exchanges: RecordedExchange[]): string[][] {
  const commands = new Map<string, string[]>();
  for (const exchange of exchanges) {
    if (exchange.method !== 'GET' || exchange.status < 200 || exchange.status >= 300) continue;
    const argv = commandOf(trail, exchange);
    if (argv !== undefined && !commands.has(JSON.stringify(argv))) commands.set(JSON.stringify(argv), argv);
  }
  return [...commands.values()];
}

function commandOf(trail: RecordedTrail, exchange: RecordedExchange): string[] | undefined {
  const url = new URL(exchange.url);
  const unit = recordedUnit(trail, exchange);
  const inUnit = unit === undefined ? [] : ['--ou', unit];
  if (`${url.origin}${url.pathname}`.replace(/\/$/, '') === trail.baseUrl && url.search === '')
    return ['resources', ...inUnit];
  const route = routeFor(trail.catalog, exchange.url, trail.baseUrl);
  if (route === undefined) return undefined;
  const { resource, operation } = route;
  // Names come from the case's own index: one that reads as an option is no command dpx would run.
  if (resource.startsWith('-') || operation.id.startsWith('-')) return undefined;
  if (isListOperation(operation)) {
    const { pageSize, page, filter } = pagingParameters(operation);
    if (url.searchParams.has(page)) return undefined;
    const size = url.searchParams.get(pageSize);
    const filtered = url.searchParams.get(filter);
    return [
      'list',
      resource,
      ...(size === null ? [] : ['--page-size', size]),
      ...(filtered === null ? [] : ['--filter', filtered]),
      ...inUnit,
    ];
  }
  const values = pathValues(operation, url.pathname);
  if (values === undefined) return undefined;
  return [
    'call',
    resource,
    operation.id,
    ...values.flatMap(([name, value]) => ['--var', `${name}=${value}`]),
    ...inUnit,
  ];
}

/** The values of the operation's path variables in `pathname`, each a whole segment; undefined when it does not fit. */
function pathValues(operation: Operation, pathname: string): [string, string][] | undefined {
  const parts = templateParts(operation.href);
  if (!parts) return undefined;
  const names: string[] = [];
  let pattern = '';
  for (const part of parts) {
    if ('literal' in part) {
      const end = part.literal.indexOf('?');
      pattern += (end < 0 ? part.literal : part.literal.slice(0, end)).replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
      if (end >= 0) break;
    } else if (part.operator === '' && part.names.length === 1) {
      names.push(part.names[0]!);
      pattern += '([^/]+)';
    } else if (!['?', '&', '#'].includes(part.operator)) return undefined;
  }
  const match = new RegExp(`${pattern.replace(/\/$/, '')}/?$`).exec(pathname);
  if (!match) return undefined;
  try {
    return names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]);
  } catch {
    // A malformed escape (`%E0%A4%A`) that a browser recorded as it was sent: no command of dpx's asks it.
    return undefined;
  }
}
