// Where one question is asked when it goes to several control planes and units at once: a source (one
// session, named by its profile) and the units chosen in it, in tree order. Each scope knows which of the
// other chosen units hold it, so answers can be indented, tagged with where they came from, and told
// apart when an ancestor's scope holds a descendant's records too.
import { UsageError, type DpxError } from '../errors.js';
import type { Session } from '../session/session.js';
import { UnitDirectory } from './unit-names.js';
import { isUuid, loadUnits, parentCycles, type OrgUnit } from './units.js';

/** One control plane: its session, and the profile it was made from (none when flags or the environment made it). */
export interface Source {
  session: Session;
  profile?: string;
  /** Why the source could not even be opened (its profile's token file is gone): its one row says so, and it is never asked. */
  failure?: DpxError;
}

/** Which units: every unit the index lists, these (ids, names or paths), or (undefined) the session's own unit or none. */
export type UnitChoice = 'all' | readonly string[] | undefined;

export interface Scope {
  source: Source;
  /** The unit its requests name in the OU header; null for none (all the token sees). */
  ou: string | null;
  /** The unit's name, or its id when the index does not name it; null when there is no unit. */
  ouName: string | null;
  /** How many of the chosen units hold this one. */
  depth: number;
  /** Ids of the chosen units that hold this one, nearest first. */
  within: string[];
  /** The unit names from the root down to this unit, its own last; empty for no unit. */
  path: readonly string[];
  /** Every unit of its control plane, with their paths; undefined when the index offers no unit list. */
  units?: UnitDirectory;
}

/** Where a record or a count came from, as the command line prints it (`_context`). */
export interface ScopeContext {
  profile: string | null;
  base_url: string;
  ou: string | null;
  ou_name: string | null;
  /** The unit names from the root down to the unit (a record's own unit where it names one); empty for none. */
  ou_path: string[];
}

export function scopeContext(scope: Scope, record?: Record<string, unknown>): ScopeContext {
  const own = record && scope.units?.unitOfRecord(record, scope.ou);
  return {
    profile: scope.source.profile ?? null,
    base_url: scope.source.session.baseUrl,
    ou: scope.ou,
    ou_name: scope.ouName,
    ou_path: [...(own ? scope.units!.path(own.id) : scope.path)],
  };
}

/** A scope with no unit: everything the token sees. */
export function wholeScope(source: Source): Scope {
  return { source, ou: null, ouName: null, depth: 0, within: [], path: [] };
}

/**
 * The scopes of one source, in tree order. `all` needs the index's unit list; named units and the
 * session's own unit are only named from it, so a unit list that cannot be read leaves them as ids.
 */
export async function planScopes(
  source: Source,
  units: UnitChoice,
  options: { signal?: AbortSignal } = {},
): Promise<Scope[]> {
  const { session } = source;
  const ids = units === undefined ? (session.ou ? [session.ou] : []) : units;
  if (ids !== 'all' && ids.length === 0) return [wholeScope(source)];

  const load = loadUnits(session, options.signal ? { signal: options.signal } : {});
  let known: OrgUnit[] | undefined;
  if (ids === 'all') {
    known = await load;
    if (!known) {
      throw new UsageError(
        `${session.baseUrl} offers no list of organizational units`,
        'its index has no resource of units; name the units instead: --ou ID,ID',
      );
    }
  } else {
    known = await load.catch((error: unknown) => {
      if (options.signal?.aborted) throw error;
      return undefined;
    });
  }
  const directory = known ? new UnitDirectory(known) : undefined;
  const chosen = ids === 'all' ? known! : chooseUnits(ids, known ?? [], directory);
  reportCycles(session, known ?? []);
  const parentOf = new Map((known ?? []).map((unit) => [unit.id, unit.parent]));
  const chosenIds = new Set(chosen.map((unit) => unit.id));
  return chosen.map((unit) => {
    const within = holders(unit.id, parentOf).filter((id) => chosenIds.has(id));
    const path = directory ? directory.path(unit.id) : [unit.name];
    return {
      source,
      ou: unit.id,
      ouName: unit.name,
      depth: within.length,
      within,
      path,
      ...(directory ? { units: directory } : {}),
    };
  });
}

/**
 * The units asked for (by id, name or path), in the tree's order. A name that means several units is a
 * usage error listing them; one that means none, where the units are known, too — except a UUID, which
 * keeps its place after them, named by itself (a unit the list does not show may still answer).
 */
function chooseUnits(ids: readonly string[], known: OrgUnit[], directory: UnitDirectory | undefined): OrgUnit[] {
  const wanted = [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))];
  const found = new Set<string>();
  const unknown: OrgUnit[] = [];
  for (const text of wanted) {
    const unit = directory?.resolve(text);
    if (unit) found.add(unit.id);
    else if (directory && known.length > 0 && !isUuid(text)) {
      throw directory.unknown(text);
    } else unknown.push({ id: text, name: text, detail: '', depth: 0, children: 0 });
  }
  return [...known.filter((unit) => found.has(unit.id)), ...unknown];
}

/**
 * Every ancestor of a unit, nearest first. A cycle in the parents stops the climb; a unit on the cycle
 * itself has no ancestor on it (none of them holds the others), so each of them is read as a root.
 */
function holders(id: string, parentOf: Map<string, string | undefined>): string[] {
  const chain: string[] = [];
  const seen = new Set([id]);
  let parent = parentOf.get(id);
  for (; parent !== undefined && !seen.has(parent); parent = parentOf.get(parent)) {
    chain.push(parent);
    seen.add(parent);
  }
  if (parent === id) return [];
  return chain;
}

/** A parent cycle among the units is said once per session, with the units on it; the others answer as usual. */
const reported = new WeakMap<Session, Set<string>>();
function reportCycles(session: Session, units: OrgUnit[]): void {
  const names = new Map(units.map((unit) => [unit.id, unit.name]));
  for (const cycle of parentCycles(units)) {
    const key = [...cycle].sort().join('\n');
    let said = reported.get(session);
    if (!said) {
      said = new Set();
      reported.set(session, said);
    }
    if (said.has(key)) continue;
    said.add(key);
    const named = (id: string) =>
      names.get(id) !== undefined && names.get(id) !== id ? `${names.get(id)} (${id})` : id;
    session.warn(
      `the units ${[...cycle, cycle[0]!].map(named).join(' → ')} name each other as parents (a cycle in the unit tree): each is read as a root, and the other units answer as usual`,
    );
  }
}
