import { DemoError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  limit: number;
  start: number;
  filter: string | undefined;
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/** Reads `limit`, `start` and `filter` from a list request's query. */
export function pageRequest(query: URLSearchParams): PageRequest {
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_PAGE_SIZE : wholeNumber(limitText);
  if (limit === undefined || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new DemoError(
      400,
      'invalid_page_size',
      `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(limitText)}`,
    );
  }
  const startText = query.get('start');
  const start = startText === null ? 1 : wholeNumber(startText);
  if (start === undefined || start < 1) {
    throw new DemoError(400, 'invalid_page', `start is a page number counted from 1, got ${JSON.stringify(startText)}`);
  }
  const filter = query.get('filter');
  return { limit, start, filter: filter === null || filter.trim() === '' ? undefined : filter };
}

/** The list envelope for one page of already filtered, presented items. */
export function listEnvelope<T>(
  path: string,
  request: PageRequest,
  matching: readonly T[],
  present: (item: T) => unknown,
  withCounts: boolean,
): Record<string, unknown> {
  const totalPages = Math.max(1, Math.ceil(matching.length / request.limit));
  if (request.start > totalPages) {
    throw new DemoError(400, 'page_out_of_range', `start ${request.start} is past the last page, ${totalPages}`);
  }
  const href = (page: number) => {
    const filter = request.filter === undefined ? '' : `&filter=${encodeURIComponent(request.filter)}`;
    return { href: `${path}?limit=${request.limit}&start=${page}${filter}` };
  };
  const items = matching.slice((request.start - 1) * request.limit, request.start * request.limit).map(present);
  const links: Record<string, { href: string }> = { self: href(request.start), first: href(1), last: href(totalPages) };
  if (request.start < totalPages) links['next'] = href(request.start + 1);
  if (request.start > 1) links['prev'] = href(request.start - 1);
  return {
    _embedded: { items },
    _links: links,
    current_count: items.length,
    ...(withCounts ? { total_count: matching.length, total_pages_count: totalPages } : {}),
    start: String(request.start),
  };
}

const HEADER_ROLES = ['next', 'prev', 'first', 'last'];

/**
 * A list page paged the way GitHub-style APIs page: its `next`, `prev`, `first` and `last` links moved
 * out of the body into an RFC 8288 `Link` header (absolute URLs), and no `_links` left in the body.
 */
export function linkHeaderPage(
  body: Record<string, unknown>,
  baseUrl: string,
): { body: Record<string, unknown>; link: string } {
  const { _links: links, ...rest } = body;
  const hrefs = (links ?? {}) as Record<string, { href: string }>;
  const link = HEADER_ROLES.filter((role) => hrefs[role] !== undefined)
    .map((role) => `<${new URL(hrefs[role]!.href, baseUrl).toString()}>; rel="${role}"`)
    .join(', ');
  return { body: rest, link };
}
