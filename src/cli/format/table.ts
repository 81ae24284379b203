// A text table that fits a width: columns inferred from the records themselves (no field is known in
// advance), identity and state first, then short scalars, nested values last; cut cells end in `…`.

import { cellWidth, pad, truncate } from '../../text/cells.js';
import { dataFields, isScalar, tableCell } from './cells.js';

export interface TableColumn {
  key: string;
  width: number;
  alignRight: boolean;
}

export interface TableLayout {
  columns: TableColumn[];
  /** Fields that did not fit the width, in the order they would have come. */
  hidden: string[];
}

const GAP = 2;
/** A column is first given at most this many cells; spare width is shared out afterwards. */
const COMFORT_WIDTH = 40;
/** Narrower than this, a column says too little to be worth its place. */
const MIN_WIDTH = 6;

/** A scalar no wider than this (a timestamp, a number, a word) is "short" and comes before longer ones. */
const SHORT_SCALAR = 24;

interface FieldTraits {
  index: number;
  scalar: boolean;
  widest: number;
}

function columnRank(key: string, traits: FieldTraits): number {
  if (key === 'id') return 0;
  if (/(^|_)(status|state)$/.test(key)) return 1;
  if (/(^|_)(name|title)$/.test(key) || key === 'email') return 2;
  if (!traits.scalar) return 5;
  return traits.widest <= SHORT_SCALAR ? 3 : 4;
}

/** Every field seen in the records, ordered for reading: id, status-like, name-like, short scalars, long scalars, nested. */
export function orderColumns(records: Record<string, unknown>[]): string[] {
  const seen = new Map<string, FieldTraits>();
  for (const record of records) {
    for (const key of dataFields(record)) {
      const traits = seen.get(key) ?? { index: seen.size, scalar: true, widest: 0 };
      const value = record[key];
      if (!isScalar(value)) traits.scalar = false;
      else traits.widest = Math.max(traits.widest, cellWidth(tableCell(value)));
      seen.set(key, traits);
    }
  }
  return [...seen.entries()]
    .sort(([a, x], [b, y]) => columnRank(a, x) - columnRank(b, y) || x.index - y.index)
    .map(([key]) => key);
}

/**
 * Lays out the columns for `records` within `maxWidth` cells (Infinity: no limit). `order` fixes the
 * columns of a table whose shape dpx itself made; records from the API have theirs inferred.
 */
export function planTable(records: Record<string, unknown>[], maxWidth: number, order?: string[]): TableLayout {
  const keys = order ?? orderColumns(records);
  const measured = keys.map((key) => {
    const values = records.map((record) => record[key]);
    const natural = Math.max(cellWidth(key), ...values.map((value) => cellWidth(tableCell(value))));
    const alignRight = values.some((value) => typeof value === 'number') && values.every((value) => value === undefined || value === null || typeof value === 'number');
    return { key, natural, alignRight, width: 0 };
  });

  // In reading order, each column takes a comfortable width if it fits, else its least useful width;
  // the first one that fits neither way ends the table, so a more important column is never dropped
  // for a less important one.
  const columns: typeof measured = [];
  const hidden: string[] = [];
  let used = 0;
  for (const column of measured) {
    const gap = columns.length > 0 ? GAP : 0;
    const candidates = [Math.min(column.natural, COMFORT_WIDTH), Math.min(column.natural, Math.max(cellWidth(column.key), MIN_WIDTH))];
    const width = hidden.length === 0 ? candidates.find((candidate) => used + gap + candidate <= maxWidth) : undefined;
    if (width === undefined) {
      hidden.push(column.key);
      continue;
    }
    columns.push({ ...column, width });
    used += gap + width;
  }
  if (columns.length === 0 && measured[0] !== undefined) {
    const only = { ...measured[0], width: Math.max(1, Math.min(measured[0].natural, maxWidth)) };
    columns.push(only);
    hidden.shift();
    used = only.width;
  }

  // Share the spare width: first up to a comfortable width, then to each column's full width.
  for (const limit of [(natural: number) => Math.min(natural, COMFORT_WIDTH), (natural: number) => natural]) {
    for (const column of columns) {
      const grow = Math.min(limit(column.natural) - column.width, maxWidth - used);
      if (grow > 0) {
        column.width += grow;
        used += grow;
      }
    }
  }
  return { columns: columns.map(({ key, width, alignRight }) => ({ key, width, alignRight })), hidden };
}

function formatLine(layout: TableLayout, cells: string[]): string {
  return layout.columns
    .map((column, index) => {
      const text = truncate(cells[index] ?? '', column.width);
      if (column.alignRight) return pad(text, column.width, 'right');
      return index === layout.columns.length - 1 ? text : pad(text, column.width);
    })
    .join(' '.repeat(GAP))
    .trimEnd();
}

export function formatHeader(layout: TableLayout): string {
  return formatLine(layout, layout.columns.map((column) => column.key));
}

export function formatRow(layout: TableLayout, record: Record<string, unknown>): string {
  return formatLine(layout, layout.columns.map((column) => tableCell(record[column.key])));
}

/** The whole table, header first, one line per record, each line ending in a newline. */
export function renderTable(records: Record<string, unknown>[], maxWidth: number, order?: string[]): { text: string; layout: TableLayout } {
  const layout = planTable(records, maxWidth, order);
  const lines = [formatHeader(layout), ...records.map((record) => formatRow(layout, record))];
  return { text: lines.map((line) => `${line}\n`).join(''), layout };
}
