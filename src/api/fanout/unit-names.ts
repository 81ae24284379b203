// Units by name. A unit is named by its id, its name, or a path of names (`Acme Energy/EU`: the last
// names of its path, the unit's own last), and every unit has a path from the root down to it, so that
// a count row or a merged record can say "Global / Acme Energy / EU / Warsaw" without a second request.
// A text that names several units is never guessed at: the caller is given all of them, with paths.
import { UsageError } from '../errors.js';
import { closest } from '../hal/did-you-mean.js';
import { recordId } from '../hal/records.js';
import type { OrgUnit } from './units.js';

/** How a path is printed; `/` and `›` are both read back, with or without spaces around them. */
export const PATH_SEPARATOR = ' / ';
const SEPARATORS = /\s*[/›]\s*/;

export function pathText(path: readonly string[]): string {
  return path.join(PATH_SEPARATOR);
}

/** The units of one control plane, by id, with their paths; a cycle in the parents ends a path. */
export class UnitDirectory {
  private readonly byId = new Map<string, OrgUnit>();
  private readonly byLowerId = new Map<string, OrgUnit>();
  private readonly paths = new Map<string, readonly string[]>();
  private readonly rootOf = new Map<string, string>();

  constructor(readonly units: readonly OrgUnit[]) {
    for (const unit of units) {
      this.byId.set(unit.id, unit);
      this.byLowerId.set(unit.id.toLowerCase(), unit);
    }
    for (const unit of units) {
      const chain = [unit];
      const seen = new Set([unit.id]);
      for (
        let parent = this.byId.get(unit.parent ?? '');
        parent && !seen.has(parent.id);
        parent = this.byId.get(parent.parent ?? '')
      ) {
        chain.unshift(parent);
        seen.add(parent.id);
      }
      this.paths.set(
        unit.id,
        chain.map((link) => link.name),
      );
      this.rootOf.set(unit.id, chain[0]!.id);
    }
  }

  get(id: string): OrgUnit | undefined {
    return this.byId.get(id) ?? this.byLowerId.get(id.toLowerCase());
  }

  /** The names from the root down to the unit, its own last; an id no unit has is its own path. */
  path(id: string): readonly string[] {
    const unit = this.get(id);
    return unit ? this.paths.get(unit.id)! : [id];
  }

  /** Whether the unit's scope is the whole tree: it is the one root every known unit descends from. */
  coversAll(id: string): boolean {
    const unit = this.get(id);
    if (!unit) return false;
    for (const root of this.rootOf.values()) if (root !== unit.id) return false;
    return true;
  }

  /**
   * The units `text` names: the unit with that id; else those with that name; else, for a path, those
   * whose path ends with its names. Case is ignored, unless that leaves several where the exact case
   * names one.
   */
  find(text: string): OrgUnit[] {
    const typed = text.trim();
    if (typed === '') return [];
    const byId = this.get(typed);
    if (byId) return [byId];
    const named = preferExact(
      this.units.filter((unit) => sameName(unit.name, typed)),
      (unit) => unit.name === typed,
    );
    if (named.length > 0) return named;
    const names = typed.split(SEPARATORS).filter((name) => name !== '');
    if (names.length < 2) return [];
    const endsWith = (path: readonly string[]) =>
      path.length >= names.length &&
      names.every((name, index) => sameName(path[path.length - names.length + index]!, name));
    return this.units.filter((unit) => endsWith(this.paths.get(unit.id)!));
  }

  /**
   * The one unit `text` names, or undefined when none does (the caller decides whether the text may be
   * an id the list does not show). Several are a usage error that lists each with its path and id.
   */
  resolve(text: string, option = '--ou'): OrgUnit | undefined {
    const found = this.find(text);
    if (found.length <= 1) return found[0];
    throw new UsageError(
      `${option} ${text.trim()} names ${found.length} units`,
      `give one by its path or its id, e.g. ${option} "${pathText(this.path(found[0]!.id).slice(-2))}"`,
      found.map((unit) => `${pathText(this.path(unit.id))}  ${unit.id}`),
    );
  }

  /**
   * The usage error for a text that names no unit: the units whose names are close to it or start with it
   * are offered with their paths (`--ou Acme` when the unit is "Acme Corp"), never taken in its place.
   */
  unknown(text: string, option = '--ou'): UsageError {
    const typed = text.trim();
    const last = typed.split(SEPARATORS).findLast((name) => name !== '') ?? typed;
    const names = closest(
      last,
      this.units.map((unit) => unit.name),
    );
    const offered = this.units.filter((unit) => names.some((name) => unit.name === name)).slice(0, 3);
    const guess =
      offered.length === 0
        ? ''
        : `did you mean ${offered.map((unit) => `"${pathText(this.path(unit.id).slice(-2))}"`).join(' or ')}? `;
    return new UsageError(
      `${option} ${typed}: no unit has that id, name or path`,
      `${guess}give its id, its name or its path (Tab completes them after ${option} once dpx completion is installed)`,
      offered.map((unit) => `${pathText(this.path(unit.id))}  ${unit.id}`),
    );
  }

  /**
   * The unit a record belongs to, where the record names it: itself when it is a unit, else the first of
   * its fields whose value is a unit's id, preferring one inside `scope` (the unit it was read in).
   */
  unitOfRecord(record: Record<string, unknown>, scope?: string | null): OrgUnit | undefined {
    const id = recordId(record);
    const self = id === undefined ? undefined : this.byId.get(id);
    if (self) return self;
    const named: OrgUnit[] = [];
    for (const [field, value] of Object.entries(record)) {
      if (field.startsWith('_') || typeof value !== 'string' || value === id) continue;
      const unit = this.byId.get(value);
      if (unit) named.push(unit);
    }
    if (named.length <= 1 || !scope) return named[0];
    return named.find((unit) => unit.id === scope || this.holds(scope, unit.id)) ?? named[0];
  }

  /** Whether `ancestor` is above `id` in the tree. */
  private holds(ancestor: string, id: string): boolean {
    const seen = new Set<string>();
    for (
      let parent = this.byId.get(id)?.parent;
      parent !== undefined && !seen.has(parent);
      parent = this.byId.get(parent)?.parent
    ) {
      if (parent === ancestor) return true;
      seen.add(parent);
    }
    return false;
  }
}

const directories = new WeakMap<readonly OrgUnit[], UnitDirectory>();

/** The directory of a unit list, built once per list (a picker asks at every key). */
export function directoryOf(units: readonly OrgUnit[]): UnitDirectory {
  let directory = directories.get(units);
  if (!directory) {
    directory = new UnitDirectory(units);
    directories.set(units, directory);
  }
  return directory;
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function preferExact(found: OrgUnit[], exact: (unit: OrgUnit) => boolean): OrgUnit[] {
  if (found.length <= 1) return found;
  const exactly = found.filter(exact);
  return exactly.length === 1 ? exactly : found;
}
