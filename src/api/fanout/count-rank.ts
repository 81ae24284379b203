// The rows of a count in the order to print them: without the zeros (--nonzero), and with --sort in the
// column's order, each unit under the nearest chosen unit that holds it. Within one control plane a unit
// stays under its parent. Across several (regions), the units that hold others stand first as each
// region's summary, and the units below them are ranked as one table, so that the worst tenant of
// either region comes first; each keeps its own subtree under it.
import type { Scope } from './scopes.js';

/** What a row needs to be ranked: where it is, and its numbers. */
export interface RankedRow {
  profile: string | null;
  baseUrl: string;
  ouName: string | null;
  depth: number;
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
  const key = (row: T): number | string | undefined =>
    sort.column === 'unit'
      ? (row.ouName ?? '')
      : sort.column === 'total'
        ? row.total
        : sort.column === 'other'
          ? row.other
          : row.counts[column];
  const compare = (a: T, b: T): number => {
    const [x, y] = [key(a), key(b)];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    const order = typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y);
    return sort.descending ? -order : order;
  };
  const plane = (row: T) => `${row.baseUrl}\u0000${row.profile ?? ''}`;
  // A row's parent is the nearest chosen unit holding it, among the rows kept; else it is at the top.
  const children = new Map<number, number[]>();
  const tops: number[] = [];
  const position = new Map(kept.map(({ row, scope }, index) => [`${plane(row)}\u0000${scope?.ou ?? ''}`, index]));
  kept.forEach(({ row, scope }, index) => {
    const parent = scope?.within[0] === undefined ? undefined : position.get(`${plane(row)}\u0000${scope.within[0]}`);
    if (parent === undefined) tops.push(index);
    else children.set(parent, [...(children.get(parent) ?? []), index]);
  });
  const ordered: T[] = [];
  const visit = (siblings: number[]) => {
    for (const index of [...siblings].sort((a, b) => compare(kept[a]!.row, kept[b]!.row) || a - b)) {
      ordered.push(kept[index]!.row);
      visit(children.get(index) ?? []);
    }
  };
  const planes = new Set(tops.map((index) => plane(kept[index]!.row)));
  if (planes.size <= 1) {
    visit(tops);
    return ordered;
  }
  // Several regions: each region's top that holds others is its summary, in the regions' order; what it
  // holds is ranked with every other region's.
  const summaries = tops.filter((index) => children.has(index));
  for (const index of summaries) ordered.push(kept[index]!.row);
  const ranked = [
    ...tops.filter((index) => !children.has(index)),
    ...summaries.flatMap((index) => children.get(index)!),
  ];
  visit(ranked);
  return ordered;
}
