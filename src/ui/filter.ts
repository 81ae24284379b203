// The server-side filter builder's model: conditions on record fields turned into the JSON filter
// expression the list operation takes. Relative times ("-1d", "2h ago") become ISO timestamps, so
// "from the last day" needs no date arithmetic by the user.
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

const RELATIVE = /^(?:-\s*(\d+)\s*([smhdw])|(\d+)\s*([smhdw])\s*ago)$/i;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "-1d" or "1d ago" → the ISO timestamp that long before `now`; undefined for anything else. */
export function relativeTime(text: string, now: number): string | undefined {
  const m = RELATIVE.exec(text.trim());
  if (!m) return undefined;
  const amount = Number(m[1] ?? m[3]);
  const unit = (m[2] ?? m[4] ?? 'd').toLowerCase();
  return new Date(now - amount * (UNIT_MS[unit] ?? 0)).toISOString();
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
    const value = c.operator === '$in' ? c.value.split(',').map((v) => typedValue(v, sample, now)) : typedValue(c.value, sample, now);
    expression[c.field] = { ...(expression[c.field] ?? {}), [c.operator]: value };
  }
  return JSON.stringify(expression);
}
