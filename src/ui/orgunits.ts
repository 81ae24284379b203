// Organizational units, found generically: the index's resource whose name says it holds units,
// and its records read as { id, name, a few words of context }.
import type { Catalog, Resource } from '../api/catalog.js';
import { findListOperation } from '../api/operation.js';
import type { OrgUnit } from './state.js';

const UNIT_RESOURCE = /organi[sz]ational|(^|[-_])ous?($|[-_])|tenants?$/i;
const NAME_FIELDS = ['name', 'display_name', 'displayName', 'title', 'label'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text.trim());
}

/** The listable resource that holds organizational units, when the index offers one. */
export function findUnitResource(catalog: Catalog): Resource | undefined {
  return catalog.resources.find((r) => UNIT_RESOURCE.test(r.name) && r.versions.some((v) => findListOperation(v)));
}

/** A record as a unit, when it has an id. */
export function toUnit(record: Record<string, unknown>): OrgUnit | undefined {
  const id = record['id'];
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const nameField = NAME_FIELDS.find((f) => typeof record[f] === 'string');
  const name = nameField ? String(record[nameField]) : String(id);
  const detail = Object.entries(record)
    .filter(([k, v]) => k !== 'id' && k !== nameField && !k.startsWith('_') && typeof v === 'string' && v.length <= 60 && !isUuid(v) && !/\d{4}-\d{2}-\d{2}T/.test(v))
    .slice(0, 2)
    .map(([, v]) => String(v))
    .join(' · ');
  return { id: String(id), name, detail };
}
