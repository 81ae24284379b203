// One record read twice — in another version, another unit or through another profile — and the two side
// by side, aligned by field path: what differs, what one side alone has, and differently named fields
// that hold the same value. Opened with `d` on a record. A table like any other: each column as wide as
// its values, the field kept on the left while `>` `<` scroll the two sides (ui/column-window.ts).
import { Box, Text } from 'ink';
import { compareRecord, type RecordComparison, type RecordSide } from '../../../api/case/compare.js';
import type { AlignedField, FieldState } from '../../../api/case/diff.js';
import { cellWidth, fit, oneLine } from '../../../text/cells.js';
import { columnWindow, windowLabel } from '../../column-window.js';
import { scrollBinding, type TableShape } from '../../scroll-keys.js';
import { Tinted } from '../../components/theme.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { errorInfo } from '../../nav/problems.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Tone } from '../../../text/colour.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    diff: DiffParams;
  }
}

export interface DiffParams {
  resource: string;
  id: string;
  /** The side read first (a column's `then`), and the other (`now`). */
  first: RecordSide;
  second: RecordSide;
}

export interface DiffState extends ScreenBase, DiffParams {
  comparison?: RecordComparison;
  /** Only the rows that differ (the default), or every field. */
  all: boolean;
  top: number;
  /** The first side scrolled to (`>` `<`): 1 the one read first, 2 the other; the field stays. */
  left: number;
}

/** Cells before a row's field: its mark and a space. */
const MARK = 2;

const MARKS: Record<FieldState, { mark: string; tone: Tone }> = {
  equal: { mark: ' ', tone: 'muted' },
  changed: { mark: '≠', tone: 'busy' },
  'only-then': { mark: '◀', tone: 'bad' },
  'only-now': { mark: '▶', tone: 'good' },
  'same-value': { mark: '≈', tone: 'info' },
};

const differing = new WeakMap<AlignedField[], AlignedField[]>();

/** The rows shown: those that differ, or every field; the same array while the comparison stays. */
function rowsOf(state: DiffState): AlignedField[] {
  const rows = state.comparison?.complete ? state.comparison.rows : [];
  if (state.all) return rows;
  const known = differing.get(rows);
  if (known) return known;
  const shown = rows.filter((row) => row.state !== 'equal');
  differing.set(rows, shown);
  return shown;
}

function text(value: unknown, present: boolean): string {
  if (!present) return '—';
  return oneLine(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));
}

/** A row's field as drawn: its path, and the other side's where it is named otherwise. */
function pathOf(row: AlignedField): string {
  return oneLine(row.nowPath && row.nowPath !== row.path ? `${row.path} / ${row.nowPath}` : row.path);
}

/** A row's cells: the field, then each side's value (`—` where that side has none). */
function cellsOf(row: AlignedField): [string, string, string] {
  return [pathOf(row), text(row.then, row.state !== 'only-now'), text(row.now, row.state !== 'only-then')];
}

const measured = new WeakMap<AlignedField[], Map<string, number[]>>();

/** Each column as wide as its header and its values (the field with its mark): the window chooses what is on screen. */
function widthsOf(state: DiffState): number[] {
  const rows = rowsOf(state);
  const key = `${state.first.label}\0${state.second.label}`;
  let known = measured.get(rows);
  if (!known) {
    known = new Map();
    measured.set(rows, known);
  }
  const remembered = known.get(key);
  if (remembered) return remembered;
  const widths = [
    MARK + cellWidth('FIELD'),
    cellWidth(oneLine(state.first.label)),
    cellWidth(oneLine(state.second.label)),
  ];
  for (const row of rows)
    for (const [index, cell] of cellsOf(row).entries())
      widths[index] = Math.max(widths[index]!, cellWidth(cell) + (index === 0 ? MARK : 0));
  known.set(key, widths);
  return widths;
}

function shapeOf(state: DiffState, room: number): TableShape {
  return { widths: widthsOf(state), frozen: 1, room, gap: 1, partial: true };
}

async function compare(ctx: ScreenContext<DiffState>): Promise<void> {
  const { resource, id, first, second } = ctx.state;
  ctx.update({ loading: `reading ${resource} ${id} twice` });
  try {
    const comparison = await compareRecord(resource, id, first, second);
    ctx.update({ loading: undefined, comparison });
  } catch (error) {
    ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

export const diffScreen: ScreenModule<DiffState, DiffParams> = {
  title: 'diff (d on a record)',
  init: (params) => ({ ...params, all: false, top: 0, left: 1 }),
  start: (ctx) => void compare(ctx),
  crumb: (s) => `diff ${s.first.label} ↔ ${s.second.label}`,
  subject: (s) => `${s.resource} ${s.id}`,
  status: (s) => {
    if (!s.comparison?.complete) return undefined;
    const counts = s.comparison.rows.reduce<Record<string, number>>(
      (all, row) => ({ ...all, [row.state]: (all[row.state] ?? 0) + 1 }),
      {},
    );
    return `${counts['changed'] ?? 0} differ · ${(counts['only-then'] ?? 0) + (counts['only-now'] ?? 0)} on one side · ${counts['same-value'] ?? 0} renamed · ${counts['equal'] ?? 0} equal`;
  },
  badges: (s, width) => {
    if (!s.comparison?.complete) return [];
    const shape = shapeOf(s, width);
    const label = windowLabel(columnWindow(shape.widths, { ...shape, left: s.left }), shape.widths, shape.frozen);
    return label ? [label] : [];
  },
  bindings: [
    {
      keys: ['a'],
      help: 'every field, or only those that differ',
      hint: 'a all fields',
      run: (ctx) => ctx.update((s) => ({ all: !s.all, top: 0, left: 1 })),
    },
    scrollBinding(
      (ctx) => shapeOf(ctx.state, ctx.size.columns),
      (s) => s.comparison?.complete === true,
      'scroll the two sides right / left (the field stays)',
    ),
    { keys: ['r'], help: 'read both sides again', hint: 'r reread', run: (ctx) => void compare(ctx) },
    {
      keys: [...MOVE_KEYS],
      help: 'scroll',
      run: (ctx, key) => ctx.update((s) => ({ top: moveCursor(s.top, rowsOf(s).length, key, ctx.bodyHeight() - 2) })),
    },
  ],
  View: ({ state, height, width }) => {
    const { comparison } = state;
    if (!comparison) return <Tinted tone="muted">reading both sides…</Tinted>;
    if (!comparison.complete) {
      return (
        <Box flexDirection="column">
          {[comparison.left, comparison.right].map((side) => (
            <Text key={side.side.label} wrap="truncate">
              <Tinted bold>{side.side.label}: </Tinted>
              {'error' in side ? (
                <Tinted tone="bad">{side.error.message}</Tinted>
              ) : (
                <Tinted tone="good">read ({side.response.status})</Tinted>
              )}
            </Text>
          ))}
        </Box>
      );
    }
    const rows = rowsOf(state);
    const shape = shapeOf(state, width);
    const shown = columnWindow(shape.widths, { ...shape, left: state.left });
    const sides = shown.slice(1);
    const fieldWidth = Math.max(0, (shown[0]?.width ?? MARK) - MARK);
    const labels = ['', state.first.label, state.second.label];
    return (
      <Box flexDirection="column">
        <Text wrap="truncate">
          <Tinted bold>
            {' '.repeat(MARK)}
            {fit('FIELD', fieldWidth)}
            {sides.map((side) => ` ${fit(oneLine(labels[side.index]!), side.width)}`).join('')}
          </Tinted>
        </Text>
        {rows.length === 0 ? (
          <Tinted tone="good"> the two are the same, field for field{state.all ? '' : ' (a shows every field)'}</Tinted>
        ) : null}
        {rows.slice(state.top, state.top + height - 2).map((row) => {
          const { mark, tone } = MARKS[row.state];
          const cells = cellsOf(row);
          // The side a field is missing from is muted; the other keeps the row's colour.
          const sideTone = (index: number): Tone =>
            (index === 1 && row.state === 'only-now') || (index === 2 && row.state === 'only-then') ? 'muted' : tone;
          return (
            <Text key={`${row.path} ${row.nowPath ?? ''}`} wrap="truncate">
              <Tinted tone={tone} bold>
                {mark}{' '}
              </Tinted>
              {fit(cells[0], fieldWidth)}
              {sides.map((side) => (
                <Text key={side.index}>
                  {' '}
                  <Tinted tone={sideTone(side.index)}>{fit(cells[side.index]!, side.width)}</Tinted>
                </Text>
              ))}
            </Text>
          );
        })}
      </Box>
    );
  },
};
