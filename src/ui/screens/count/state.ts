// The count matrix's state, and what the screen, its rows and its drawing read of it: a row's cell, the
// unit column's text, the columns in the order drawn and their shape for the column window.
import type { CountPlan, RowCounts } from '../../../api/fanout/count.js';
import { unitLabel } from '../../../api/fanout/scopes.js';
import type { DpxError } from '../../../api/errors.js';
import type { QuickFiltered } from '../list/quick-filter.js';
import type { ScreenBase } from '../../nav/screen.js';
import type { Connection } from '../../services/connection.js';
import type { TableShape } from '../../scroll-keys.js';
import { columnOrder, matrixShape, type CellValue, type MatrixData } from './layout.js';
import { valueHeader, type NamedMatrix } from './names.js';

export interface CountParams {
  resource: string;
  by?: string;
  /** A server-side filter (JSON text) every count carries. */
  filter?: string;
  /** One of the planner's plans, forced (`:count … plan cells`); else the cheaper. */
  forcedPlan?: 'cells' | 'scan';
  /** A time window on the resource's own time field, as `--since` and `--until` read it (`24h`, `yesterday`). */
  since?: string;
  until?: string;
  /** Only the units down to this depth (root 0, tenants 1); each still counts its whole subtree. */
  depth?: number;
  /** `[-]COLUMN`: the rows by a value's column, total, other or unit, as `--sort` does (`-` descending). */
  sort?: string;
  /** Leave out the units whose total is 0. */
  nonzero?: boolean;
}

/** The rows' order: by a cell (a value's index in the plan, the total, other) or by the unit's name. */
export interface RowSort {
  cell: number | 'unit';
  descending: boolean;
}

export interface CountState extends ScreenBase, Omit<CountParams, 'sort'>, NamedMatrix, QuickFiltered {
  /** The control planes asked: the current one, then with `P` every profile's. */
  connections: Connection[];
  plan?: CountPlan;
  /** Counts by row, then column (the total's column is the last); an error in place of a count that failed. */
  cells: (number | DpxError | undefined)[][];
  /** Each row's numbers once all of them answered: `other`, and whether any was counted or changed. */
  results: (RowCounts | undefined)[];
  /** The current cell, by its index in a row's cells (the total is `plan.columns.length`, other one more). */
  column: number;
  /** The first value column scrolled to (`>` `<`), among the columns drawn (the unit is 0, the total 1). */
  left: number;
  /** `S`: the value columns by name instead of trouble first, then by count. */
  byName: boolean;
  /** `s` (or `sort` in the palette): the rows' order; a column named in the palette until the plan is known. */
  sort?: RowSort | { label: string; descending: boolean };
  /**
   * The plan's rows in the order last ranked: when the sort was chosen and when a count ended. While the
   * numbers fill in, the rows keep it.
   */
  ranking?: number[];
  stopping: AbortController;
  answered: number;
  /** The time window counted, in words (`created_timestamp ≥ 2026-11-27T17:32:04.326Z`). */
  windowText?: string;
  /** The requests the last count sent: what a recount would send again. */
  lastRequests?: number;
}

/** Whether `other` is shown: where a row's columns leave records out, or its numbers changed while counted. */
export function showsOther(state: CountState): boolean {
  return (
    state.plan?.by !== undefined &&
    state.results.some((result) => (result?.other !== undefined && result.other !== 0) || result?.changed === true)
  );
}

/** A row's cell: a count, an error, `changed` (other, when the numbers moved), or not in yet. */
export function cellOf(state: CountState, row: number, cell: number): CellValue {
  if (cell <= (state.plan?.columns.length ?? 0)) return state.cells[row]?.[cell];
  const result = state.results[row];
  return result?.changed ? 'changed' : result?.other;
}

/**
 * The unit column's text: the profile when there are several, the unit indented by its depth, by the end
 * of its path where another unit bears its name (the 40-tenant demo has 11 units named Warsaw).
 */
export function unitName(state: CountState, row: CountPlan['rows'][number]): string {
  const { scope } = row;
  const name = unitLabel(scope) ?? '(no unit)';
  return `${state.connections.length > 1 ? `${scope.source.profile ?? 'here'} · ` : ''}${'  '.repeat(scope.depth)}${name}`;
}

/** The columns in the order drawn and their shape for the window, `width` cells wide. */
export function layoutOf(
  state: CountState,
  plan: CountPlan,
  width: number,
): { data: MatrixData; order: number[]; shape: TableShape } {
  const data: MatrixData = {
    plan,
    other: showsOther(state),
    names: plan.rows.map((row) => unitName(state, row)),
    value: (row, cell) => cellOf(state, row, cell),
    byName: state.byName,
    header: (cell) => valueHeader(state, cell),
  };
  const order = columnOrder(data);
  return { data, order, shape: matrixShape(data, order, width) };
}
