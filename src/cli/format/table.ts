// A text table that fits a width, laid out by the shared column planner; cut cells end in `…`.

import { planColumns, type ColumnPlan } from '../../text/column-planner.js';
import { pad, truncate } from '../../text/cells.js';
import { tableCell } from './cells.js';

const GAP = 2;

/**
 * The layout of `records` within `maxWidth` cells (Infinity: no limit); `order` fixes the columns of a
 * table dpx made itself, `leading` puts fields first and ranks the rest.
 */
export function planTable(
  records: Record<string, unknown>[],
  maxWidth: number,
  order?: readonly string[],
  leading?: readonly string[],
  options: { keepAll?: boolean } = {},
): ColumnPlan {
  return planColumns(records, {
    width: maxWidth,
    gap: GAP,
    cellText: (_field, value) => tableCell(value),
    ...(order ? { order } : {}),
    ...(leading ? { first: leading } : {}),
    ...(options.keepAll ? { keepAll: true } : {}),
  });
}

function formatLine(layout: ColumnPlan, cells: string[]): string {
  return layout.columns
    .map((column, index) => {
      const text = truncate(cells[index] ?? '', column.width);
      if (column.align === 'right') return pad(text, column.width, 'right');
      return index === layout.columns.length - 1 ? text : pad(text, column.width);
    })
    .join(' '.repeat(GAP))
    .trimEnd();
}

export function formatHeader(layout: ColumnPlan): string {
  return formatLine(
    layout,
    layout.columns.map((column) => tableCell(column.field)),
  );
}

export function formatRow(layout: ColumnPlan, record: Record<string, unknown>): string {
  return formatLine(
    layout,
    layout.columns.map((column) => tableCell(record[column.field])),
  );
}

/** The whole table, header first, one line per record, each line ending in a newline. */
export function renderTable(
  records: Record<string, unknown>[],
  maxWidth: number,
  order?: readonly string[],
): { text: string; layout: ColumnPlan } {
  const layout = planTable(records, maxWidth, order);
  const lines = [formatHeader(layout), ...records.map((record) => formatRow(layout, record))];
  return { text: lines.map((line) => `${line}\n`).join(''), layout };
}
