// Values to offer while a filter on one field is built: the values the field's schema allows when dpx
// knows the record version's schema, else the values the rows already loaded hold, most common first.
import { valueAt } from '../json.js';
import { fieldEnum } from './schemas.js';

export type SuggestedValue = string | number | boolean;

export interface ValueSuggestions {
  /** 'schema': every value the field may take; 'rows': only what the loaded rows show, so others may exist. */
  source: 'schema' | 'rows';
  values: SuggestedValue[];
}

/** Rows hold many values for an id or a timestamp; a filter builder offers the most common ones. */
const DEFAULT_LIMIT = 50;

/** Suggestions for `field` (a dotted path for a nested one) of `resource` at `version`. */
export function valueSuggestions(
  target: { resource: string; version: string; field: string },
  rows: Iterable<Record<string, unknown>> = [],
  limit = DEFAULT_LIMIT,
): ValueSuggestions {
  const allowed = fieldEnum(target.resource, target.version, target.field)?.filter(isSuggestable);
  if (allowed !== undefined && allowed.length > 0) return { source: 'schema', values: allowed };
  return { source: 'rows', values: distinctValues(rows, target.field, limit) };
}

/** The field's distinct scalar values in `rows`, most frequent first, ties in the order first seen. */
export function distinctValues(
  rows: Iterable<Record<string, unknown>>,
  field: string,
  limit = DEFAULT_LIMIT,
): SuggestedValue[] {
  const counts = new Map<SuggestedValue, number>();
  for (const row of rows) {
    const value = valueAt(row, field);
    if (isSuggestable(value)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([value, count], seen) => ({ value, count, seen }))
    .sort((a, b) => b.count - a.count || a.seen - b.seen)
    .slice(0, limit)
    .map(({ value }) => value);
}

function isSuggestable(value: unknown): value is SuggestedValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
