// Counting a resource's records across control planes and units: one row per (control plane, unit),
// one cell per value of a field, each the count the server reports for that unit's scope (the unit and
// its descendants). A cell costs one request for a page of one record when the list reports
// total_count; a list that reports no count is walked page by page, and a notice says so. Results arrive
// as events, cell by cell, so a screen can fill the matrix in as the answers come.
import { setMaxListeners } from 'node:events';
import { Channel } from '../channel.js';
import { DpxError, toDpxError, UsageError } from '../errors.js';
import { isObject, scalarText } from '../json.js';
import { resolveOperation } from '../hal/operation.js';
import { envelopeCount, listRequest, readPage, walkPages, type PageAnswer } from '../session/pages.js';
import { fieldEnum } from '../hal/schemas.js';
import { planScopes, type Scope, type Source, type UnitChoice } from './scopes.js';
import type { Session } from '../session/session.js';
import { distinctValues } from '../hal/suggestions.js';

/** A value a field is counted by: what `{"$eq": value}` compares with. */
export type CountValue = string | number | boolean | null;

export interface CountQuery {
  resource: string;
  version?: string;
  operationId?: string;
  /** A JSON filter object, as text, that narrows every count. */
  filter?: string;
  /** The field whose values make the columns; without one, each row has only its total. */
  by?: string;
  /** The values to count; by default the record schema's list of them, else those seen on one page. */
  values?: readonly CountValue[];
  units?: UnitChoice;
  /** Records per page when a list must be walked or values sampled (default 100). */
  pageSize?: number;
}

export interface CountColumn {
  value: CountValue;
  label: string;
}

/** The list a row is counted in: its control plane's resource, version and list operation. */
export interface CountTarget {
  resource: string;
  version: string;
  operationId: string;
}

export interface CountRow {
  scope: Scope;
  /** Absent when the control plane could not be asked at all (see `error`). */
  target?: CountTarget;
  /** Why the row has no counts: its control plane's index or units could not be read. */
  error?: DpxError;
}

export interface CountPlan {
  by?: string;
  filter?: string;
  columns: CountColumn[];
  /** Where the columns came from: the caller, the record schema, or one page of records. */
  valuesFrom?: 'given' | 'schema' | 'page';
  rows: CountRow[];
}

export type CountEvent =
  /** Rows and columns, before any count. */
  | { kind: 'plan'; plan: CountPlan }
  /** One count, or why it failed; `column` is undefined for the total of a count without `by`. */
  | { kind: 'cell'; row: number; column?: number; count?: number; error?: DpxError }
  /** Every cell of the row has answered; `total` is the sum of its columns when all of them have a count. */
  | { kind: 'row'; row: number; counts: (number | undefined)[]; total?: number; error?: DpxError }
  /** Something the reader should be told once: a list that reports no count is being walked. */
  | { kind: 'notice'; message: string };

const DEFAULT_PAGE_SIZE = 100;

/** One column of every row: the filter its requests carry; no column for the total of a count without `by`. */
interface Cell {
  filter: Record<string, unknown> | undefined;
  column?: number;
}

/**
 * The counts of `query` in every scope of `sources`: a plan first, then cells as they are answered and a
 * row event when a row is complete. One failing control plane or unit fails its rows, never the others;
 * only when every control plane refuses the question itself (unknown resource) is that thrown instead.
 * Requests go through each session's limiter; stopping the iteration or `signal` cancels what is left.
 */
export async function* countMatrix(sources: readonly Source[], query: CountQuery, options: { signal?: AbortSignal } = {}): AsyncGenerator<CountEvent> {
  const baseFilter = checkedFilter(query.filter, query.by);
  const stop = new AbortController();
  // Every request waiting for a slot listens to this one signal: hundreds of listeners are expected.
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const planes = await Promise.all(sources.map((source) => discover(source, query, stop.signal)));
    const failures = planes.map((plane) => plane.error);
    if (failures.length > 0 && failures.every((error) => error instanceof UsageError)) throw failures[0];
    const plan = makePlan(query, planes);
    yield { kind: 'plan', plan };

    const events = new Channel<CountEvent>();
    const counters = new Map(planes.map((plane) => [plane.source, new PlaneCounter(plane.source.session, query.pageSize ?? DEFAULT_PAGE_SIZE, events)]));
    const cells: Cell[] = plan.by === undefined
      ? [{ filter: baseFilter }]
      : plan.columns.map((column, index) => ({ filter: filterWithValue(baseFilter, plan.by!, column.value), column: index }));
    const rows = plan.rows.map((row, index) => countRow(row, index, cells, counters.get(row.scope.source)!, events, stop.signal));
    void Promise.all(rows).then(() => events.close(), (error: unknown) => events.close(error));
    yield* events;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}

/** The filter of one cell: the query's filter ANDed with `{by: {"$eq": value}}`. */
export function cellFilter(plan: CountPlan, column: number | undefined): string | undefined {
  const base = checkedFilter(plan.filter, plan.by);
  const value = column === undefined || plan.by === undefined ? undefined : plan.columns[column];
  return value === undefined ? (base === undefined ? undefined : JSON.stringify(base)) : JSON.stringify(filterWithValue(base, plan.by!, value.value));
}

/**
 * The query's filter as an object, checked before anything is sent. With `by`, the field's own condition
 * must leave room for `$eq`: the spec gives no way to AND two equalities on one field.
 */
function checkedFilter(text: string | undefined, by: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the filter is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, `quote it for the shell, e.g. --filter '{"name":{"$contains":"a"}}'`);
  }
  if (!isObject(parsed)) throw new UsageError('the filter must be a JSON object of fields and conditions to be counted', `e.g. --filter '{"name":{"$contains":"a"}}'`);
  if (by !== undefined && by in parsed) {
    const own = parsed[by];
    if (!isObject(own) || '$eq' in own) {
      throw new UsageError(`the filter already asks for one value of ${by}, so it cannot be counted by ${by}`, `leave ${by} out of --filter, or pick its values with --values`);
    }
  }
  return parsed;
}

/**
 * `{field: {"$eq": value}}` ANDed with a filter. The spec calls the filter "a JSON filter expression" and
 * says no more; the conjunction a server of this API is known to read is the object itself: each key is
 * a condition and all of them must hold, several operators on one field included (the demo's grammar).
 * So the condition joins as a key, or as one more operator of the field's condition — never as `$and`,
 * which nothing says a server understands.
 */
export function filterWithValue(filter: Record<string, unknown> | undefined, field: string, value: CountValue): Record<string, unknown> {
  const own = filter?.[field];
  return { ...filter, [field]: { ...(isObject(own) ? own : {}), $eq: value } };
}

interface PlaneDiscovery {
  source: Source;
  scopes: Scope[];
  target?: CountTarget;
  values?: CountValue[];
  valuesFrom?: 'schema' | 'page';
  error?: DpxError;
}

/** One control plane's part of the plan: its list operation, its scopes and, when needed, its values. */
async function discover(source: Source, query: CountQuery, signal: AbortSignal): Promise<PlaneDiscovery> {
  try {
    const { resource, version, operation } = resolveOperation(await source.session.catalog(), query);
    const target = { resource: resource.name, version: version.version, operationId: operation.id };
    const scopes = await planScopes(source, query.units, { signal });
    if (query.by === undefined || query.values !== undefined) return { source, scopes, target };
    const listed = fieldEnum(target.resource, target.version, query.by)?.filter(isCountValue);
    if (listed && listed.length > 0) return { source, scopes, target, values: listed, valuesFrom: 'schema' };
    const values = await sampleValues(source.session, target, scopes[0]!, query, signal);
    return { source, scopes, target, values, valuesFrom: 'page' };
  } catch (error) {
    return { source, scopes: [], error: toDpxError(error) };
  }
}

/** The values of `by` on one page of the plane's first scope (the widest, in tree order), most common first. */
async function sampleValues(session: Session, target: CountTarget, scope: Scope, query: CountQuery, signal: AbortSignal): Promise<CountValue[]> {
  const request = await listRequest(session, { ...target, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE, ou: scope.ou, ...(query.filter ? { filter: query.filter } : {}) });
  const page = readPage(await session.send(request, { signal }));
  return distinctValues(page.items, query.by!);
}

function isCountValue(value: unknown): value is CountValue {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function makePlan(query: CountQuery, planes: PlaneDiscovery[]): CountPlan {
  const plan: CountPlan = { columns: [], rows: [] };
  if (query.by !== undefined) plan.by = query.by;
  if (query.filter) plan.filter = query.filter;
  if (query.values !== undefined) {
    plan.columns = columnsOf(query.values);
    plan.valuesFrom = 'given';
  } else if (query.by !== undefined) {
    plan.columns = columnsOf(planes.flatMap((plane) => plane.values ?? []));
    const from = planes.filter((plane) => plane.valuesFrom !== undefined).map((plane) => plane.valuesFrom);
    if (from.length > 0) plan.valuesFrom = from.includes('page') ? 'page' : 'schema';
  }
  for (const plane of planes) {
    if (plane.error || !plane.target) {
      plan.rows.push({ scope: { source: plane.source, ou: null, ouName: null, depth: 0, within: [] }, ...(plane.error ? { error: plane.error } : {}) });
      continue;
    }
    for (const scope of plane.scopes) plan.rows.push({ scope, target: plane.target });
  }
  return plan;
}

/** Values as columns, each once (by its text), in the order first given. */
function columnsOf(values: readonly CountValue[]): CountColumn[] {
  const columns = new Map<string, CountColumn>();
  for (const value of values) {
    const label = value === null ? 'null' : (scalarText(value) ?? JSON.stringify(value));
    if (!columns.has(label)) columns.set(label, { value, label });
  }
  return [...columns.values()];
}

/** Every cell of one row at once (the limiter paces them), then the row; nothing more once stopped. */
async function countRow(row: CountRow, index: number, cells: Cell[], counter: PlaneCounter, events: Channel<CountEvent>, signal: AbortSignal): Promise<void> {
  if (!row.target) {
    events.push({ kind: 'row', row: index, counts: [], ...(row.error ? { error: row.error } : {}) });
    return;
  }
  const target = row.target;
  const results = await Promise.all(cells.map(async ({ filter, column }) => {
    const at = column === undefined ? {} : { column };
    try {
      const count = await counter.count(target, row.scope, filter, signal);
      events.push({ kind: 'cell', row: index, ...at, count });
      return { count };
    } catch (error) {
      const failure = toDpxError(error);
      if (!signal.aborted) events.push({ kind: 'cell', row: index, ...at, error: failure });
      return { error: failure };
    }
  }));
  if (signal.aborted) return;
  const counts = results.map((result) => result.count);
  const error = results.find((result) => result.error)?.error;
  const event: CountEvent = { kind: 'row', row: index, counts, ...(error ? { error } : {}) };
  if (!error) event.total = counts.reduce<number>((sum, count) => sum + (count ?? 0), 0);
  events.push(event);
}

/** Counting in one control plane; remembers whether its list reports counts, so that only the first cells probe. */
class PlaneCounter {
  private reportsCounts: boolean | undefined;

  constructor(private readonly session: Session, private readonly pageSize: number, private readonly events: Channel<CountEvent>) {}

  async count(target: CountTarget, scope: Scope, filter: Record<string, unknown> | undefined, signal: AbortSignal): Promise<number> {
    const asked = { ...target, ou: scope.ou, ...(filter === undefined ? {} : { filter: JSON.stringify(filter) }) };
    if (this.reportsCounts !== false) {
      const request = await listRequest(this.session, { ...asked, pageSize: 1 });
      const response = await this.session.send(request, { signal, once: true });
      const count = reportedCount(response);
      if (count !== undefined) {
        this.reportsCounts = true;
        return count;
      }
      if (this.reportsCounts === undefined) {
        this.reportsCounts = false;
        this.events.push({ kind: 'notice', message: `${target.resource} at ${this.session.baseUrl} reports no total_count: counting by walking every page` });
      }
    }
    let count = 0;
    const first = await listRequest(this.session, { ...asked, pageSize: this.pageSize });
    for await (const page of walkPages(this.session, first, { signal })) count += page.items.length;
    return count;
  }
}

/**
 * The count a page of one record gives: `total_count`; else, since each page holds one record,
 * `total_pages_count`; else none — unless the page is empty and last, which says 0 by itself. The total
 * is all a count usually needs, so the page (its items, and links to resolve) is read only without one.
 */
function reportedCount(answer: PageAnswer): number | undefined {
  const total = isObject(answer.body) ? envelopeCount(answer.body, 'total_count') : undefined;
  if (total !== undefined) return total;
  const page = readPage(answer);
  if (page.items.length === 0 && !page.links.has('next')) return 0;
  if (page.totalPages !== undefined && page.items.length === 1) return page.totalPages;
  return undefined;
}
