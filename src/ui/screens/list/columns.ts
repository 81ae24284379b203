// The explorer's side of the column planner: values measured as the list draws them (ages, bars, marks),
// UUIDs shortened at first since the record view shows them whole; and the quick filter and sort of
// loaded rows.
import { planColumns, type Column } from '../../../text/columns.js';
import { formatCell } from '../../values.js';

export type { Column } from '../../../text/columns.js';

/**
 * Columns for `records` fitting `width` cells, one space between columns. `shown` gives a cell's text when
 * it is not its value's (an id read as a name), and the fields it names that way come first after the id.
 */
export function inferColumns(records: readonly Record<string, unknown>[], width: number, now: number, shown?: { fields: readonly string[]; text(field: string, value: unknown): string | undefined }): Column[] {
  return planColumns(records, {
    width, gap: 1, shortenIds: true, ...(shown ? { lead: shown.fields } : {}),
    cellText: (field, value) => shown?.text(field, value) ?? formatCell(field, value, 16, now).text,
  }).columns;
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
