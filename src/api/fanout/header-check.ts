// A unit header the server ignores answers every unit with the whole list: a support engineer would read
// 19,686 as the count of a unit that holds 599. Where every unit below the top of the tree counts exactly
// what the list counts without a unit, and that is not 0, the reader is told once that the answers may
// not be scoped. (One unit that really holds every record of the list would look the same: the notice
// says "may".)
import type { Scope, Source } from './scopes.js';

export interface ScopeTotal {
  scope: Scope;
  total: number | undefined;
}

/** Whether the scope's unit is the one root of its control plane's tree: its scope is everything. */
export function coversAll(scope: Scope): boolean {
  return scope.ou !== null && scope.units?.coversAll(scope.ou) === true;
}

/** The scopes of units that are only part of the tree (known from the unit list), with a total. */
export function partOfTree(totals: readonly ScopeTotal[]): ScopeTotal[] {
  return totals.filter(
    ({ scope, total }) => total !== undefined && scope.ou !== null && scope.units !== undefined && !coversAll(scope),
  );
}

/**
 * The notice for one control plane, when each of `part` (units that are only part of the tree) counts
 * `whole` (the list without a unit, or the root's), and that is more than 0.
 */
export function unscopedNotice(
  source: Source,
  part: readonly ScopeTotal[],
  whole: number | undefined,
  options: { several: boolean },
): string | undefined {
  if (part.length === 0 || whole === undefined || whole === 0 || part.some(({ total }) => total !== whole))
    return undefined;
  const one = part.length === 1;
  const unit = part[0]!.scope;
  const who = one ? `${unit.ouName ?? unit.ou} counts` : `all ${part.length} units below the top count`;
  const plane = options.several ? `${source.profile ?? source.session.baseUrl}: ` : '';
  return (
    `${plane}${who} ${whole.toLocaleString('en-US')}, as many as the list without a unit, ` +
    `though ${one ? 'it is' : 'they are'} only part of the tree: ` +
    `the server may ignore the header ${source.session.ouHeader}, ` +
    `and ${one ? 'this answer is' : 'these answers are'} not scoped (--ou-header names the header it reads)`
  );
}
