// What a record is called, read generically: its id, and the first field whose name says it names the
// record. Servers name records in many ways; this is the one list of those ways.
import { isObject, scalarText } from '../json.js';

/** Fields that name a record, most telling first. */
export const NAME_FIELDS = ['name', 'display_name', 'displayName', 'full_name', 'fullName', 'title', 'label'] as const;

/** The record's id as text, when it has one. */
export function recordId(record: Record<string, unknown>): string | undefined {
  return scalarText(record['id']);
}

/** The record's name: its first name-like field that holds text. */
export function recordName(record: Record<string, unknown>): { field: string; name: string } | undefined {
  for (const field of NAME_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value !== '') return { field, name: value };
  }
  return undefined;
}

/** A record in a few words for a person: its name, else its e-mail address, else its id. */
export function recordLabel(record: Record<string, unknown>): string | undefined {
  return recordName(record)?.name ?? scalarText(record['email']) ?? recordId(record);
}

/** Fields of a record that are data, in their order: HAL's plumbing (`_links`, `_embedded`) is not. */
export function dataFields(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => key !== '_links' && key !== '_embedded');
}

/** A record's fields as dotted paths (`status`, `initiated_by.email`), links and ETags left out. */
export function fieldPaths(record: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(record).flatMap(([key, value]) => {
    if (key.startsWith('_')) return [];
    const path = `${prefix}${key}`;
    return isObject(value) ? [path, ...fieldPaths(value, `${path}.`)] : [path];
  });
}

/** The dotted paths of the scalar fields of `records` (nested objects followed, HAL's fields not), in the order met. */
export function scalarPaths(records: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  const visit = (value: Record<string, unknown>, prefix: string): void => {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('_')) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      if (isObject(child)) visit(child, path);
      else seen.add(path);
    }
  };
  for (const record of records) visit(record, '');
  return [...seen];
}
