// Which fields of a list's records become columns, in what order and how wide. Nothing is known in
// advance: identity fields lead, then status-like ones, then short scalars; nested values come last
// as summaries; widths are fitted to the terminal and the rest stay reachable in the detail view.
import { cellWidth } from '../text/cells.js';
import { formatCell, isPercentField, isStatusField } from './values.js';

export interface Column {
  field: string;
  width: number;
  align: 'left' | 'right';
}

const IDENTITY = /^(id|uuid|name|display_?name|full_?name|title|email|label|key)$/i;
const SAMPLE = 50;
const MAX_FIRST_PASS = 30;
const MIN_WIDTH = 6;

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;
/** A UUID shows its first groups at first; spare width lets it grow back. */
const UUID_FIRST_PASS = 13;
const LEADING_IDENTITIES = 2;

function rank(field: string, values: unknown[]): number {
  if (IDENTITY.test(field)) return 0;
  if (isStatusField(field) || isPercentField(field)) return 1;
  const present = values.filter((v) => v !== undefined && v !== null);
  if (present.some((v) => typeof v === 'object')) return 4;
  const long = present.some((v) => typeof v === 'string' && v.length > 60);
  return long ? 3 : 2;
}

/** Every top-level field of the records, first seen first, without HAL's `_` fields. */
export function recordFields(records: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const record of records.slice(0, SAMPLE)) for (const key of Object.keys(record)) if (!key.startsWith('_')) seen.add(key);
  return [...seen];
}

/** Columns for `records` fitting `width` cells, one space between columns. */
export function inferColumns(records: Record<string, unknown>[], width: number, now: number): Column[] {
  const sample = records.slice(0, SAMPLE);
  const candidates = recordFields(sample)
    .map((field, order) => {
      const values = sample.map((r) => r[field]);
      const natural = Math.max(cellWidth(field), ...values.map((v) => cellWidth(formatCell(field, v, 16, now).text)));
      const numeric = values.every((v) => v === undefined || v === null || typeof v === 'number');
      const uuids = values.some((v) => typeof v === 'string' && UUID_LIKE.test(v));
      return { field, order, rank: rank(field, values), natural, numeric, firstPass: uuids ? UUID_FIRST_PASS : MAX_FIRST_PASS };
    })
    .sort((a, b) => a.rank - b.rank || a.order - b.order);
  // Past the first two identity fields (id, name), further ones (email, full name) count as plain scalars.
  candidates.filter((c) => c.rank === 0).slice(LEADING_IDENTITIES).forEach((c) => (c.rank = 2));
  candidates.sort((a, b) => a.rank - b.rank || a.order - b.order);

  const chosen: (typeof candidates[number] & { width: number })[] = [];
  let used = 0;
  for (const c of candidates) {
    const gap = chosen.length ? 1 : 0;
    const room = width - used - gap;
    const wanted = Math.min(c.natural, c.firstPass);
    if (room < Math.min(wanted, MIN_WIDTH)) break;
    const w = Math.min(wanted, room);
    chosen.push({ ...c, width: w });
    used += gap + w;
  }
  let spare = width - used;
  for (const c of chosen) {
    if (spare <= 0) break;
    const grow = Math.min(spare, c.natural - c.width);
    if (grow > 0) {
      c.width += grow;
      spare -= grow;
    }
  }
  return chosen.map((c) => ({ field: c.field, width: c.width, align: c.numeric ? 'right' : 'left' }));
}

/** Orders records by one field: numbers by value, everything else as text, missing values last. */
export function compareBy(field: string, descending: boolean) {
  return (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const x = a[field];
    const y = b[field];
    if (x === undefined || x === null) return y === undefined || y === null ? 0 : 1;
    if (y === undefined || y === null) return -1;
    const order = typeof x === 'number' && typeof y === 'number'
      ? x - y
      : String(typeof x === 'object' ? JSON.stringify(x) : x).localeCompare(String(typeof y === 'object' ? JSON.stringify(y) : y));
    return descending ? -order : order;
  };
}

/** Whether any scalar value of `record` contains `needle`, case-insensitively (the quick filter). */
export function recordMatches(record: Record<string, unknown>, needle: string): boolean {
  if (!needle) return true;
  const lower = needle.toLowerCase();
  const visit = (value: unknown): boolean => {
    if (value === null || value === undefined) return false;
    if (typeof value === 'object') return Object.entries(value).some(([k, v]) => !k.startsWith('_') && visit(v));
    return String(value).toLowerCase().includes(lower);
  };
  return visit(record);
}
