// The values a count's columns are made of, when the caller names none: what the record schema declares
// (`enum`), and what a few pages of the root's list hold — its first page, its last page where the
// server links one, and up to 5 pages between them reached by the server's own links (`next` from the
// first, `prev` from the last), never by arithmetic on a page token. A list sorted by time shows its
// newest records first and its oldest last, so the two ends see values that one page does not.
import { UsageError } from '../errors.js';
import { scalarText, valueAt } from '../json.js';
import { didYouMean } from '../hal/did-you-mean.js';
import { fieldPaths } from '../hal/records.js';
import { fieldEnum } from '../hal/schemas.js';
import { listRequest, pageLinkRequest, readPage } from '../session/pages.js';
import type { Page } from '../session/page.js';
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
/** Field names an error lists at most. */
const MOST_FIELDS = 200;

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
  const read = await readEnds(session, target, scope, query, signal);
  const tally = new ValueTally(target, query.by);
  for (const page of read.pages) for (const item of page.items) tally.add(item);
  return {
    values: tally.values(),
    survey: {
      schema: tally.listed.length > 0,
      pages: read.pages.length,
      everyPage: read.everyPage,
      mayMiss: !read.everyPage && !read.lastLinked,
    },
  };
}

/**
 * The values of `by` among records as they are read, each page once: the survey's few pages, or a scan's
 * every page (which learns its columns from the records it counts, instead of reading pages twice).
 */
export class ValueTally {
  readonly listed: CountValue[];
  /** How many records hold each value, in the order first seen: the records themselves are not kept. */
  private readonly seen = new Map<CountValue, number>();
  private readonly fields = new Set<string>();
  private records = 0;
  private any = false;

  constructor(
    private readonly target: SurveyTarget,
    private readonly by: string,
  ) {
    this.listed = fieldEnum(target.resource, target.version, by)?.filter(isCountValue) ?? [];
  }

  add(record: Record<string, unknown>): void {
    this.records += 1;
    const value = valueAt(record, this.by);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      this.seen.set(value, (this.seen.get(value) ?? 0) + 1);
    if (this.any) return;
    if (value !== undefined) this.any = true;
    // What the error names when no record has the field; once one has it, no field list is needed.
    else if (this.fields.size < MOST_FIELDS) for (const path of fieldPaths(record)) this.fields.add(path);
  }

  /** The schema's values, then those seen, most common first; an error when no record has the field at all. */
  values(): CountValue[] {
    if (this.listed.length === 0 && this.records > 0 && !this.any) {
      const fields = [...this.fields];
      throw new UsageError(
        `the records of ${this.target.resource} have no field ${this.by} to count by`,
        didYouMean(this.by, fields, `fields: ${fields.join(', ')}`),
      );
    }
    // Most common first, ties in the order first seen (a Map keeps it, and the sort is stable).
    const seen = [...this.seen.entries()].sort((a, b) => b[1] - a[1]).slice(0, MOST_VALUES);
    return [...this.listed, ...seen.map(([value]) => value)];
  }
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
