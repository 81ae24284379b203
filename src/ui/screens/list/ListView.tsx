// A list resource as a table. Only the rows in the window are drawn, whatever is loaded.
import { memo } from 'react';
import { Box, Text } from 'ink';
import type { Column, ColumnView } from './measured-columns.js';
import type { CellText } from './state.js';
import { valueAt } from '../../../api/json.js';
import { fit } from '../../../text/cells.js';
import { formatCell, isTimestamp, relativeAge } from '../../values.js';
import { Tinted, tint, useColour } from '../../components/theme.js';

export interface ListViewProps {
  /** The columns on screen (the first frozen, the others scrolled with `>` `<`). */
  view: ColumnView;
  rows: readonly Record<string, unknown>[];
  cursor: number;
  top: number;
  height: number;
  /** The current column among every column (-1: none). */
  currentColumn: number;
  sort?: { field: string; descending: boolean };
  now: number;
  empty: string;
  /** Cells that read otherwise than their values say (ids read as names). */
  cellText?: CellText;
  /** The fields of each row that changed at the last reload, highlighted. */
  changed?: ReadonlyMap<Record<string, unknown>, ReadonlySet<string>>;
}

interface RowProps {
  record: Record<string, unknown>;
  columns: Column[];
  selected: boolean;
  now: number;
  cellText: ListViewProps['cellText'];
  changed: ReadonlySet<string> | undefined;
}

/**
 * A row draws again only when what it shows changes: the clock moves on every key, but a row's
 * relative ages change once a second at most, so a new `now` alone redraws it only when one does.
 */
function sameRow(before: RowProps, after: RowProps): boolean {
  if (
    before.record !== after.record ||
    before.columns !== after.columns ||
    before.selected !== after.selected ||
    before.cellText !== after.cellText ||
    before.changed !== after.changed
  )
    return false;
  if (before.now === after.now) return true;
  return after.columns.every((c) => {
    const value = valueAt(after.record, c.field);
    return !isTimestamp(value) || relativeAge(value, before.now) === relativeAge(value, after.now);
  });
}

/**
 * A row is one string, styled as `<Tinted>` would style each cell: ink then lays out and squashes one
 * text node per row instead of two per cell, on every frame, for rows that did not change as for those
 * that did.
 */
const Row = memo(function Row({ record, columns, selected, now, cellText, changed }: RowProps) {
  const colour = useColour();
  let line = `${tint(selected ? '›' : ' ', { bold: true, inverse: selected }, colour)} `;
  columns.forEach((c, j) => {
    const value = valueAt(record, c.field);
    const named = cellText?.text(c.field, value);
    const cell =
      named === undefined ? formatCell(c.field, value, c.width, now) : { text: named, tone: 'info' as const };
    const fresh = changed?.has(c.field) === true;
    line += tint(
      fit(cell.text, c.width, c.align),
      { tone: fresh ? 'busy' : cell.tone, bold: selected || fresh, inverse: fresh },
      colour,
    );
    if (j < columns.length - 1) line += ' ';
  });
  return <Text wrap="truncate">{line}</Text>;
}, sameRow);

export function ListView({
  view,
  rows,
  cursor,
  top,
  height,
  currentColumn,
  sort,
  now,
  empty,
  cellText,
  changed,
}: ListViewProps) {
  const visible = rows.slice(top, top + height - 1);
  const { columns } = view;
  const current = view.indexes.indexOf(currentColumn);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        {'  '}
        {columns.map((c, i) => {
          const arrow = sort?.field === c.field ? (sort.descending ? '↓' : '↑') : '';
          return (
            <Tinted key={c.field} bold inverse={i === current} tone="info">
              {fit(`${c.field.toUpperCase()}${arrow}`, c.width, c.align)}
              {i < columns.length - 1 ? ' ' : ''}
            </Tinted>
          );
        })}
      </Text>
      {visible.map((record, i) => (
        <Row
          key={top + i}
          record={record}
          columns={columns}
          selected={top + i === cursor}
          now={now}
          cellText={cellText}
          changed={changed?.get(record)}
        />
      ))}
      {rows.length === 0 ? <Tinted tone="muted"> {empty}</Tinted> : null}
    </Box>
  );
}
