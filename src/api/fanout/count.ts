// Counting a resource's records across control planes and units: one row per (control plane, unit),
// one cell per value of a field, and the row's total — each the count the server reports for that
// unit's scope (the unit and its descendants). The total is asked for itself, never added up from the
// columns, and what the columns leave out is `other`. A cell costs one request for a page of one record
// when the list reports total_count; a list that reports no count is read whole, unit by unit, and its
// numbers are marked counted. Results arrive as events, cell by cell, so a screen can fill the matrix
// in as the answers come. How a row is counted is PlaneCounter's choice, so that another plan (one scan
// of the root's list, rolled up the tree) can answer the same events.
import { setMaxListeners } from 'node:events';
import { Channel } from '../channel.js';
import { type DpxError, toDpxError, UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { resolveOperation } from '../hal/operation.js';
import { planScopes, wholeScope, type Scope, type Source } from './scopes.js';
import { coversAll, partOfTree, unscopedNotice } from './header-check.js';
import { PlaneCounter, rowCounts } from './count-cells.js';
import { surveyValues, valueLabel, type CountValue, type ValueSurvey } from './count-values.js';
import { scanForColumns, settlePlans, type RowCounter } from './count-plan.js';
import type { ScanResult } from './scan.js';
import type {
  Answer,
  Cell,
  CountColumn,
  CountEvent,
  CountPlan,
  CountQuery,
  CountRow,
  CountTarget,
  RowCounts,
} from './count-types.js';

export type { CountValue, ValueSurvey } from './count-values.js';
export type {
  CountColumn,
  CountEvent,
  CountPlan,
  CountQuery,
  CountRow,
  CountTarget,
  PlaneStrategy,
  PlanMode,
  RowCounts,
  Verification,
} from './count-types.js';

const DEFAULT_PAGE_SIZE = 100;

/**
 * The counts of `query` in every scope of `sources`: a plan first, then cells as they are answered and a
 * row event when a row is complete. One failing control plane or unit fails its rows, never the others;
 * only when every control plane refuses the question itself (unknown resource) is that thrown instead.
 * Requests go through each session's limiter; stopping the iteration or `signal` cancels what is left.
 */
export async function* countMatrix(
  sources: readonly Source[],
  query: CountQuery,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<CountEvent> {
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
    // A condition applied here can be counted only by reading every record: no scan of the server's to check.
    const scanned = new Map(planes.flatMap((plane) => (plane.scan ? [[plane.source, plane.scan] as const] : [])));
    const scans = yield* settlePlans(plan, query.keep ? { ...query, plan: 'cells' } : query, stop.signal, scanned);
    if (query.explain) return;

    const events = new Channel<CountEvent>();
    const counters = new Map(
      planes.map((plane) => [
        plane.source,
        new PlaneCounter(plane.source.session, query.pageSize ?? DEFAULT_PAGE_SIZE, plan.by, events, query.keep),
      ]),
    );
    const cells: Cell[] =
      plan.by === undefined
        ? []
        : plan.columns.map((column, index) => ({
            filter: filterWithValue(baseFilter, plan.by!, column.value),
            column: index,
            label: column.label,
          }));
    const rows = plan.rows.map((row, index) =>
      countRow(
        row,
        index,
        baseFilter,
        cells,
        scans.get(row.scope.source) ?? counters.get(row.scope.source)!,
        events,
        stop.signal,
      ),
    );
    void Promise.all(rows)
      .then(async (counted) => {
        for (const notice of await unscopedAnswers(plan.rows, counted, baseFilter, counters, stop.signal))
          events.push({ kind: 'notice', message: notice });
      })
      .then(
        () => events.close(),
        (error: unknown) => events.close(error),
      );
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
  return value === undefined
    ? base === undefined
      ? undefined
      : JSON.stringify(base)
    : JSON.stringify(filterWithValue(base, plan.by!, value.value));
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
    throw new UsageError(
      `the filter is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      `quote it for the shell, e.g. --filter '{"name":{"$contains":"a"}}'`,
    );
  }
  if (!isObject(parsed))
    throw new UsageError(
      'the filter must be a JSON object of fields and conditions to be counted',
      `e.g. --filter '{"name":{"$contains":"a"}}'`,
    );
  if (by !== undefined && by in parsed) {
    const own = parsed[by];
    if (!isObject(own) || '$eq' in own) {
      throw new UsageError(
        `the filter already asks for one value of ${by}, so it cannot be counted by ${by}`,
        `leave ${by} out of --filter, or pick its values with --values`,
      );
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
export function filterWithValue(
  filter: Record<string, unknown> | undefined,
  field: string,
  value: CountValue,
): Record<string, unknown> {
  const own = filter?.[field];
  return { ...filter, [field]: { ...(isObject(own) ? own : {}), $eq: value } };
}

interface PlaneDiscovery {
  source: Source;
  scopes: Scope[];
  target?: CountTarget;
  values?: CountValue[];
  survey?: ValueSurvey;
  /** A forced scan read before the plan, whose records gave the values. */
  scan?: ScanResult;
  error?: DpxError;
}

/** One control plane's part of the plan: its list operation, its scopes and, when needed, its values. */
async function discover(source: Source, query: CountQuery, signal: AbortSignal): Promise<PlaneDiscovery> {
  try {
    if (source.failure) throw source.failure;
    const { resource, version, operation } = resolveOperation(await source.session.catalog(), query);
    const target = { resource: resource.name, version: version.version, operationId: operation.id };
    const scopes = await planScopes(source, query.units, { signal });
    if (query.by === undefined || query.values !== undefined || query.explain) return { source, scopes, target };
    if (query.plan === 'scan' && !query.keep) {
      const filter = query.filter ? { filter: query.filter } : {};
      const scanned = await scanForColumns(scopes, { ...target, ...filter }, query.by, source.session, signal);
      if (scanned) return { source, scopes, target, ...scanned };
    }
    const root = rootScope(source, scopes);
    const { values, survey } = await surveyValues(
      source.session,
      target,
      root,
      {
        by: query.by,
        pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE,
        ...(query.filter ? { filter: query.filter } : {}),
      },
      signal,
    );
    return { source, scopes, target, values, survey };
  } catch (error) {
    return { source, scopes: [], error: toDpxError(error) };
  }
}

/** The list whose values make the columns: the one chosen unit that holds every other, else no unit (all the token sees). */
function rootScope(source: Source, scopes: Scope[]): Scope {
  const roots = scopes.filter((scope) => scope.depth === 0);
  return roots.length === 1 ? roots[0]! : wholeScope(source);
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
    const surveys = planes.flatMap((plane) => (plane.survey ? [plane.survey] : []));
    if (surveys.length > 0) {
      plan.valuesFrom = {
        schema: surveys.some((survey) => survey.schema),
        pages: surveys.reduce((sum, survey) => sum + survey.pages, 0),
        everyPage: surveys.every((survey) => survey.everyPage),
        mayMiss: surveys.some((survey) => survey.mayMiss),
      };
    }
  }
  for (const plane of planes) {
    if (plane.error || !plane.target) {
      plan.rows.push({ scope: wholeScope(plane.source), ...(plane.error ? { error: plane.error } : {}) });
      continue;
    }
    for (const scope of plane.scopes) {
      if (query.depth === undefined || scope.depth <= query.depth) plan.rows.push({ scope, target: plane.target });
    }
  }
  return plan;
}

/** Values as columns, each once (by its text), in the order first given. */
function columnsOf(values: readonly CountValue[]): CountColumn[] {
  const columns = new Map<string, CountColumn>();
  for (const value of values) {
    const label = valueLabel(value);
    if (!columns.has(label)) columns.set(label, { value, label });
  }
  return [...columns.values()];
}

/** The row's total and every cell of it, then the row; nothing more once stopped. */
async function countRow(
  row: CountRow,
  index: number,
  base: Record<string, unknown> | undefined,
  cells: Cell[],
  counter: RowCounter,
  events: Channel<CountEvent>,
  signal: AbortSignal,
): Promise<RowCounts | undefined> {
  if (!row.target) {
    const failed: RowCounts = {
      counts: [],
      counted: false,
      changed: false,
      ...(row.error ? { error: row.error } : {}),
    };
    events.push({ kind: 'row', row: index, ...failed });
    return failed;
  }
  const answered = (column: number | undefined, answer: Answer) => {
    if (signal.aborted) return;
    const at = column === undefined ? {} : { column };
    events.push({ kind: 'cell', row: index, ...at, ...answer });
  };
  const { total, columns } = await counter.row(row.target, row.scope, base, cells, answered, signal);
  if (signal.aborted) return undefined;
  const result = rowCounts(total, columns, cells.length > 0);
  events.push({ kind: 'row', row: index, ...result });
  return result;
}

/**
 * A header the server ignores gives every unit the whole list: where the units below the root all count
 * exactly what the list counts without a unit (the root's own total, else one more request), each
 * control plane where that happened is named once.
 */
async function unscopedAnswers(
  rows: readonly CountRow[],
  counted: readonly (RowCounts | undefined)[],
  base: Record<string, unknown> | undefined,
  counters: ReadonlyMap<Source, PlaneCounter>,
  signal: AbortSignal,
): Promise<string[]> {
  const notices: string[] = [];
  for (const [source, counter] of counters) {
    const totals = rows.flatMap((row, index) =>
      row.scope.source === source && row.target
        ? [{ scope: row.scope, total: counted[index]?.total, target: row.target }]
        : [],
    );
    const part = partOfTree(totals);
    if (part.length === 0) continue;
    let whole = totals.find(({ scope, total }) => total !== undefined && coversAll(scope))?.total;
    // Asked only of a list that reports counts, and only when the answers look alike.
    if (whole === undefined && counter.knowsCounts === true && part.every(({ total }) => total === part[0]!.total)) {
      whole = await counter.serverCount(totals[0]!.target, wholeScope(source), base, signal).catch(() => undefined);
    }
    const notice = unscopedNotice(source, part, whole, { several: counters.size > 1 });
    if (notice) notices.push(notice);
  }
  return notices;
}
