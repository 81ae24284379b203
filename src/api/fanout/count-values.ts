// The values a count's columns are made of, when the caller names none: what the record schema declares
// (`enum`), and what a few pages of the root's list hold — its first page, its last page where the
// server links one, and up to 5 pages between them reached by the server's own links (`next` from the
// first, `prev` from the last), never by arithmetic on a page token. A list sorted by time shows its
// newest records first and its oldest last, so the two ends see values that one page does not.
import { UsageError } from '../errors.js';
import { scalarText, valueAt } from '../json.js';
import { didYouMean } from '../hal/did-you-mean.js';
import { fieldPaths } from '../hal/records.js';
import { distinctValues } from '../hal/suggestions.js';
import { fieldEnum } from '../hal/schemas.js';
import { listRequest, pageLinkRequest, readPage, type Page } from '../session/pages.js';
import type { Session } from '../session/session.js';
import type { PreparedRequest } from '../hal/operation.js';
import { normalisedUrl } from '../urls.js';
import type { Scope } from './scopes.js';

/** A value a field is counted by: what `{"$eq": value}` compares with. */
export type CountValue = string | number | boolean | null;

/** How the values were found, when the caller gave none. */
export interface ValueSurvey {
  /** The record schema declares the field's values. */
  schema: boolean;
  /** Pages of the root's list read for values. */
  pages: number;
  /** Those pages were every page of the list: no value is missing. */
  everyPage: boolean;
  /**
   * The server links no last page (cursor paging) and not every page was read: values beyond the pages
   * read may be missing. Their records are in the `other` column either way.
   */
  mayMiss: boolean;
}

/** Pages read between the first and the last. */
const PAGES_BETWEEN = 5;
/** Columns taken from pages at most (a field with a value per record is no field to count by). */
const MOST_VALUES = 50;

export function isCountValue(value: unknown): value is CountValue {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** How a value reads as a column: its text; null as `null`. */
export function valueLabel(value: unknown): string {
  return value === null || value === undefined ? 'null' : (scalarText(value) ?? JSON.stringify(value));
}

export interface SurveyTarget {
  resource: string;
  version: string;
  operationId: string;
}

/** The schema's values of `by`, then those on the pages read, most common first. */
export async function surveyValues(
  session: Session,
  target: SurveyTarget,
  scope: Scope,
  query: { by: string; filter?: string; pageSize: number },
  signal: AbortSignal,
): Promise<{ values: CountValue[]; survey: ValueSurvey }> {
  const listed = fieldEnum(target.resource, target.version, query.by)?.filter(isCountValue) ?? [];
  const read = await readEnds(session, target, scope, query, signal);
  const items = read.pages.flatMap((page) => page.items);
  if (listed.length === 0 && items.length > 0 && items.every((item) => valueAt(item, query.by) === undefined)) {
    const fields = [...new Set(items.flatMap((item) => fieldPaths(item)))];
    throw new UsageError(
      `the records of ${target.resource} have no field ${query.by} to count by`,
      didYouMean(query.by, fields, `fields: ${fields.join(', ')}`),
    );
  }
  const seen = distinctValues(items, query.by, MOST_VALUES);
  return {
    values: [...listed, ...seen],
    survey: {
      schema: listed.length > 0,
      pages: read.pages.length,
      everyPage: read.everyPage,
      mayMiss: !read.everyPage && !read.lastLinked,
    },
  };
}

/** The first page, the last where linked, and up to 5 between, alternately forward from the first and back from the last. */
async function readEnds(
  session: Session,
  target: SurveyTarget,
  scope: Scope,
  query: { filter?: string; pageSize: number },
  signal: AbortSignal,
): Promise<{ pages: Page[]; everyPage: boolean; lastLinked: boolean }> {
  const request = await listRequest(session, {
    ...target,
    pageSize: query.pageSize,
    ou: scope.ou,
    ...(query.filter ? { filter: query.filter } : {}),
  });
  const read = new Set<string>();
  const pages: Page[] = [];
  const fetch = async (asked: PreparedRequest): Promise<Read> => {
    read.add(normalisedUrl(asked.url));
    const response = await session.send(asked, { signal, once: true });
    const page = readPage(response);
    read.add(normalisedUrl(response.url));
    const self = linkUrl(session, page, 'self', asked);
    if (self !== undefined) read.add(self);
    pages.push(page);
    return { page, request: asked };
  };
  /** The page a link leads to: `none` without such a link, `read` when that page was read already. */
  const step = (from: Read, role: 'next' | 'prev' | 'last'): PreparedRequest | 'none' | 'read' => {
    const url = linkUrl(session, from.page, role, from.request);
    if (url === undefined) return 'none';
    return read.has(url) ? 'read' : pageLinkRequest(session, from.page, role, from.request)!;
  };

  let forward = await fetch(request);
  const lastLinked = forward.page.links.has('last');
  const last = step(forward, 'last');
  let back = typeof last === 'string' || !forward.page.links.has('next') ? undefined : await fetch(last);
  for (let between = 0; ; between++) {
    const next = step(forward, 'next');
    const prev = back ? step(back, 'prev') : 'none';
    // Forward reached the end, or a page read from the end; or back reached one read from the start.
    if (typeof next === 'string' || prev === 'read') return { pages, everyPage: true, lastLinked };
    if (between === PAGES_BETWEEN) return { pages, everyPage: false, lastLinked };
    if (typeof prev !== 'string' && between % 2 === 1) back = await fetch(prev);
    else forward = await fetch(next);
  }
}

interface Read {
  page: Page;
  request: PreparedRequest;
}

function linkUrl(
  session: Session,
  page: Page,
  role: 'self' | 'next' | 'prev' | 'last',
  basis: PreparedRequest,
): string | undefined {
  const link = page.links.get(role);
  if (!link || link.templated) return undefined;
  try {
    return normalisedUrl(pageLinkRequest(session, page, role, basis)!.url);
  } catch {
    // A link that cannot be made a request (another origin, a broken href) leads nowhere dpx goes.
    return undefined;
  }
}
