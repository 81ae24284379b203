// A list merged from every unit, read once: the root's list holds every unit's records, each naming its
// unit in a field found at run time, so one walk of it (at its largest page) tags each record with its
// own unit instead of reading every unit's scope — where an ancestor's scope would repeat its
// descendants' records. The records come in the server's own order.
import { listRequest, walkPages, type Page } from '../session/pages.js';
import { largestPageSize } from '../session/page-size.js';
import { findUnitField, UnitPlaces } from './groups.js';
import type { Scope, Source } from './scopes.js';
import { directoryOf, type UnitDirectory } from './unit-names.js';
import { loadUnits, type OrgUnit } from './units.js';

type ListTarget = Parameters<typeof listRequest>[1];

export interface ReadOncePage {
  page: Page;
  /** Each record of the page with the scope of the unit it names (the root's when it names none known). */
  records: { record: Record<string, unknown>; scope: Scope }[];
}

/**
 * The root's pages with each record placed in its unit; undefined (before any record is handed out)
 * when the source has no unit tree or its records name no unit, so that the caller reads per unit.
 */
export async function readOnce(source: Source, target: ListTarget, options: { signal?: AbortSignal; pageSize?: number } = {}): Promise<{ unitField: string; pages: AsyncGenerator<ReadOncePage> } | undefined> {
  const units = await loadUnits(source.session, options.signal ? { signal: options.signal } : {});
  if (units === undefined || units.length === 0) return undefined;
  const places = new UnitPlaces(units);
  const directory = directoryOf(units);
  const scopes = new Map(units.map((unit) => [unit.id, scopeOf(source, unit, directory)]));
  const root: Scope = { source, ou: null, ouName: null, depth: 0, within: [], path: [], units: directory };
  const pageSize = options.pageSize ?? (await largestPageSize(source.session, { ...target, ou: null }, options.signal))?.ask;
  const first = await listRequest(source.session, { ...target, ou: null, ...(pageSize === undefined ? {} : { pageSize }) });
  const walk = walkPages(source.session, first, options.signal ? { signal: options.signal } : {});
  const head = await walk.next();
  if (head.done) return { unitField: '', pages: (async function* () {})() };
  const unitField = findUnitField(head.value.items, places);
  if (unitField === undefined) {
    await walk.return(undefined);
    return undefined;
  }
  const place = (page: Page): ReadOncePage => ({
    page,
    records: page.items.map((record) => {
      const unit = record[unitField];
      return { record, scope: (typeof unit === 'string' ? scopes.get(unit) : undefined) ?? root };
    }),
  });
  return {
    unitField,
    pages: (async function* () {
      yield place(head.value);
      for await (const page of walk) yield place(page);
    })(),
  };
}

/** A unit's scope as the per-unit fan-out would name it: its depth, and the units that hold it, nearest first. */
function scopeOf(source: Source, unit: OrgUnit, directory: UnitDirectory): Scope {
  const within: string[] = [];
  const seen = new Set([unit.id]);
  for (let parent = unit.parent; parent !== undefined && directory.get(parent) !== undefined && !seen.has(parent); parent = directory.get(parent)!.parent) {
    within.push(parent);
    seen.add(parent);
  }
  return { source, ou: unit.id, ouName: unit.name, depth: within.length, within, path: directory.path(unit.id), units: directory };
}
