// List envelopes: one page read from an answer, and a walk over every page by its `next` links that
// holds one page at a time. Page values are whatever the server put in its links — never computed. A
// page's links come from its `_links` (HAL) or from its `Link` header (RFC 8288, as GitHub-style APIs
// page); where both name a role, `_links` wins.
import { isObject } from '../json.js';
import { ProtocolError } from '../errors.js';
import { Links } from 'ketting/dist/link.js';
import { halLinks, headerLinks, normaliseRel } from '../hal/links.js';
import {
  pagingParameters,
  resolveOperation,
  sortParameter,
  sortValue,
  type OuChoice,
  type PreparedRequest,
} from '../hal/operation.js';
import { checkEnvelope } from '../hal/schemas.js';
import { itemBytes } from '../hal/item-bytes.js';
import {
  envelopeStandIn,
  itemsKeyWarning,
  keepFirst,
  leftOutWarning,
  readSentItems,
  recordCount,
} from './sent-page.js';
import type { Session } from './session.js';
import type { Link } from '../hal/links.js';
import { normalisedUrl } from '../urls.js';
import { beyondCounts, fetchPage, selfUrl, type PageFetch } from './walk-guards.js';
import type { Page, PageAnswer } from './page.js';

export type { Link } from '../hal/links.js';

export type LinkRole = 'self' | 'first' | 'last' | 'next' | 'prev';

const ROLE_OF_REL: Record<string, LinkRole> = {
  self: 'self',
  first: 'first',
  last: 'last',
  next: 'next',
  prev: 'prev',
  previous: 'prev',
};
/** The page guard when the session sets none: paging longer than this is taken for paging that never ends. */
export const DEFAULT_PAGE_GUARD = 100_000;

/** Whether a body is a list envelope: an object with an `_embedded.items` array. */
export function isListEnvelope(body: unknown): boolean {
  return isObject(body) && isObject(body['_embedded']) && Array.isArray(body['_embedded']['items']);
}

export function readPage(answer: PageAnswer): Page {
  const { body, url, records } = answer;
  if (!isObject(body))
    throw new ProtocolError(
      `the answer from ${url} is not a list envelope (not a JSON object)`,
      'is this operation a list? try `dpx call` to see the raw answer',
    );
  const header = headerLinks(headerValue(answer.headers, 'link'), url);
  // A page whose links all come in its Link header needs no `_links` of its own.
  const linkedByHeader = body['_links'] === undefined && header.links.getAll().length > 0;
  const checked = records === undefined ? body : envelopeStandIn(body, records);
  const warnings = checkEnvelope(linkedByHeader ? { ...checked, _links: {} } : checked);
  if (header.problem) warnings.push(`list: ${header.problem}`);
  const page: Page = { url, items: [], links: pageLinks(halLinks(body['_links'], url), header.links, url), warnings };
  if (records !== undefined) readSentItems(page, records);
  else {
    const { items, itemsKey, count } = readItems(body, url, warnings);
    page.items = items;
    if (answer.bytes !== undefined && itemsKey !== undefined) page.sent = { bytes: answer.bytes, itemsKey, count };
  }
  const currentCount = envelopeCount(body, 'current_count');
  const totalCount = envelopeCount(body, 'total_count');
  const totalPages = envelopeCount(body, 'total_pages_count');
  if (currentCount !== undefined) page.currentCount = currentCount;
  if (totalCount !== undefined) page.totalCount = totalCount;
  if (totalPages !== undefined) page.totalPages = totalPages;
  const start = body['start'];
  if (typeof start === 'string' || typeof start === 'number') page.start = String(start);
  return page;
}

/**
 * The links that place a page among the others, by role. `_links` come first and the first link of a role
 * wins, so `_links` win over the Link header, and `prev` and `previous` together name one page.
 */
function pageLinks(hal: Links, header: Links, url: string): Links {
  const links = new Links(url);
  for (const link of [...hal.getAll(), ...header.getAll()]) {
    const role = ROLE_OF_REL[normaliseRel(link.rel)];
    if (role && !links.has(role)) links.add({ ...link, rel: role });
  }
  return links;
}

/** A header's value by its name in any case (an answer read from a case file keeps the case it was recorded in). */
function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers[name] !== undefined) return headers[name];
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** One of a list envelope's counts, as a number (a server may send it as a string of digits). */
export function envelopeCount(
  body: Record<string, unknown>,
  name: 'current_count' | 'total_count' | 'total_pages_count',
): number | undefined {
  const value = body[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** The envelope's records, and where they were: the key under `_embedded` (none for a page without one) and how many elements it held. */
function readItems(
  body: Record<string, unknown>,
  url: string,
  warnings: string[],
): { items: Record<string, unknown>[]; itemsKey?: string; count: number } {
  const embedded = body['_embedded'];
  let items: unknown[];
  let itemsKey: string | undefined;
  if (isObject(embedded) && Array.isArray(embedded['items'])) {
    items = embedded['items'];
    itemsKey = 'items';
  } else if (isObject(embedded)) {
    const arrays = Object.entries(embedded).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
    if (arrays.length !== 1)
      throw new ProtocolError(
        `the list envelope from ${url} has no _embedded.items array`,
        'the server does not answer with the list envelope this operation should have',
      );
    [itemsKey, items] = arrays[0]!;
    warnings.push(itemsKeyWarning(itemsKey));
  } else if (embedded === undefined && isObject(body['_links'])) {
    // HAL servers commonly leave _embedded out of an empty page.
    if (body['current_count'] !== undefined && body['current_count'] !== 0)
      warnings.push('list: _embedded is missing although current_count is not 0');
    items = [];
  } else {
    throw new ProtocolError(
      `the answer from ${url} is not a list envelope (no _embedded.items)`,
      'is this operation a list? try `dpx call` to see the raw answer',
    );
  }
  const records: Record<string, unknown>[] = [];
  items.forEach((item, index) => {
    if (isObject(item)) records.push(item);
    else warnings.push(leftOutWarning(index));
  });
  return { items: records, ...(itemsKey === undefined ? {} : { itemsKey }), count: items.length };
}

/**
 * The page's items as the server sent them, one JSON text each without line breaks, in the order of
 * `page.items` (which a walk may have cut short); undefined when they cannot be vouched for: no bytes
 * (an answer from a case file), an element that was not an object or is written over several lines,
 * or any answer item-bytes.ts refuses. A page read in one pass has them already (list-body.ts); any
 * other is scanned for them.
 */
export function itemsAsSent(page: Page): Uint8Array[] | undefined {
  const count = recordCount(page);
  const { records, sent } = page;
  const all =
    records !== undefined
      ? records.asSent()
      : sent === undefined
        ? undefined
        : itemBytes(sent.bytes, sent.itemsKey, sent.count);
  return all === undefined || all.length < count ? undefined : all.slice(0, count);
}

/** The first-page request of a resource's list operation, with page size, page and filter under the operation's own names. */
export async function listRequest(
  session: Session,
  target: {
    resource: string;
    version?: string;
    operationId?: string;
    filter?: string;
    pageSize?: number;
    page?: string;
    variables?: Record<string, string>;
    ou?: OuChoice;
    /** Asked of the server only when the operation declares a sort parameter (sortParameter). */
    sort?: { field: string; descending: boolean };
  },
): Promise<PreparedRequest> {
  const { resource, version, operation } = resolveOperation(await session.catalog(), target);
  const names = pagingParameters(operation);
  const query: Record<string, string> = {};
  const sortName = target.sort && sortParameter(operation);
  if (target.sort && sortName) query[sortName] = sortValue(target.sort);
  if (target.pageSize !== undefined) query[names.pageSize] = String(target.pageSize);
  if (target.page !== undefined && target.page !== '') query[names.page] = target.page;
  if (target.filter !== undefined && target.filter !== '') query[names.filter] = target.filter;
  const request: Parameters<Session['prepare']>[0] = {
    resource: resource.name,
    version: version.version,
    operationId: operation.id,
    query,
  };
  if (target.variables) request.variables = target.variables;
  if (target.ou !== undefined) request.ou = target.ou;
  return session.prepare(request);
}

/** The request for the page a link role points at, with the same headers as the page it came from. */
export function pageLinkRequest(
  session: Session,
  page: Page,
  role: LinkRole,
  basis: PreparedRequest,
): PreparedRequest | undefined {
  const link = page.links.get(role);
  return link ? pageRequest(session, link, basis) : undefined;
}

/** The request for a page by its link or URL (a page read before, asked again), with the same headers as `basis`. */
export function pageRequest(session: Session, link: Link | string, basis: PreparedRequest): PreparedRequest {
  const request = session.prepareLink(link, {
    resource: basis.resource,
    version: basis.version,
    operationId: basis.operationId,
    ou: basis.ou ?? null,
  });
  return { ...request, headers: { ...basis.headers } };
}

/**
 * Every page from `first` on, by `next` links. Paging that never ends is a ProtocolError, after the last
 * page read is handed over: a link back to a page already read (a cycle), a chain that goes on past the
 * page guard (`pageGuard`, else the session's, else 100,000 pages: new page tokens forever), or one
 * that goes well past what the server's own counts said. `maxPages` and `maxItems` are the caller's own
 * limits: the walk stops there, noted on the last page. With `recordsAsSent` (an export), each page is
 * read for its records as sent (SendOptions.recordsAsSent).
 */
export async function* walkPages(
  session: Session,
  first: PreparedRequest,
  options: {
    maxPages?: number;
    maxItems?: number;
    pageGuard?: number;
    signal?: AbortSignal;
    recordsAsSent?: boolean;
  } = {},
): AsyncGenerator<Page> {
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  const pageGuard = options.pageGuard ?? session.pageGuard ?? DEFAULT_PAGE_GUARD;
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const visited = new Set<string>();
  let pages = 0;
  let items = 0;
  // One page is read ahead: the next page is on its way while the consumer writes this one, so the walk
  // goes as fast as the slower of the two instead of their sum. Memory holds at most two pages.
  let ahead: PageFetch | undefined = fetchPage(session, first, visited, pages, options);
  try {
    while (ahead) {
      const response = await ahead.response;
      ahead = undefined;
      const page = readPage(response);
      pages += 1;
      // The first request often leaves the page parameter out; the page's own names for itself let a
      // next link back to it count as a cycle at once, not after reading it twice. The URL asked for is
      // in `visited` already (fetchPage): only other names are normalised and added.
      if (response.url !== response.request.url) visited.add(normalisedUrl(response.url));
      const self = selfUrl(session, page);
      if (self !== undefined && self !== response.request.url) visited.add(normalisedUrl(self));
      const room = maxItems - items;
      // Counted without parsing a page's records where they are still unparsed (sent-page.ts).
      const count = recordCount(page);
      if (count >= room) {
        if (count > room || page.links.has('next')) page.warnings.push(`stopped at ${maxItems} items (the item cap)`);
        keepFirst(page, room);
        yield page;
        return;
      }
      items += count;
      if (page.links.has('next') && pages >= maxPages) {
        page.warnings.push(`stopped after ${maxPages} pages (the page cap)`);
        yield page;
        return;
      }
      if (page.links.has('next') && pages >= pageGuard) {
        yield page;
        throw new ProtocolError(
          `the next links go on past ${pageGuard} pages: stopped at the page guard`,
          "the server's paging does not end (a new page token every time); narrow the filter, or raise DPX_MAX_PAGES if the list really is that long",
        );
      }
      const outrun = page.links.has('next') ? beyondCounts(page, pages, items) : undefined;
      if (outrun) {
        yield page;
        throw new ProtocolError(
          `the next links go on past what the server's counts say (${outrun}): stopped`,
          "the server's paging does not end; narrow the filter or read pages one at a time",
        );
      }
      // A broken or cyclic next link is reported after its page is handed over: no page already read is lost.
      let failure: unknown;
      try {
        const next = pageLinkRequest(session, page, 'next', response.request);
        if (next) ahead = fetchPage(session, next, visited, pages, options);
      } catch (error) {
        failure = error;
      }
      yield page;
      if (failure !== undefined) throw failure;
    }
  } finally {
    // The consumer stopped early (--max-items, a closed pipe) or the walk failed: the page read ahead is not wanted.
    ahead?.abort();
  }
}
