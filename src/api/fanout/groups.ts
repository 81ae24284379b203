// Group-by over records: one group per distinct key (the values of the fields asked for), with its
// count. `@unit` and `@tenant` are pseudo-fields: the unit a record belongs to, and that unit's
// ancestor at depth 1 (a tenant under the root). A record's unit is the value of its unit field — the
// field whose values are ids of known units, found at run time — else the unit it was read in. Across
// regions each record is named from its own region's units, and the region leads the key: a tenant of
// the same name in two regions is two groups.
import { scalarText, valueAt } from '../json.js';
import type { Scope, Source } from './scopes.js';
import { directoryOf, type UnitDirectory } from './unit-names.js';
import { loadUnits, type OrgUnit } from './units.js';

export const UNIT_FIELD = '@unit';
export const TENANT_FIELD = '@tenant';
/** The key's leading field when the records come from several regions. */
const PROFILE_FIELD = 'profile';
const NONE = '(none)';

export interface Group {
  key: Record<string, string>;
  count: number;
}

/** Where each known unit sits: its name and its depth-1 ancestor's name. */
export class UnitPlaces {
  private readonly byId: Map<string, OrgUnit>;

  constructor(units: OrgUnit[]) {
    this.byId = new Map(units.map((unit) => [unit.id, unit]));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  name(id: string | undefined): string {
    return id === undefined ? NONE : (this.byId.get(id)?.name ?? id);
  }

  /** The unit's ancestor at depth 1 (itself at depth 1; the root names itself); a parent cycle stops the climb. */
  tenant(id: string | undefined): string {
    let unit = id === undefined ? undefined : this.byId.get(id);
    if (unit === undefined) return id ?? NONE;
    const seen = new Set<string>();
    while (unit.depth > 1 && unit.parent !== undefined && !seen.has(unit.id)) {
      seen.add(unit.id);
      const parent = this.byId.get(unit.parent);
      if (parent === undefined) break;
      unit = parent;
    }
    return unit.name;
  }
}

/**
 * The field of these records whose values are ids of known units (the first such, by how many records
 * it names a unit in); undefined when none is.
 */
export function findUnitField(records: Record<string, unknown>[], places: UnitPlaces): string | undefined {
  const hits = new Map<string, number>();
  for (const record of records) {
    for (const [field, value] of Object.entries(record)) {
      if (typeof value === 'string' && places.has(value)) hits.set(field, (hits.get(field) ?? 0) + 1);
    }
  }
  return [...hits.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Where a record belongs: its region (when several are asked), its unit, and that region's units. */
export interface RecordPlace {
  profile?: string;
  unit?: string;
  places?: UnitPlaces;
}

export class GroupCounter {
  private readonly groups = new Map<string, Group>();
  private counted = 0;
  /** The fields of a group's key: the region first when several are asked. */
  readonly keyFields: readonly string[];

  constructor(
    private readonly fields: readonly string[],
    options: { byProfile?: boolean } = {},
  ) {
    this.keyFields = options.byProfile ? [PROFILE_FIELD, ...fields] : fields;
  }

  get records(): number {
    return this.counted;
  }

  add(record: Record<string, unknown>, place: RecordPlace = {}): void {
    const key: Record<string, string> = {};
    if (this.keyFields !== this.fields) key[PROFILE_FIELD] = place.profile ?? NONE;
    for (const field of this.fields) key[field] = this.valueOf(record, field, place);
    const text = JSON.stringify(this.keyFields.map((field) => key[field]));
    const group = this.groups.get(text);
    if (group) group.count += 1;
    else this.groups.set(text, { key, count: 1 });
    this.counted += 1;
  }

  /** The groups, largest first; equal counts in the order of their keys. */
  result(): Group[] {
    const order = (group: Group) => this.keyFields.map((field) => group.key[field]).join('\u0000');
    return [...this.groups.values()].sort((a, b) => b.count - a.count || order(a).localeCompare(order(b)));
  }

  private valueOf(record: Record<string, unknown>, field: string, { unit, places }: RecordPlace): string {
    if (field === UNIT_FIELD) return places?.name(unit) ?? unit ?? NONE;
    if (field === TENANT_FIELD) return places?.tenant(unit) ?? unit ?? NONE;
    const value = valueAt(record, field);
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : (scalarText(value) ?? NONE);
  }
}

const placesOf = new WeakMap<readonly OrgUnit[], UnitPlaces>();

/** A control plane's host, read once per base URL: this runs for every record of a merged group-by. */
const hosts = new Map<string, string>();
function hostOf(baseUrl: string): string {
  let host = hosts.get(baseUrl);
  if (host === undefined) {
    host = new URL(baseUrl).host;
    hosts.set(baseUrl, host);
  }
  return host;
}

/**
 * Where a record read in `scope` belongs: the unit it names in its region's tree (else the unit it was
 * read in), named from that region's own units, and the region's profile (else its control plane's host).
 */
export function placeInScope(
  record: Record<string, unknown>,
  scope: Scope,
  directory: UnitDirectory | undefined = scope.units,
): RecordPlace {
  let places: UnitPlaces | undefined;
  if (directory) {
    places = placesOf.get(directory.units);
    if (!places) {
      places = new UnitPlaces([...directory.units]);
      placesOf.set(directory.units, places);
    }
  }
  // Where its unit's scope was not read (no --ou), the unit is the one the record names.
  const unit = directory?.unitOfRecord(record, scope.ou)?.id ?? scope.ou ?? undefined;
  return {
    profile: scope.source.profile ?? hostOf(scope.source.session.baseUrl),
    ...(unit === undefined ? {} : { unit }),
    ...(places === undefined ? {} : { places }),
  };
}

/**
 * Each region's units, for records read without a unit's scope: a region that cannot be asked, or whose
 * index offers no unit list, has none (its records' units stay as their ids).
 */
export async function regionDirectories(
  sources: readonly Source[],
  signal?: AbortSignal,
): Promise<Map<Source, UnitDirectory>> {
  const found = await Promise.all(
    sources.map(async (source) => {
      if (source.failure) return undefined;
      const units = await loadUnits(source.session, signal ? { signal } : {}).catch(() => undefined);
      return units === undefined ? undefined : ([source, directoryOf(units)] as const);
    }),
  );
  return new Map(found.filter((entry) => entry !== undefined));
}
