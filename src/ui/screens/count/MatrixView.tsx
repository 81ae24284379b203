// The count matrix as drawn: a caption (the filter, what the marks mean), the header of the columns on
// screen, and a line per unit shown (rows.ts), each cell a count with a bar of its share of the row's
// total, coloured by what the column's value means.
import { Box, Text } from 'ink';
import { statusMeaning } from '../../../api/hal/status.js';
import { fit, truncate } from '../../../text/cells.js';
import { statusTone, type Tone } from '../../../text/colour.js';
import { columnWindow } from '../../column-window.js';
import { Tinted } from '../../components/theme.js';
import { scrollTop } from '../../layout.js';
import type { ViewProps } from '../../nav/screen.js';
import { countText, headerText, type CellValue } from './layout.js';
import { shownRows } from './rows.js';
import { layoutOf, unitName, cellOf, type CountState } from './state.js';

const BARS = ' ▁▂▃▄▅▆▇█';

/** A count with a bar of its share of the row's total; coloured by what the column's value means; `*` when dpx counted it. */
function Cell({
  value,
  share,
  tone,
  selected,
  width,
  mark = '',
}: {
  value: CellValue;
  share: number;
  tone: Tone;
  selected: boolean;
  width: number;
  mark?: string;
}) {
  if (value === undefined)
    return (
      <Tinted tone="muted" inverse={selected}>
        {fit('…', width, 'right')}
      </Tinted>
    );
  if (value === 'changed')
    return (
      <Tinted tone="bad" inverse={selected}>
        {fit('changed', width, 'right')}
      </Tinted>
    );
  if (typeof value !== 'number')
    return (
      <Tinted tone="bad" inverse={selected}>
        {fit('✗ error', width, 'right')}
      </Tinted>
    );
  const bar = value === 0 ? ' ' : BARS[Math.max(1, Math.round(share * (BARS.length - 1)))]!;
  return (
    <Tinted tone={value === 0 ? 'muted' : tone} inverse={selected} bold={selected}>
      {fit(`${countText(value, mark)} ${bar}`, width, 'right')}
    </Tinted>
  );
}

/** What the matrix is, under its header: the filter counted with, the rows left out, and what its marks mean. */
export function captionOf(state: CountState, width: number): string | undefined {
  const parts: string[] = [];
  if (state.windowText) parts.push(state.windowText);
  if (state.filter) parts.push(`where ${state.filter}`);
  if (state.localFilter) parts.push(`units matching "${state.localFilter}"`);
  if (state.nonzero) parts.push('units with a total of 0 left out');
  const survey = typeof state.plan?.valuesFrom === 'object' ? state.plan.valuesFrom : undefined;
  if (survey?.mayMiss)
    parts.push(
      `values of ${state.by} may be missing (${survey.pages} pages read, no last page linked): other counts them`,
    );
  if (state.results.some((result) => result?.counted))
    parts.push('* counted from every record: the list reports no total_count');
  if (state.results.some((result) => result?.changed))
    parts.push('changed: records moved while counted; r counts again');
  return parts.length === 0 ? undefined : truncate(parts.join(' · '), width);
}

/** The rows the body has room for under the caption and the header. */
export function rowRoom(state: CountState, height: number, width: number): number {
  return Math.max(1, height - 1 - (captionOf(state, width) ? 1 : 0));
}

/** A sorted column's mark in the header. */
function sortMark(state: CountState, cell: number | 'unit'): string {
  const { sort } = state;
  return sort && 'cell' in sort && sort.cell === cell ? (sort.descending ? '↓' : '↑') : '';
}

export function MatrixView({ state, height, width }: ViewProps<CountState>) {
  const { plan } = state;
  if (!plan)
    return <Tinted tone="muted">reading each control plane's units and the values of {state.by ?? 'the list'}…</Tinted>;
  const { data, order, shape } = layoutOf(state, plan, width);
  const [unit, ...cells] = columnWindow(shape.widths, { ...shape, left: state.left });
  const shownColumns = cells.map(({ index, width: cellWidth }) => ({ cell: order[index - 1]!, width: cellWidth }));
  const toneOf = (cell: number): Tone => {
    const value = plan.columns[cell]?.value;
    return typeof value === 'string' && statusMeaning(value) !== 'unknown'
      ? statusTone(value)
      : cell < plan.columns.length
        ? 'info'
        : 'neutral';
  };
  const total = plan.columns.length;
  const caption = captionOf(state, width);
  const unitWidth = unit?.width ?? 0;
  const rows = shownRows(state);
  const room = rowRoom(state, height, width);
  // Where a resize left the cursor below the rows drawn, they follow it at once.
  const top = scrollTop(Math.min(state.top, Math.max(0, rows.length - room)), state.cursor, room);
  const heading = `${state.connections.length > 1 ? 'PROFILE · UNIT' : 'UNIT'}${sortMark(state, 'unit')}`;
  return (
    <Box flexDirection="column">
      {caption ? <Tinted tone="muted">{caption}</Tinted> : null}
      <Text wrap="truncate">
        <Tinted bold>{fit(heading, unitWidth)}</Tinted>
        {shownColumns.map(({ cell, width: cellWidth }) => (
          <Tinted key={cell} bold tone="info" inverse={cell === state.column}>
            {' '}
            {fit(
              `${sortMark(state, cell)}${headerText(data, cell, cellWidth - sortMark(state, cell).length)}`,
              cellWidth,
              'right',
            )}
          </Tinted>
        ))}
      </Text>
      {rows.length === 0 ? <Tinted tone="muted">no unit matches</Tinted> : null}
      {rows.slice(top, top + room).map((index, offset) => {
        const row = plan.rows[index]!;
        const rowTotal = cellOf(state, index, total);
        const counted = state.results[index]?.counted === true;
        const selected = top + offset === state.cursor;
        return (
          <Text key={index} wrap="truncate">
            <Tinted bold={selected} inverse={selected}>
              {fit(unitName(state, row), unitWidth)}
            </Tinted>{' '}
            {row.error ? (
              <Tinted tone="bad">✗ {row.error.message}</Tinted>
            ) : (
              shownColumns.map(({ cell, width: cellWidth }, at) => {
                const value = cellOf(state, index, cell);
                const share =
                  typeof value === 'number' && typeof rowTotal === 'number' && rowTotal > 0 ? value / rowTotal : 0;
                return (
                  <Text key={cell}>
                    {at > 0 ? ' ' : ''}
                    <Cell
                      value={value}
                      share={cell === total ? 1 : share}
                      tone={toneOf(cell)}
                      selected={selected && cell === state.column}
                      width={cellWidth}
                      mark={counted && cell === total ? '*' : ''}
                    />
                  </Text>
                );
              })
            )}
          </Text>
        );
      })}
    </Box>
  );
}
