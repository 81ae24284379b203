// A list resource as a table. Only the rows in the window are drawn, whatever is loaded.
import { Box, Text } from 'ink';
import type { Column } from '../columns.js';
import { valueAt } from '../filter.js';
import { fit } from '../text.js';
import { formatCell } from '../values.js';
import { Tinted } from './theme.js';

export interface ListViewProps {
  columns: Column[];
  rows: Record<string, unknown>[];
  cursor: number;
  top: number;
  height: number;
  currentColumn: number;
  sort?: { field: string; descending: boolean };
  now: number;
  empty: string;
}

export function ListView({ columns, rows, cursor, top, height, currentColumn, sort, now, empty }: ListViewProps) {
  const visible = rows.slice(top, top + height - 1);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        {'  '}
        {columns.map((c, i) => {
          const arrow = sort?.field === c.field ? (sort.descending ? '↓' : '↑') : '';
          return (
            <Tinted key={c.field} bold inverse={i === currentColumn} tone="info">
              {fit(`${c.field.toUpperCase()}${arrow}`, c.width, c.align)}{i < columns.length - 1 ? ' ' : ''}
            </Tinted>
          );
        })}
      </Text>
      {visible.map((record, i) => {
        const selected = top + i === cursor;
        return (
          <Text key={top + i} wrap="truncate">
            <Tinted bold inverse={selected}>{selected ? '›' : ' '}</Tinted>{' '}
            {columns.map((c, j) => {
              const cell = formatCell(c.field, valueAt(record, c.field), c.width, now);
              return (
                <Tinted key={c.field} tone={cell.tone} bold={selected}>
                  {fit(cell.text, c.width, c.align)}{j < columns.length - 1 ? ' ' : ''}
                </Tinted>
              );
            })}
          </Text>
        );
      })}
      {rows.length === 0 ? <Tinted tone="muted">  {empty}</Tinted> : null}
    </Box>
  );
}
