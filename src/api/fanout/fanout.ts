// One list read across control planes and units, merged. Each source plans its scopes as soon as it
// can and streams its pages as they arrive, so no source waits for a slower one. A record that several
// units' lists hold (an ancestor's scope holds its descendants' records) is given out once, tagged with
// the deepest unit it was seen in: within one control plane a unit's list is read only after the lists
// of the chosen units it holds, and what they gave out is skipped.
import type { Channel } from '../channel.js';
import { type DpxError, toDpxError } from '../errors.js';
import { linkOf, recordLinks } from '../hal/links.js';
import { resolveOperation } from '../hal/operation.js';
import { listRequest, readPage, walkPages } from '../session/pages.js';
import type { Page } from '../session/page.js';
import { largestPageSize } from '../session/page-size.js';
import { recordId } from '../hal/records.js';
import { planScopes, type Scope, type Source, type UnitChoice } from './scopes.js';
import { sideBySide } from './side-by-side.js';

export interface ScopeListQuery {
  resource: string;
  version?: string;
  operationId?: string;
  filter?: string;
  pageSize?: number;
  /** The page to start from, as the server names pages. */
  page?: string;
  /** Every page, by next links; else only the page asked for. */
  all?: boolean;
  /** Path variables of a list under a parent record. */
  variables?: Record<string, string>;
}

export interface FanOutQuery extends ScopeListQuery {
  units?: UnitChoice;
}

export type FanOutEvent =
  /** A source's scopes, in tree order, before any of its pages. */
  | { kind: 'scopes'; source: Source; scopes: Scope[] }
  /** One page of a scope; `records` are its items not given out before under a deeper unit. */
  | { kind: 'page'; scope: Scope; page: Page; records: Record<string, unknown>[] }
  /** A scope has no more pages, or failed (the pages it gave stay given). */
  | { kind: 'done'; scope: Scope; error?: DpxError }
  /** A source could not be asked at all: its index or its units could not be read. */
  | { kind: 'failed'; source: Source; error: DpxError };

/**
 * The list of `query` in every scope of `sources`, as events. Stopping the iteration or `signal` cancels
 * every request still open. When every source refuses the question itself (an unknown resource), that
 * is thrown instead of reported per source.
 */
export function fanOutList(
  sources: readonly Source[],
  query: FanOutQuery,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<FanOutEvent> {
  return sideBySide(
    sources,
    (source, events, signal) => readSource(source, query, events, signal),
    (event) => event.kind !== 'failed',
    options,
  );
}

/**
 * One scope's pages, each fetched when the reader asks for it (the walk reads one page ahead): the page
 * asked for, then with `all` the next ones by their links. Requests carry the scope's unit. A walk over
 * every page asks for the largest page the list takes, unless a page size was chosen: learned once per
 * control plane and list, by the first scope that asks (its probe is its own first page), not per unit.
 */
export async function* scopePages(
  scope: Scope,
  query: ScopeListQuery,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<Page> {
  const { session } = scope.source;
  const target = {
    resource: query.resource,
    ou: scope.ou,
    ...(query.version === undefined ? {} : { version: query.version }),
    ...(query.operationId === undefined ? {} : { operationId: query.operationId }),
    ...(query.filter === undefined || query.filter === '' ? {} : { filter: query.filter }),
    ...(query.page === undefined ? {} : { page: query.page }),
    ...(query.variables === undefined ? {} : { variables: query.variables }),
  };
  const pageSize =
    query.pageSize ?? (query.all ? (await largestPageSize(session, target, options.signal))?.ask : undefined);
  const first = await listRequest(session, { ...target, ...(pageSize === undefined ? {} : { pageSize }) });
  if (query.all) {
    yield* walkPages(session, first, options.signal ? { signal: options.signal } : {});
    return;
  }
  const response = await session.send(first, options.signal ? { signal: options.signal } : {});
  yield readPage(response);
}

/**
 * The records of one control plane given out so far, by identity (id, else self link): a record without
 * either cannot be recognised and is always given out.
 */
export class RecordDedupe {
  private readonly seen = new Set<string>();

  /** True the first time a record is offered. */
  admit(record: Record<string, unknown>): boolean {
    const key = recordKey(record);
    if (key === undefined) return true;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}

function recordKey(record: Record<string, unknown>): string | undefined {
  const id = recordId(record);
  if (id !== undefined) return `id:${id}`;
  const self = linkOf(recordLinks(record), 'self');
  return self ? `self:${self.href}` : undefined;
}

/** The scopes of `scopes` that `scope` holds: it is read after them, so that their records keep their deeper unit. */
export function heldScopes(scope: Scope, scopes: readonly Scope[]): Scope[] {
  return scope.ou === null ? [] : scopes.filter((other) => other !== scope && other.within.includes(scope.ou!));
}

async function readSource(
  source: Source,
  query: FanOutQuery,
  events: Channel<FanOutEvent>,
  signal: AbortSignal,
): Promise<void> {
  let scopes: Scope[];
  try {
    if (source.failure) throw source.failure;
    resolveOperation(await source.session.catalog(), query);
    scopes = await planScopes(source, query.units, { signal });
  } catch (error) {
    if (!signal.aborted) await events.send({ kind: 'failed', source, error: toDpxError(error) });
    return;
  }
  await events.send({ kind: 'scopes', source, scopes });
  const dedupe = new RecordDedupe();
  const reads = new Map<Scope, Promise<void>>();
  // `within` never loops (planScopes cuts parent cycles), but a scope is never waited on by one it waits
  // on: a loop here would recurse without end.
  const waiting = new Set<Scope>();
  const read = (scope: Scope): Promise<void> => {
    let pending = reads.get(scope);
    if (!pending) {
      waiting.add(scope);
      const held = heldScopes(scope, scopes).filter((other) => !waiting.has(other));
      pending = Promise.all(held.map(read)).then(() => readScope(scope, query, dedupe, events, signal));
      waiting.delete(scope);
      reads.set(scope, pending);
    }
    return pending;
  };
  await Promise.all(scopes.map(read));
}

async function readScope(
  scope: Scope,
  query: ScopeListQuery,
  dedupe: RecordDedupe,
  events: Channel<FanOutEvent>,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  try {
    for await (const page of scopePages(scope, query, { signal })) {
      await events.send({ kind: 'page', scope, page, records: page.items.filter((record) => dedupe.admit(record)) });
    }
    await events.send({ kind: 'done', scope });
  } catch (error) {
    if (!signal.aborted) await events.send({ kind: 'done', scope, error: toDpxError(error) });
  }
}
