// The explorer's side of the column planner: values measured as the list draws them (ages, bars, marks),
// UUIDs shortened since the record view shows them whole; and the quick filter and sort of
// loaded rows.
import { fieldEnum, knownRecordFields, knownTimeFields } from '../../../api/hal/schemas.js';
import { statusMeaning } from '../../../api/hal/status.js';
import { planScrolling, type Column, type PlanOptions } from '../../../text/column-planner.js';
import { formatCell } from '../../values.js';
import { columnWindow, windowLabel } from '../../column-window.js';

export type { Column } from '../../../text/column-planner.js';

/**
 * Every column of `records`, each as wide as its data (UUIDs shortened): the window on screen is chosen
 * when drawn. `shown` gives a cell's text when it is not its value's (an id read as a name), and the
 * fields it names that way come first after the id; `order` is the reader's choice of fields (`c`).
 */
export function inferColumns(
  records: readonly Record<string, unknown>[],
  now: number,
  shown?: { fields: readonly string[]; text(field: string, value: unknown): string | undefined },
  order?: readonly string[],
  kinds?: FieldKinds,
): Column[] {
  return planScrolling(records, {
    gap: 1,
    shortenIds: true,
    ...(shown ? { lead: shown.fields } : {}),
    ...(order ? { order } : {}),
    ...(kinds ? { kinds } : {}),
    cellText: (field, value) => shown?.text(field, value) ?? formatCell(field, value, 16, now).text,
  });
}

export type FieldKinds = NonNullable<PlanOptions['kinds']>;

/**
 * What a resource version's schema says of its records' fields, for the ranking of columns: the fields
 * whose enum holds status words (states), and the date-time ones. Nothing where no schema is known: the
 * planner then reads states by their names and times by their values.
 */
export function fieldKinds(resource: string, version: string): FieldKinds {
  const states = (knownRecordFields(resource, version) ?? []).filter((field) =>
    fieldEnum(resource, version, field)?.some(
      (value) => typeof value === 'string' && statusMeaning(value) !== 'unknown',
    ),
  );
  return { states, times: knownTimeFields(resource, version) ?? [] };
}

/** The columns on screen: the first one frozen, then from `left` on; and where that is among them all. */
export interface ColumnView {
  columns: Column[];
  /** Each shown column's index among them all. */
  indexes: number[];
  label?: string;
}

const windows = new WeakMap<readonly Column[], Map<string, ColumnView>>();

/** The window of `all` within `room` cells, scrolled to `left`; the same object while nothing changes, so rows do not redraw. */
export function windowOf(all: readonly Column[], left: number, room: number): ColumnView {
  const key = `${left}:${room}`;
  let known = windows.get(all);
  if (!known) {
    known = new Map();
    windows.set(all, known);
  }
  const remembered = known.get(key);
  if (remembered) return remembered;
  const shown = columnWindow(
    all.map((column) => column.width),
    { frozen: 1, left, room, gap: 1, partial: true },
  );
  const label = windowLabel(
    shown,
    all.map((column) => column.width),
    1,
  );
  const view = {
    columns: shown.map(({ index, width }) => ({ ...all[index]!, width })),
    indexes: shown.map(({ index }) => index),
    ...(label ? { label } : {}),
  };
  if (known.size > 8) known.clear();
  known.set(key, view);
  return view;
}

/** Orders records by one field: numbers by value, everything else as text, missing values last. */
export function compareBy(field: string, descending: boolean) {
  return (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const x = a[field];
    const y = b[field];
    if (x === undefined || x === null) return y === undefined || y === null ? 0 : 1;
    if (y === undefined || y === null) return -1;
    const order =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(typeof x === 'object' ? JSON.stringify(x) : x).localeCompare(
            String(typeof y === 'object' ? JSON.stringify(y) : y),
          );
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
