// Counting by one scan: the root's list read once, at the largest page, each record counted in the unit
// its unit field names and in every ancestor of that unit — each unit counts its whole subtree, as the
// server's scope of a unit does. A matrix of units × values then costs the root's pages instead of one
// request per cell. The unit field is found at run time: the field whose values are ids of known units.
import { ProtocolError, UsageError } from '../errors.js';
import { valueAt } from '../json.js';
import { largestPageSize } from '../session/page-size.js';
import { listRequest, walkPages } from '../session/pages.js';
import type { Session } from '../session/session.js';
import { findUnitField, UnitPlaces } from './groups.js';
import type { OrgUnit } from './units.js';

/** A value counted by: what `{"$eq": value}` compares with. */
export type ScanValue = string | number | boolean | null;

export interface ScanTarget {
  resource: string;
  version?: string;
  operationId?: string;
  /** The user's filter, as JSON text: the scan reads what every cell would have counted. */
  filter?: string;
}

export interface UnitCounts {
  total: number;
  /** By the value's JSON text (`"failed"`, `null`, `3`), so that null and "null" stay apart. */
  byValue: Map<string, number>;
}

export interface ScanResult {
  unitField: string;
  /** Every unit's subtree: its own records and its descendants'. */
  counts: Map<string, UnitCounts>;
  /** Every value of `by` the scan saw, in the order first seen. */
  values: ScanValue[];
  records: number;
  pages: number;
  /** Records whose unit field names no known unit: counted in no row. */
  unplaced: number;
  /** The list's total_count on its first page, when it reports one: what the scan is costed by. */
  total?: number;
  /** The page size the scan read at (undefined: the server's default). */
  pageSize?: number;
}

export async function scanCounts(
  session: Session,
  units: readonly OrgUnit[],
  target: ScanTarget,
  by: string | undefined,
  options: { signal?: AbortSignal; unitField?: string; seen?: (record: Record<string, unknown>) => void } = {},
): Promise<ScanResult> {
  const places = new UnitPlaces([...units]);
  const parents = new Map(
    units.flatMap((unit) => (unit.parent === undefined ? [] : [[unit.id, unit.parent] as const])),
  );
  const size = await largestPageSize(session, { ...target, ou: null }, options.signal);
  const first = await listRequest(session, {
    ...target,
    ou: null,
    ...(size === undefined ? {} : { pageSize: size.ask }),
  });
  const counts = new Map<string, UnitCounts>();
  const values = new Map<string, ScanValue>();
  let unitField = options.unitField;
  let records = 0;
  let pages = 0;
  let unplaced = 0;
  let total: number | undefined;
  for await (const page of walkPages(session, first, options.signal ? { signal: options.signal } : {})) {
    if (pages === 0) total = page.totalCount;
    pages += 1;
    // A capped walk has not seen every record: a count from it would be a sample.
    const capped = page.warnings.find((warning) => /\bcap\)$/.test(warning));
    if (capped)
      throw new ProtocolError(
        `the scan of ${target.resource} ${capped}, so it cannot count every record`,
        'count per cell instead: --plan cells',
      );
    unitField ??= findUnitField(page.items, places);
    if (unitField === undefined && page.items.length > 0) {
      throw new UsageError(
        `no field of ${target.resource} names the unit a record belongs to, so one scan cannot count per unit`,
        'count per cell instead: --plan cells',
      );
    }
    for (const record of page.items) {
      records += 1;
      options.seen?.(record);
      const unit = record[unitField!];
      if (typeof unit !== 'string' || !places.has(unit)) {
        unplaced += 1;
        continue;
      }
      const value = by === undefined ? undefined : countedValue(valueAt(record, by));
      const key = value === undefined ? undefined : JSON.stringify(value);
      if (key !== undefined && !values.has(key)) values.set(key, value!);
      for (const id of lineage(unit, parents)) {
        let own = counts.get(id);
        if (own === undefined) {
          own = { total: 0, byValue: new Map() };
          counts.set(id, own);
        }
        own.total += 1;
        if (key !== undefined) own.byValue.set(key, (own.byValue.get(key) ?? 0) + 1);
      }
    }
  }
  return {
    unitField: unitField ?? '',
    counts,
    values: [...values.values()],
    records,
    pages,
    unplaced,
    ...(total === undefined ? {} : { total }),
    ...(size === undefined ? {} : { pageSize: size.perPage }),
  };
}

/** A unit and its ancestors, nearest first; a parent cycle ends the climb where it closes. */
function lineage(unit: string, parents: ReadonlyMap<string, string>): string[] {
  const line = [unit];
  const seen = new Set(line);
  for (let parent = parents.get(unit); parent !== undefined && !seen.has(parent); parent = parents.get(parent)) {
    line.push(parent);
    seen.add(parent);
  }
  return line;
}

/** What a record's value counts as: scalars as they are, a missing value as null, anything else as its JSON. */
function countedValue(value: unknown): ScanValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
