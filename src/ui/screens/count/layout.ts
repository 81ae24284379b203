// The count matrix's columns as drawn: the unit (with its tree indent) and the total stay on the left,
// the values scroll with `>` `<`. The values that mean trouble come first (failed, then warning, as the
// status vocabulary reads them), then the others by how many records they hold, unless the reader sorts
// them by name (`s`) or gave the values (their order is then theirs). Widths come from the labels and
// the counts themselves.
import type { CountPlan } from '../../../api/fanout/count.js';
import type { DpxError } from '../../../api/errors.js';
import { statusMeaning } from '../../../api/hal/status.js';
import { cellWidth, formatCount, oneLine } from '../../../text/cells.js';
import type { TableShape } from '../../scroll-keys.js';
import type { Header } from './names.js';

export type CellValue = number | DpxError | 'changed' | undefined;

/** What the layout reads of the matrix's state. */
export interface MatrixData {
  plan: CountPlan;
  /** A row's cell, by its index (see columnOrder). */
  value(row: number, cell: number): CellValue;
  /** Whether `other` has a column. */
  other: boolean;
  /** The unit column's text of each row. */
  names: readonly string[];
  /** `s`: the values by name, not by what they mean and hold. */
  byName?: boolean;
  /** A value's header other than its label: a name beside an id (count/names.ts). */
  header?(cell: number): Header | undefined;
}

/** Cells between two columns. */
export const GAP = 1;
/** Room for `✗ error`, `changed`, a count and its bar: a column is never narrower. */
const MIN_CELL = 7;
const TROUBLE = ['failed', 'warning'] as const;

/** Where a value stands: trouble first (failed before warning), then everything else. */
function troubleRank(value: unknown): number {
  const at = typeof value === 'string' ? TROUBLE.indexOf(statusMeaning(value) as (typeof TROUBLE)[number]) : -1;
  return at === -1 ? TROUBLE.length : at;
}

/** The records a value's column holds in the top rows (each control plane's root), as far as answered. */
function heldByTop(data: MatrixData, tops: readonly number[], column: number): number {
  return tops.reduce((sum, row) => {
    const count = data.value(row, column);
    return sum + (typeof count === 'number' ? count : 0);
  }, 0);
}

/**
 * The cells in the order drawn, by their index in the state (a value's index in the plan; the total is
 * `plan.columns.length`, other one more): the total, the values, then other.
 */
export function columnOrder(data: MatrixData): number[] {
  const { plan } = data;
  const values = plan.columns.map((_, index) => index);
  const label = (cell: number) => data.header?.(cell)?.text ?? plan.columns[cell]!.label;
  if (data.byName) values.sort((a, b) => label(a).localeCompare(label(b)));
  else if (plan.valuesFrom !== 'given') {
    // The top rows found once, not once per column: a matrix of 266 units by 200 values is drawn often.
    const tops = plan.rows.flatMap((row, index) => (row.scope.depth === 0 ? [index] : []));
    const held = values.map((index) => heldByTop(data, tops, index));
    values.sort(
      (a, b) =>
        troubleRank(plan.columns[a]!.value) - troubleRank(plan.columns[b]!.value) || held[b]! - held[a]! || a - b,
    );
  }
  return [plan.columns.length, ...values, ...(data.other ? [plan.columns.length + 1] : [])];
}

/** A column's header cut to `width`: the value's name beside its id where it has one, else its label. */
export function headerText(data: MatrixData, cell: number, width: number): string {
  const header = data.header?.(cell);
  return header ? header.cut(width) : labelOf(data.plan, cell);
}

/** A column's label: the value's, or total, or other. */
export function labelOf(plan: CountPlan, cell: number): string {
  return cell < plan.columns.length
    ? oneLine(plan.columns[cell]!.label)
    : cell === plan.columns.length
      ? 'total'
      : 'other';
}

/** The text of a count as drawn, without its bar: `1,193*` where dpx counted it. */
export function countText(value: number, mark: string): string {
  return `${formatCount(value)}${mark}`;
}

/** The matrix as the column window sees it: the unit column, then the cells in `order`. */
export function matrixShape(data: MatrixData, order: readonly number[], room: number): TableShape {
  const unit = Math.max(cellWidth('PROFILE · UNIT'), ...data.names.map((name) => cellWidth(oneLine(name))));
  const widths = order.map((cell) => {
    const counts = data.plan.rows
      .map((_, row) => data.value(row, cell))
      .filter((value): value is number => typeof value === 'number');
    // A count, `*` where dpx counted it, a space and its bar.
    const longest = Math.max(0, ...counts.map((count) => countText(count, '*').length + 2));
    const header = data.header?.(cell);
    return Math.max(MIN_CELL, header ? header.width : cellWidth(labelOf(data.plan, cell)), longest);
  });
  return { widths: [unit, ...widths], frozen: 2, room, gap: GAP };
}
