// A count asked of several control planes (regions) as one question: each region's units counted as
// count.ts counts them, the rows kept as their numbers come, then ranked as one table across regions
// (count-rank.ts) and each region's cost given as `SourceCost`, like a list's (across.ts): its records (the
// totals of its top units) and its requests. Callers print or show the answer; `on` sees every event as
// it comes (progress, notices, a row's failure).
import type { SourceCost } from './across.js';
import { countMatrix } from './count.js';
import { type CountSort, rankRows } from './count-rank.js';
import type { CountEvent, CountPlan, CountQuery, PlaneStrategy } from './count-types.js';
import type { Scope, Source } from './scopes.js';
import { UsageError } from '../errors.js';

/** One row of the answer: its unit (its source names the profile) and its numbers, as far as they came. */
export interface CountAnswerRow {
  scope: Scope;
  ouName: string | null;
  /** One per column; undefined where that count failed or has not answered. */
  counts: (number | undefined)[];
  /** total − Σ counts; undefined without `by`, when a count failed, or when the numbers changed while counted. */
  other: number | undefined;
  /** The server's count for the unit's scope, or counted by dpx; undefined when it failed. */
  total: number | undefined;
  /** A number of the row was counted by dpx from every record: the list reports no count. */
  counted: boolean;
  /** A cell above the total, or columns adding up past it: the records changed while they were counted. */
  changed: boolean;
  error: string | undefined;
}

export interface CountAnswer {
  /** Undefined when the count stopped before its rows and columns were known. */
  plan: CountPlan | undefined;
  /** Ranked by `sort` across every region (each unit under its parent), without the zeros with `nonzero`. */
  rows: CountAnswerRow[];
  /** Per region: its records (the totals of its units no other chosen unit holds), requests, and whether a row failed. */
  costs: SourceCost[];
  /** Every region's requests. */
  requests: number;
  strategies: PlaneStrategy[];
  /** Rows whose numbers changed while they were counted (their other is left out). */
  changed: number;
  /** Whether any row failed. */
  failed: boolean;
  /** Stopped by the caller's signal: how many rows were counted of all; the others say `not counted: interrupted`. */
  interrupted?: { counted: number; rows: number };
}

export interface CountAcrossOptions {
  sort?: CountSort;
  nonzero?: boolean;
  /** Stops the count; the answer then holds the rows counted so far. */
  signal?: AbortSignal;
  /** Each event as it comes, after the answer has taken it. */
  on?: (event: CountEvent) => void;
}

/** The count of `query` in every source, merged, ranked and costed. A `sort` naming no column of the plan is refused. */
export async function countAcross(
  sources: readonly Source[],
  query: CountQuery,
  options: CountAcrossOptions = {},
): Promise<CountAnswer> {
  const { sort, signal, on } = options;
  let plan: CountPlan | undefined;
  const rows: CountAnswerRow[] = [];
  const strategies: PlaneStrategy[] = [];
  try {
    for await (const event of countMatrix(sources, query, signal ? { signal } : {})) {
      if (event.kind === 'plan') {
        plan = event.plan;
        if (sort) checkSort(sort.column, plan);
        for (const row of plan.rows) rows.push(answerRow(row.scope, plan.columns.length));
      } else if (event.kind === 'cell') {
        if (event.column !== undefined && event.count !== undefined)
          rows[event.row]!.counts[event.column] = event.count;
      } else if (event.kind === 'row') {
        const row = rows[event.row]!;
        row.counts = [...event.counts];
        row.total = event.total;
        row.other = event.other;
        row.counted = event.counted;
        row.changed = event.changed;
        row.error = event.error?.message;
      } else if (event.kind === 'strategy') strategies.push(event.strategy);
      on?.(event);
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
  const interrupted = signal?.aborted ? interrupt(rows) : undefined;
  return {
    plan,
    rows: rankRows(rows, plan?.rows.map((row) => row.scope) ?? [], plan?.columns.map((column) => column.label) ?? [], {
      ...(sort ? { sort } : {}),
      nonzero: options.nonzero === true,
    }),
    costs: regionCosts(sources, plan, rows),
    requests: sources.reduce((sum, source) => sum + source.session.traffic.requests, 0),
    strategies,
    changed: rows.filter((row) => row.changed).length,
    failed: rows.some((row) => row.error !== undefined),
    ...(interrupted ? { interrupted } : {}),
  };
}

/** The rows not counted when the count was stopped say so; the others stand as they are. */
function interrupt(rows: CountAnswerRow[]): CountAnswer['interrupted'] {
  const counted = rows.filter((row) => row.total !== undefined || row.error !== undefined).length;
  for (const row of rows)
    if (row.total === undefined && row.error === undefined) row.error = 'not counted: interrupted';
  return { counted, rows: rows.length };
}

function regionCosts(
  sources: readonly Source[],
  plan: CountPlan | undefined,
  rows: readonly CountAnswerRow[],
): SourceCost[] {
  return sources.map((source) => {
    let records = 0;
    let failed = false;
    plan?.rows.forEach(({ scope }, index) => {
      const row = rows[index];
      if (scope.source !== source || row === undefined) return;
      if (scope.depth === 0) records += row.total ?? 0;
      failed ||= row.error !== undefined;
    });
    return { source, records, requests: source.session.traffic.requests, failed };
  });
}

function answerRow(scope: Scope, columns: number): CountAnswerRow {
  return {
    scope,
    ouName: scope.ouName,
    counts: new Array<number | undefined>(columns).fill(undefined),
    other: undefined,
    total: undefined,
    counted: false,
    changed: false,
    error: undefined,
  };
}

function checkSort(column: string, plan: CountPlan): void {
  const known = ['unit', 'total', ...(plan.by === undefined ? [] : ['other', ...plan.columns.map((c) => c.label)])];
  if (!known.includes(column))
    throw new UsageError(`--sort ${column}: the matrix has no such column`, `its columns: ${known.join(', ')}`);
}
