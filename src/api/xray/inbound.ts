// What points at a record from other lists, found by generic rules on field names alone:
//   1. a field `<singular>_id` (or `<singular>.id`) of the record's resource: `backup_id` on tasks;
//   2. a pair `<p>_type`/`<p>_id` (or `<p>.type`/`<p>.id`) whose id field names no resource itself, so
//      its type says what it points at: `target_type`/`target_id`, `primary_entity.type`/`.id`.
// Each candidate is one filtered query for a small page; its total_count says how many refer.
import type { Catalog, Resource } from '../hal/catalog.js';
import { scalarText, valueAt } from '../json.js';
import { findReadOperation } from '../hal/operation.js';
import { namesRecordId, wordNamesResource } from '../operations/prefill.js';
import type { ListFields } from './fields.js';

export interface InboundCandidate {
  /** The list that may refer to the record. */
  resource: string;
  version: string;
  /** Field → value; the filter sent is this object as JSON. */
  filter: Record<string, string | number>;
  /** The stem of the reference: `backup` for backup_id, `target` for target_type/target_id. */
  rel: string;
  /** `backup_id`, or `target_type/target_id`. */
  via: string;
  idField: string;
  typeField?: string;
}

const ID_FIELD = /^(.+?)([_.])id$/i;

/**
 * The candidates of every list for a record of `target` with id `id` (kept as the record holds it:
 * a number stays a number in the filter).
 */
export function inboundCandidates(catalog: Catalog, target: Resource, id: string | number, lists: ListFields[]): InboundCandidate[] {
  const candidates: InboundCandidate[] = [];
  for (const list of lists) {
    const fields = new Set(list.fields);
    for (const field of list.fields) {
      const match = ID_FIELD.exec(field);
      if (!match) continue;
      const [, stem = '', separator = '_'] = match;
      if (separator === '_' ? namesRecordId(field, target.name) : wordNamesResource(stem, target.name)) {
        candidates.push({ resource: list.resource, version: list.version, filter: { [field]: id }, rel: stem, via: field, idField: field });
        continue;
      }
      const typeField = `${stem}${separator}type`;
      if (!fields.has(typeField) || catalog.resources.some((resource) => wordNamesResource(stem, resource.name))) continue;
      const typeValue = typeValueFor(list, typeField, target);
      candidates.push({
        resource: list.resource,
        version: list.version,
        filter: { [typeField]: typeValue, [field]: id },
        rel: stem,
        via: `${typeField}/${field}`,
        idField: field,
        typeField,
      });
    }
  }
  return candidates;
}

/**
 * How the list spells the record's kind in its type field: a value seen on the page the fields were
 * learned from that names the resource; else the singular the index itself uses for the resource's id
 * (`user` from the path variable `{user_id}` of its get operation); else the resource's name.
 */
function typeValueFor(list: ListFields, typeField: string, target: Resource): string {
  for (const record of list.sample) {
    const value = scalarText(valueAt(record, typeField));
    if (value !== undefined && wordNamesResource(value, target.name)) return value;
  }
  const variable = findReadOperation(target)?.operation.pathVariables[0];
  const stem = variable === undefined ? undefined : /^(.+)_id$/i.exec(variable)?.[1];
  return stem !== undefined && wordNamesResource(stem, target.name) ? stem : target.name;
}

/**
 * Whether a record on the answer's page holds the reference the filter asked for. A server that ignores
 * a filter it does not know answers with the whole list, and its total_count would count every record.
 */
export function refersTo(record: Record<string, unknown>, candidate: InboundCandidate, target: Resource, id: string | number): boolean {
  if (scalarText(valueAt(record, candidate.idField)) !== String(id)) return false;
  if (candidate.typeField === undefined) return true;
  const type = scalarText(valueAt(record, candidate.typeField));
  return type !== undefined && (type === candidate.filter[candidate.typeField] || wordNamesResource(type, target.name));
}
