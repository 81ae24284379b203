// The server-side filter builder's model: conditions on record fields turned into the JSON filter
// expression the list operation takes. Relative times ("-1d", "24h", "yesterday") become ISO timestamps, so
// "from the last day" needs no date arithmetic by the user.
import { parseWhen } from '../api/hal/time-window.js';
import { isTimestamp } from './values.js';

export const OPERATORS = ['$eq', '$neq', '$contains', '$begins_with', '$gt', '$gte', '$lt', '$lte', '$in'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  field: string;
  operator: Operator;
  value: string;
}

/** Dotted paths of every scalar field in `records` (nested objects included, HAL fields not). */
export function filterFields(records: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  const visit = (value: unknown, prefix: string): void => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('_')) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      if (child && typeof child === 'object' && !Array.isArray(child)) visit(child, path);
      else seen.add(path);
    }
  };
  for (const record of records.slice(0, 50)) visit(record, '');
  return [...seen];
}

/** What reads as a time relative to now: a duration back (`24h`, `-1d`, `2h ago`), `now`, `today`, `yesterday`. */
const RELATIVE = /^(?:-?\d+(?:\.\d+)?\s*[smhdw]|now|today|yesterday)$/i;

/**
 * "-1d", "24h", "2h ago" or "yesterday" → the ISO timestamp it means, read as `--since` reads it (one
 * syntax for relative times everywhere); undefined for anything else, which is taken as typed.
 */
export function relativeTime(text: string, now: number): string | undefined {
  const plain = text.trim().replace(/\s+ago$/i, '');
  return RELATIVE.test(plain) ? parseWhen(plain, new Date(now)).toISOString() : undefined;
}

/** A typed value in the type the field's sample value has. */
export function typedValue(raw: string, sample: unknown, now: number): unknown {
  const text = raw.trim();
  if (typeof sample === 'number' && text !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (typeof sample === 'boolean' && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (isTimestamp(sample) || sample === undefined) return relativeTime(text, now) ?? text;
  return text;
}

/** The filter expression for `conditions`: one object, each field mapped to its operator and value. */
export function buildFilter(conditions: Condition[], samples: Record<string, unknown>, now: number): string {
  const expression: Record<string, Record<string, unknown>> = {};
  for (const c of conditions) {
    const sample = samples[c.field];
    const value =
      c.operator === '$in'
        ? c.value.split(',').map((v) => typedValue(v, sample, now))
        : typedValue(c.value, sample, now);
    expression[c.field] = { ...(expression[c.field] ?? {}), [c.operator]: value };
  }
  return JSON.stringify(expression);
}
