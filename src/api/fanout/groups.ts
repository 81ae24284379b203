// Group-by over records: one group per distinct key (the values of the fields asked for), with its
// count. `@unit` and `@tenant` are pseudo-fields: the unit a record belongs to, and that unit's
// ancestor at depth 1 (a tenant under the root). A record's unit is the value of its unit field — the
// field whose values are ids of known units, found at run time — else the unit it was read in.
import { scalarText, valueAt } from '../json.js';
import type { OrgUnit } from './units.js';

export const UNIT_FIELD = '@unit';
export const TENANT_FIELD = '@tenant';
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

export class GroupCounter {
  private readonly groups = new Map<string, Group>();
  private counted = 0;

  constructor(
    private readonly fields: readonly string[],
    /** The unit a record belongs to, for the pseudo-fields. */
    private readonly unitOf: (record: Record<string, unknown>) => string | undefined = () => undefined,
    private readonly places?: UnitPlaces,
  ) {}

  get records(): number {
    return this.counted;
  }

  add(record: Record<string, unknown>): void {
    const key: Record<string, string> = {};
    for (const field of this.fields) key[field] = this.valueOf(record, field);
    const text = JSON.stringify(this.fields.map((field) => key[field]));
    const group = this.groups.get(text);
    if (group) group.count += 1;
    else this.groups.set(text, { key, count: 1 });
    this.counted += 1;
  }

  /** The groups, largest first; equal counts in the order of their keys. */
  result(): Group[] {
    const order = (group: Group) => this.fields.map((field) => group.key[field]).join('\u0000');
    return [...this.groups.values()].sort((a, b) => b.count - a.count || order(a).localeCompare(order(b)));
  }

  private valueOf(record: Record<string, unknown>, field: string): string {
    if (field === UNIT_FIELD) return this.places?.name(this.unitOf(record)) ?? this.unitOf(record) ?? NONE;
    if (field === TENANT_FIELD) return this.places?.tenant(this.unitOf(record)) ?? this.unitOf(record) ?? NONE;
    const value = valueAt(record, field);
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : (scalarText(value) ?? NONE);
  }
}
