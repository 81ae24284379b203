// The rows of a count in the order asked for (`dpx count --sort`, `s` in the explorer's matrix): each
// unit's children in the column's order, a unit under its nearest parent among the rows kept. Across
// several control planes (regions) their summaries stand first and their units are ranked as one table.
// A row with no number yet goes last, whichever way the sort runs.
import type { Scope } from './scopes.js';

/** A row's key for a sort: a count, a unit's name, or nothing (not counted, or it failed). */
export type SortKey = number | string | undefined;

/** Orders two keys: texts by locale, numbers by size, `descending` the other way; a missing key last. */
export function compareKeys(x: SortKey, y: SortKey, descending: boolean): number {
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
  const order = typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y);
  return descending ? -order : order;
}

const planeOf = (scope: Scope) => `${scope.source.session.baseUrl}\u0000${scope.source.profile ?? ''}`;

/**
 * The positions of `scopes` (a subset of a plan's rows, in tree order) in the order to show: siblings by
 * `compare` (ties in tree order), each followed by its children; without `compare`, tree order.
 */
export function arrangeByTree(scopes: readonly Scope[], compare?: (a: number, b: number) => number): number[] {
  if (!compare) return scopes.map((_, index) => index);
  const position = new Map(scopes.map((scope, index) => [`${planeOf(scope)}\u0000${scope.ou ?? ''}`, index]));
  const children = new Map<number, number[]>();
  const tops: number[] = [];
  scopes.forEach((scope, index) => {
    // The nearest chosen unit holding it among the rows kept; none: it is at the top.
    const parent = scope.within
      .map((ou) => position.get(`${planeOf(scope)}\u0000${ou}`))
      .find((at) => at !== undefined);
    if (parent === undefined) tops.push(index);
    else children.set(parent, [...(children.get(parent) ?? []), index]);
  });
  const ordered: number[] = [];
  const visit = (siblings: number[]) => {
    for (const index of [...siblings].sort((a, b) => compare(a, b) || a - b)) {
      ordered.push(index);
      visit(children.get(index) ?? []);
    }
  };
  const planes = new Set(tops.map((index) => planeOf(scopes[index]!)));
  if (planes.size <= 1) {
    visit(tops);
    return ordered;
  }
  // Several control planes (regions): each region's top row that holds others stands first as its summary,
  // in the regions' order; what they hold is ranked as one table, so the worst unit of either comes first.
  const summaries = tops.filter((index) => children.has(index));
  ordered.push(...summaries);
  visit([...tops.filter((index) => !children.has(index)), ...summaries.flatMap((index) => children.get(index)!)]);
  return ordered;
}
