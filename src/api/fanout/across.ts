// One question asked of several control planes (regions) at once, each answering from its own units, and
// merged. Every source is asked as if it were asked alone: with every unit and every page, the root's
// list read once (each record placed in the unit it names, from that region's own unit tree); else the
// per-unit fan-out. The sources run side by side and their pages are given out as they come, each record
// with the scope it belongs to, so the caller can say which region and unit every record is from. What
// each source cost (records, requests) is kept per source, so that a merged answer can be checked
// against the same question asked region by region (AcrossTally, which also keeps the records, counts
// the groups and applies a limit across every region).
import type { Channel } from '../channel.js';
import { toDpxError, type DpxError } from '../errors.js';
import type { Page } from '../session/page.js';
import { fanOutList, type FanOutQuery } from './fanout.js';
import { type GroupCounter, placeInScope } from './groups.js';
import { coversAll, partOfTree, type ScopeTotal, unscopedNotice } from './header-check.js';
import { readOnce } from './read-once.js';
import type { Scope, Source } from './scopes.js';
import { sideBySide } from './side-by-side.js';
import type { UnitDirectory } from './unit-names.js';

export type AcrossEvent =
  /** A source's planned scopes (the units read one by one); none, and `once`, when its root's list is read once. */
  | { kind: 'scopes'; source: Source; scopes: Scope[]; once?: true }
  /** One page of a source, each record with the scope it belongs to; `read` is the unit's scope the page was read in. */
  | {
      kind: 'page';
      source: Source;
      page: Page;
      records: { record: Record<string, unknown>; scope: Scope }[];
      read?: Scope;
    }
  /** A scope has no more pages, or failed. */
  | { kind: 'done'; scope: Scope; error?: DpxError }
  /** A source could not be asked at all. */
  | { kind: 'failed'; source: Source; error: DpxError }
  /** What a source's read found, in a line a person reads (how its records were placed). */
  | { kind: 'note'; source: Source; message: string };

/** What one source's part of the answer cost. */
export interface SourceCost {
  source: Source;
  records: number;
  requests: number;
  failed: boolean;
}

/**
 * The answer of `query` from every source, as events. When every source refuses the question itself (an
 * unknown resource), that is thrown instead of reported per source. Stopping the iteration or `signal`
 * cancels every request still open.
 */
export function askAcross(
  sources: readonly Source[],
  query: FanOutQuery,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<AcrossEvent> {
  return sideBySide(
    sources,
    (source, events, signal) => askOne(source, query, events, signal),
    (event) => event.kind !== 'failed' && event.kind !== 'note',
    options,
  );
}

async function askOne(
  source: Source,
  query: FanOutQuery,
  events: Channel<AcrossEvent>,
  signal: AbortSignal,
): Promise<void> {
  if (source.failure) {
    await events.send({ kind: 'failed', source, error: source.failure });
    return;
  }
  try {
    if (query.units === 'all' && query.all && (await readWhole(source, query, events, signal))) return;
  } catch (error) {
    if (!signal.aborted) await events.send({ kind: 'failed', source, error: toDpxError(error) });
    return;
  }
  try {
    for await (const event of fanOutList([source], query, { signal })) {
      if (event.kind === 'page')
        await events.send({
          kind: 'page',
          source,
          page: event.page,
          records: event.records.map((record) => ({ record, scope: event.scope })),
          read: event.scope,
        });
      else await events.send(event);
    }
  } catch (error) {
    if (!signal.aborted) await events.send({ kind: 'failed', source, error: toDpxError(error) });
  }
}

/** The root's list read once; false (nothing given out) where its records name no unit of the tree. */
async function readWhole(
  source: Source,
  query: FanOutQuery,
  events: Channel<AcrossEvent>,
  signal: AbortSignal,
): Promise<boolean> {
  const { units: _units, all: _all, ...target } = query;
  const once = await readOnce(source, target, {
    signal,
    note: (message) => events.push({ kind: 'note', source, message }),
    failed: (scope, error) => events.push({ kind: 'done', scope, error }),
  });
  if (once === undefined) return false;
  events.push({
    kind: 'note',
    source,
    message: `read once: the root's list, each record in the unit its ${once.unitField} names`,
  });
  await events.send({ kind: 'scopes', source, scopes: [], once: true });
  for await (const { page, records } of once.pages) await events.send({ kind: 'page', source, page, records });
  return true;
}

/** What the merged answer keeps: a condition applied here (a window the server refused), a limit, a group-by. */
export interface TallyOptions {
  keep?: (record: Record<string, unknown>) => boolean;
  maxItems?: number;
  /** Counted into groups instead of given out; `trees`: each region's units, for records read without a unit's scope. */
  groups?: { counter: GroupCounter; trees?: ReadonlyMap<Source, UnitDirectory> };
}

/**
 * The merged answer as its pages come: the records kept (at most `maxItems` across every region, not
 * per region), each region's records and requests, its groups, and each scope's total as its first page
 * gave it (an OU header the server ignores shows in them).
 */
export class AcrossTally {
  private readonly records = new Map<Source, number>();
  private readonly failures = new Set<Source>();
  private readonly totals = new Map<Scope, ScopeTotal>();
  private given = 0;
  pages = 0;

  constructor(
    private readonly sources: readonly Source[],
    private readonly options: TallyOptions = {},
  ) {}

  /** One page's records that the answer keeps: none when they are counted into groups. */
  take(event: Extract<AcrossEvent, { kind: 'page' }>): { record: Record<string, unknown>; scope: Scope }[] {
    const { keep, maxItems, groups } = this.options;
    this.pages += 1;
    const { read } = event;
    if (read !== undefined && !this.totals.has(read))
      this.totals.set(read, { scope: read, total: event.page.totalCount });
    const kept = keep === undefined ? event.records : event.records.filter(({ record }) => keep(record));
    const taken = kept.slice(0, maxItems === undefined ? kept.length : Math.max(0, maxItems - this.given));
    this.given += taken.length;
    this.records.set(event.source, (this.records.get(event.source) ?? 0) + taken.length);
    if (groups === undefined) return taken;
    for (const { record, scope } of taken)
      groups.counter.add(record, placeInScope(record, scope, scope.units ?? groups.trees?.get(event.source)));
    return [];
  }

  /** How many records were kept, across every region. */
  get kept(): number {
    return this.given;
  }

  /** Whether --max-items is reached. */
  get full(): boolean {
    return this.options.maxItems !== undefined && this.given >= this.options.maxItems;
  }

  fail(source: Source): void {
    this.failures.add(source);
  }

  costs(): SourceCost[] {
    return this.sources.map((source) => ({
      source,
      records: this.records.get(source) ?? 0,
      requests: source.session.traffic.requests,
      failed: this.failures.has(source),
    }));
  }

  /** Per region, the notice that its units' answers may not be scoped (header-check.ts). */
  unscopedNotices(): string[] {
    return this.sources.flatMap((source) => {
      const mine = [...this.totals.values()].filter(({ scope }) => scope.source === source);
      const whole = mine.find(({ scope, total }) => total !== undefined && coversAll(scope))?.total;
      const notice = unscopedNotice(source, partOfTree(mine), whole, { several: this.sources.length > 1 });
      return notice ? [notice] : [];
    });
  }
}
