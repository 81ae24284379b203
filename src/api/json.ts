// Small readers of parsed JSON that every layer needs: which values are objects, and which are scalars
// that read as text.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar as text (strings as themselves, numbers and booleans printed); objects, arrays, null and '' give undefined. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The value at a dotted path (`initiated_by.email`): a key spelled exactly so wins, else the path is
 * walked through nested objects. undefined when any step is missing.
 */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(record, path)) return record[path];
  let value: unknown = record;
  for (const step of path.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, step)) return undefined;
    value = value[step];
  }
  return value;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds since the epoch of an ISO 8601 timestamp (the spec's form); undefined for any other value. */
export function timestampOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}
