// The rows of a count in the order to print them: without the zeros (--nonzero), and with --sort in the
// column's order as arrange.ts orders a tree (across regions, one ranking under the regions' summaries).
import { arrangeByTree, compareKeys, type SortKey } from './arrange.js';
import type { Scope } from './scopes.js';

/** What a row needs to be ranked: where it is, and its numbers. */
export interface RankedRow {
  ouName: string | null;
  counts: (number | undefined)[];
  other: number | undefined;
  total: number | undefined;
}

export interface CountSort {
  column: string;
  descending: boolean;
}

/** `rows[i]` was counted in `scopes[i]`; `columns` are the value columns' labels. */
export function rankRows<T extends RankedRow>(
  rows: readonly T[],
  scopes: readonly (Scope | undefined)[],
  columns: readonly string[],
  options: { sort?: CountSort; nonzero: boolean },
): T[] {
  let kept = rows.map((row, index) => ({ row, scope: scopes[index] }));
  if (options.nonzero) kept = kept.filter(({ row }) => row.total !== 0);
  const { sort } = options;
  if (!sort) return kept.map(({ row }) => row);
  const column = columns.indexOf(sort.column);
  const key = (row: T): SortKey =>
    sort.column === 'unit'
      ? (row.ouName ?? '')
      : sort.column === 'total'
        ? row.total
        : sort.column === 'other'
          ? row.other
          : row.counts[column];
  // A row with no scope (a control plane that failed before its units were known) has nothing to rank by: last.
  const placed = kept.filter((entry): entry is { row: T; scope: Scope } => entry.scope !== undefined);
  const order = arrangeByTree(
    placed.map(({ scope }) => scope),
    (a, b) => compareKeys(key(placed[a]!.row), key(placed[b]!.row), sort.descending),
  );
  return [
    ...order.map((index) => placed[index]!.row),
    ...kept.filter(({ scope }) => scope === undefined).map(({ row }) => row),
  ];
}
