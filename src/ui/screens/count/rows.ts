// The matrix's rows as shown: ranked by a column (`s`, or `sort` in the palette) with each unit under its
// parent, as `dpx count --sort` ranks them (api/fanout/count-rank.ts), without the units whose total is 0
// (`nonzero`), and narrowed by `/` to the units whose name or path holds the text typed. The ranking is made
// when the sort is chosen and when a count ends; while the numbers fill in, the rows keep it, and the cursor
// stays on its unit.
import { rankRows } from '../../../api/fanout/count-rank.js';
import { pathText } from '../../../api/fanout/unit-names.js';
import type { CountPlan } from '../../../api/fanout/count.js';
import { type CellValue, labelOf } from './layout.js';
import { unitName, cellOf, type CountState, type RowSort } from './state.js';

/** A `sort` named in the palette (`-failed`, `total`, `unit`), read against the plan's columns; undefined when it names none. */
export function sortOfLabel(plan: CountPlan, sort: { label: string; descending: boolean }): RowSort | undefined {
  const { label, descending } = sort;
  if (label === 'unit') return { cell: 'unit', descending };
  const cells = [...plan.columns.keys(), plan.columns.length, plan.columns.length + 1];
  const cell = cells.find((candidate) => labelOf(plan, candidate).toLowerCase() === label.toLowerCase());
  return cell === undefined ? undefined : { cell, descending };
}

/**
 * The rows' order now, by the plan's row index: ranked as `dpx count --sort` ranks them (rankRows, each unit
 * among its siblings, across regions one table under their totals), by the numbers on screen so far; else
 * tree order. Value columns are named by their index, so two values with one label stay apart.
 */
export function rank(state: CountState): number[] | undefined {
  const { plan, sort } = state;
  if (!plan || !sort || !('cell' in sort)) return undefined;
  const values = plan.columns.length;
  const number = (value: CellValue) => (typeof value === 'number' ? value : undefined);
  const rows = plan.rows.map((row, index) => ({
    index,
    ouName: unitName(state, row).trim(),
    counts: plan.columns.map((_, column) => number(cellOf(state, index, column))),
    total: number(cellOf(state, index, values)),
    other: number(cellOf(state, index, values + 1)),
  }));
  const column = sort.cell === 'unit' ? 'unit' : sort.cell < values ? String(sort.cell) : labelOf(plan, sort.cell);
  return rankRows(
    rows,
    plan.rows.map((row) => row.scope),
    plan.columns.map((_, index) => String(index)),
    { sort: { column, descending: sort.descending }, nonzero: false },
  ).map((row) => row.index);
}

/** Text to find in: lower case, a path's separators (`/`, `›`) without the spaces around them. */
const plain = (text: string) => text.toLowerCase().replace(/\s*([/›])\s*/g, '/');

/** Whether a row stays: a total of 0 is left out with `nonzero`, and `/` keeps the units whose name or path holds its text. */
function kept(state: CountState, row: number): boolean {
  const { plan, nonzero, localFilter } = state;
  const scope = plan!.rows[row]!.scope;
  if (nonzero && cellOf(state, row, plan!.columns.length) === 0) return false;
  if (!localFilter) return true;
  const needle = plain(localFilter);
  return [scope.ouName ?? '', pathText(scope.path), unitName(state, plan!.rows[row]!), scope.source.profile ?? ''].some(
    (text) => plain(text).includes(needle),
  );
}

/** The plan's rows shown, in order: the ranking kept (tree order without one), less those left out. */
export function shownRows(state: CountState): number[] {
  const { plan } = state;
  if (!plan) return [];
  const order = state.ranking?.length === plan.rows.length ? state.ranking : plan.rows.map((_, index) => index);
  return order.filter((row) => kept(state, row));
}

/** A new ranking, with the cursor kept on the unit it was on. */
export function reranked(state: CountState): Pick<CountState, 'ranking' | 'cursor'> {
  const before = shownRows(state)[state.cursor];
  const ranking = rank(state);
  const after = shownRows({ ...state, ranking });
  const cursor = before === undefined ? 0 : Math.max(0, after.indexOf(before));
  return { ranking, cursor };
}
