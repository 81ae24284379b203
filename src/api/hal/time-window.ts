// Time windows (`--since 24h --until yesterday`) on a resource's own time field, found at run time: a
// field its schema declares as a date-time (the creation time first), else the record's timestamp
// fields. The window goes to the server as a filter in its operator form ($gte/$lt); where a server
// refuses that, the caller filters the records as they stream (inWindow).
import { UsageError } from '../errors.js';
import { isObject, timestampOf } from '../json.js';
import { knownTimeFields } from './schemas.js';

export interface TimeWindow {
  /** Inclusive. */
  since?: Date;
  /** Exclusive. */
  until?: Date;
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DAY_MS = UNIT_MS['d']!;
/** A creation time is what "since yesterday" usually means for a record. */
const CREATION = /creat/i;

/**
 * A point in time from what a person types: a duration back from now (`90m`, `24h`, `7d`, `2w`; a
 * leading `-` means the same, so the filter builder's `-1d` is `1d`), `now`, `today` or `yesterday`
 * (their start, in UTC), or an ISO 8601 date or date-time (a date alone is its UTC midnight).
 */
export function parseWhen(text: string, now: Date, option = '--since'): Date {
  const trimmed = text.trim().toLowerCase();
  const duration = /^-?(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(trimmed);
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNIT_MS[duration[2]!]!);
  const startOfToday = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (trimmed === 'now') return now;
  if (trimmed === 'today') return new Date(startOfToday);
  if (trimmed === 'yesterday') return new Date(startOfToday - DAY_MS);
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    const at = Date.parse(`${trimmed}T00:00:00Z`);
    if (!Number.isNaN(at)) return new Date(at);
  }
  const at = timestampOf(text.trim());
  if (at !== undefined) return new Date(at);
  throw new UsageError(
    `${option} does not read '${text}' as a time`,
    `give a duration back from now (90m, 24h, 7d), today, yesterday, or an ISO 8601 date or time (2026-11-24, 2026-11-24T08:00:00Z)`,
  );
}

/** The window the options give; undefined when neither end is given. */
export function readWindow(
  since: string | undefined,
  until: string | undefined,
  now = new Date(),
): TimeWindow | undefined {
  if (since === undefined && until === undefined) return undefined;
  const window: TimeWindow = {};
  if (since !== undefined) window.since = parseWhen(since, now, '--since');
  if (until !== undefined) window.until = parseWhen(until, now, '--until');
  if (window.since && window.until && window.since >= window.until) {
    throw new UsageError(
      `the window is empty: --since ${window.since.toISOString()} is not before --until ${window.until.toISOString()}`,
      'give --since an earlier time than --until',
    );
  }
  return window;
}

/**
 * The field a window on this resource is put on: its schema's date-time fields (a creation time first),
 * else the record's fields that hold timestamps (a creation time first); undefined when there is none.
 */
export function timeFieldFor(resource: string, version: string, sample?: Record<string, unknown>): string | undefined {
  const declared = knownTimeFields(resource, version);
  const candidates =
    declared !== undefined && declared.length > 0
      ? declared
      : Object.entries(sample ?? {})
          .filter(([, value]) => timestampOf(value) !== undefined)
          .map(([name]) => name);
  return candidates.find((name) => CREATION.test(name)) ?? candidates[0];
}

/** The filter (JSON text) with the window ANDed in on `field`, in the operator form. */
export function windowFilter(filter: string | undefined, field: string, window: TimeWindow): string {
  const parsed: unknown = filter === undefined || filter === '' ? {} : JSON.parse(filter);
  if (!isObject(parsed))
    throw new UsageError(
      'the filter must be a JSON object of fields and conditions',
      `e.g. --filter '{"status":{"$eq":"failed"}}'`,
    );
  const own = parsed[field];
  const condition: Record<string, unknown> = own === undefined ? {} : isObject(own) ? { ...own } : { $eq: own };
  for (const [operator, at] of [
    ['$gte', window.since],
    ['$lt', window.until],
  ] as const) {
    if (at === undefined) continue;
    if (operator in condition)
      throw new UsageError(
        `the filter already has ${operator} on ${field}`,
        'give the window either in the filter or with --since/--until, not both',
      );
    condition[operator] = at.toISOString();
  }
  return JSON.stringify({ ...parsed, [field]: condition });
}

/** Whether a record's value of `field` lies in the window: for servers that refuse the window as a filter. */
export function inWindow(record: Record<string, unknown>, field: string, window: TimeWindow): boolean {
  const at = timestampOf(record[field]);
  if (at === undefined) return false;
  return (
    (window.since === undefined || at >= window.since.getTime()) &&
    (window.until === undefined || at < window.until.getTime())
  );
}

/** The window in words for stderr: `created_timestamp ≥ 2026-11-24T08:00:00.000Z`. */
export function describeWindow(field: string, window: TimeWindow): string {
  return [
    window.since && `${field} ≥ ${window.since.toISOString()}`,
    window.until && `${field} < ${window.until.toISOString()}`,
  ]
    .filter(Boolean)
    .join(' and ');
}
