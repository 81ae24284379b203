// `--fields a,b.c`: the fields a list or a response is printed with, in the order given. A record becomes
// an object keyed by the given paths (flat: `{"id":…,"initiated_by.email":…}`), so json, ndjson, csv and
// the table all show the same columns under the same names. A path the record lacks is left out.

import { UsageError } from '../../api/errors.js';
import { valueAt } from '../../api/json.js';

export function parseFields(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const fields = value.split(',').map((field) => field.trim());
  if (fields.some((field) => field === '' || field.split('.').some((step) => step === ''))) {
    throw new UsageError(
      `--fields takes field names separated by commas, not '${value}'`,
      'e.g. --fields id,status,initiated_by.email',
    );
  }
  return [...new Set(fields)];
}

export function selectFields(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const selected: Record<string, unknown> = {};
  for (const field of fields) {
    const value = valueAt(record, field);
    if (value !== undefined) selected[field] = value;
  }
  return selected;
}
