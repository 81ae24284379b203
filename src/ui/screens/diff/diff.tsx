// One record read twice — in another version, another unit or through another profile — and the two side
// by side, aligned by field path: what differs, what one side alone has, and differently named fields
// that hold the same value. Opened with `d` on a record. Both sides are always on screen, the field on the
// left: a value wider than its side's share of the width is cut (…), and Enter shows the row's values whole.
import { Box, Text } from 'ink';
import { compareRecord, type RecordComparison, type RecordSide } from '../../../api/case/compare.js';
import type { AlignedField, FieldState } from '../../../api/case/diff.js';
import { cellWidth, fit, oneLine, wrapLines } from '../../../text/cells.js';
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
  /** The row chosen, among those shown. */
  cursor: number;
  /** Whether the chosen row's values are shown whole, in place of the table. */
  whole: boolean;
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

/** The field takes at most this share of the width, so that the two sides always have room. */
const FIELD_SHARE = 0.3;

/**
 * The widths drawn in `room` cells (the field with its mark, then each side): every column whole when they
 * fit; else the field cut to its share, and the sides splitting what is left, a narrow one whole.
 */
function layoutOf(state: DiffState, room: number): [number, number, number] {
  const [field = MARK, first = 1, second = 1] = widthsOf(state);
  const fieldWidth = Math.min(field, Math.max(MARK + 1, Math.floor(room * FIELD_SHARE)));
  const left = Math.max(2, room - fieldWidth - 2);
  if (first + second <= left) return [fieldWidth, first, second];
  const half = Math.floor(left / 2);
  if (first <= half) return [fieldWidth, first, left - first];
  if (second <= half) return [fieldWidth, left - second, second];
  return [fieldWidth, half, left - half];
}

/** Table rows on screen under the heading. */
const tableRows = (height: number) => Math.max(1, height - 2);

/** The cursor moved to `cursor`: the rows shown follow it. */
function follow(s: DiffState, cursor: number, height: number): Partial<DiffState> {
  const visible = tableRows(height);
  const top = Math.min(Math.max(s.top, cursor - visible + 1), cursor);
  return { cursor, top: Math.max(0, top) };
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
  init: (params) => ({ ...params, all: false, top: 0, cursor: 0, whole: false }),
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
  resized: (ctx) => ctx.update((s) => follow(s, s.cursor, ctx.bodyHeight())),
  bindings: [
    {
      keys: ['a'],
      help: 'every field, or only those that differ',
      hint: 'a all fields',
      run: (ctx) => ctx.update((s) => ({ all: !s.all, top: 0, cursor: 0, whole: false })),
    },
    {
      keys: ['return'],
      help: "the chosen row's values whole (a value cut with … to fit), or the table again",
      hint: 'Enter whole values',
      when: (s) => s.whole || rowsOf(s).length > 0,
      run: (ctx) => ctx.update((s) => ({ whole: !s.whole })),
    },
    { keys: ['escape'], help: 'back to the table', when: (s) => s.whole, run: (ctx) => ctx.update({ whole: false }) },
    { keys: ['r'], help: 'read both sides again', hint: 'r reread', run: (ctx) => void compare(ctx) },
    {
      keys: [...MOVE_KEYS],
      help: 'choose a row',
      run: (ctx, key) =>
        ctx.update((s) =>
          follow(s, moveCursor(s.cursor, rowsOf(s).length, key, tableRows(ctx.bodyHeight())), ctx.bodyHeight()),
        ),
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
    const chosen = rows[state.cursor];
    if (state.whole && chosen) return <WholeRow row={chosen} state={state} height={height} width={width} />;
    const [field, ...widths] = layoutOf(state, width);
    const sides = widths.map((sideWidth, index) => ({ index: index + 1, width: sideWidth }));
    const fieldWidth = Math.max(0, field - MARK);
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
        {rows.slice(state.top, state.top + tableRows(height)).map((row, index) => {
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
              <Tinted inverse={state.top + index === state.cursor}>{fit(cells[0], fieldWidth)}</Tinted>
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

/** A row's values whole, each side's wrapped over its share of the height (a value longer still ends with …). */
function WholeRow({
  row,
  state,
  height,
  width,
}: {
  row: AlignedField;
  state: DiffState;
  height: number;
  width: number;
}) {
  const cells = cellsOf(row);
  const room = Math.max(2, height - 3);
  const firstLines = wrapLines(cells[1], width - 2, Math.ceil(room / 2), { hard: true });
  const secondLines = wrapLines(cells[2], width - 2, room - firstLines.length, { hard: true });
  const side = (which: string, label: string, lines: string[]) => [
    <Tinted key={`${which} label`} bold>
      {oneLine(label)}
    </Tinted>,
    ...lines.map((line, index) => (
      <Text key={`${which} ${index}`} wrap="truncate">
        {'  '}
        {line}
      </Text>
    )),
  ];
  return (
    <Box flexDirection="column">
      <Tinted tone={MARKS[row.state].tone} bold>
        {`${MARKS[row.state].mark} ${pathOf(row)} · Enter or Esc: the table`}
      </Tinted>
      {side('first', state.first.label, firstLines)}
      {side('second', state.second.label, secondLines)}
    </Box>
  );
}
