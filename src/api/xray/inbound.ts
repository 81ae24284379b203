// What points at a record from other lists, found by generic rules on field names and values:
//   1. a field `<singular>_id` (or `<singular>.id`) of the record's resource: `backup_id` on tasks;
//   2. a pair `<p>_type`/`<p>_id` (or `<p>.type`/`<p>.id`) whose id field names no resource itself, so
//      its type says what it points at: `target_type`/`target_id`, `primary_entity.type`/`.id` — but only
//      when the type field's values name resources of the index (`user`, `policy`). `volume_type` holds
//      disk types (`gp2`, `io1`): it is not the type of `volume_id`, and makes no pair.
// Each candidate is one filtered query for a small page (in the list's filter form, filters.ts); its
// total_count says how many refer.
import type { Catalog, Resource } from '../hal/catalog.js';
import { fieldEnum } from '../hal/schemas.js';
import { scalarText, valueAt } from '../json.js';
import { findReadOperation } from '../hal/operation.js';
import { namesRecordId, wordNamesResource } from '../operations/prefill.js';
import type { ListFields } from './fields.js';

export interface InboundCandidate {
  /** The list that may refer to the record. */
  resource: string;
  version: string;
  /** Field → value: the conditions of the filter, which is sent in the list's form (filters.ts). */
  filter: Record<string, string | number>;
  /** The stem of the reference: `backup` for backup_id, `target` for target_type/target_id. */
  rel: string;
  /** `backup_id`, or `target_type/target_id`. */
  via: string;
  idField: string;
  typeField?: string;
}

const ID_FIELD = /^(.+?)([_.])id$/i;

/** Whether a list's `…type` field names resources of the index; undefined when nothing says. */
export type TypeFieldVerdict = (list: ListFields, typeField: string) => boolean | undefined;

/**
 * The candidates of every list for a record of `target` with id `id` (kept as the record holds it:
 * a number stays a number in the filter). A `…type`/`…id` pair is one only when `typeFields` says the
 * type field names resources (by default: the values on the list's sample page, else the schema's enum).
 */
export function inboundCandidates(
  catalog: Catalog,
  target: Resource,
  id: string | number,
  lists: ListFields[],
  typeFields: TypeFieldVerdict = (list, field) => typeFieldNamesResources(catalog, typeFieldValues(list, field)),
): InboundCandidate[] {
  const candidates: InboundCandidate[] = [];
  for (const list of lists) {
    const fields = new Set(list.fields);
    for (const field of list.fields) {
      const match = ID_FIELD.exec(field);
      if (!match) continue;
      const [, stem = '', separator = '_'] = match;
      if (separator === '_' ? namesRecordId(field, target.name) : wordNamesResource(stem, target.name)) {
        candidates.push({
          resource: list.resource,
          version: list.version,
          filter: { [field]: id },
          rel: stem,
          via: field,
          idField: field,
        });
        continue;
      }
      const typeField = `${stem}${separator}type`;
      if (!fields.has(typeField) || catalog.resources.some((resource) => wordNamesResource(stem, resource.name)))
        continue;
      if (typeFields(list, typeField) !== true) continue;
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

/** The `…type` fields of a list that would pair with an `…id` field whose stem names no resource of the index. */
export function pairTypeFields(catalog: Catalog, list: ListFields): string[] {
  const fields = new Set(list.fields);
  const types: string[] = [];
  for (const field of list.fields) {
    const match = ID_FIELD.exec(field);
    if (!match) continue;
    const [, stem = '', separator = '_'] = match;
    const typeField = `${stem}${separator}type`;
    if (fields.has(typeField) && !catalog.resources.some((resource) => wordNamesResource(stem, resource.name)))
      types.push(typeField);
  }
  return types;
}

/** The values a list's field was seen with (its sample page), else those its schema lists; undefined when neither says. */
export function typeFieldValues(list: ListFields, field: string): string[] | undefined {
  const seen = list.sample
    .flatMap((record) => scalarText(valueAt(record, field)) ?? [])
    .filter((value) => value !== '');
  if (seen.length > 0) return [...new Set(seen)];
  const listed = fieldEnum(list.resource, list.version, field)?.filter(
    (value): value is string => typeof value === 'string',
  );
  return listed && listed.length > 0 ? listed : undefined;
}

/**
 * Whether a type field's values name resources of the index: most of them do (`user`, `policy`, `backup`;
 * an `api_token` the index has no list of may be among them). Disk types (`gp2`, `io1`) name none.
 * Undefined when there are no values to judge by.
 */
export function typeFieldNamesResources(catalog: Catalog, values: readonly string[] | undefined): boolean | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const named = values.filter((value) =>
    catalog.resources.some((resource) => wordNamesResource(value, resource.name)),
  ).length;
  return named > 0 && named * 2 >= values.length;
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
export function refersTo(
  record: Record<string, unknown>,
  candidate: InboundCandidate,
  target: Resource,
  id: string | number,
): boolean {
  if (scalarText(valueAt(record, candidate.idField)) !== String(id)) return false;
  if (candidate.typeField === undefined) return true;
  const type = scalarText(valueAt(record, candidate.typeField));
  return type !== undefined && (type === candidate.filter[candidate.typeField] || wordNamesResource(type, target.name));
}
