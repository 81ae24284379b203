// One record read twice — in another version, another unit or through another profile — and the two side
// by side, aligned by field path: what differs, what one side alone has, and differently named fields
// that hold the same value. Opened with `d` on a record.
import { Box, Text } from 'ink';
import { compareRecord, type RecordComparison, type RecordSide } from '../../../api/case/compare.js';
import type { AlignedField, FieldState } from '../../../api/case/diff.js';
import { fit, oneLine, truncate } from '../../../text/cells.js';
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
  left: RecordSide;
  right: RecordSide;
}

export interface DiffState extends ScreenBase, DiffParams {
  comparison?: RecordComparison;
  /** Only the rows that differ (the default), or every field. */
  all: boolean;
  top: number;
}

const MARKS: Record<FieldState, { mark: string; tone: Tone }> = {
  equal: { mark: ' ', tone: 'muted' },
  changed: { mark: '≠', tone: 'busy' },
  'only-then': { mark: '◀', tone: 'bad' },
  'only-now': { mark: '▶', tone: 'good' },
  'same-value': { mark: '≈', tone: 'info' },
};

function rowsOf(state: DiffState): AlignedField[] {
  const rows = state.comparison?.complete ? state.comparison.rows : [];
  return state.all ? rows : rows.filter((row) => row.state !== 'equal');
}

function text(value: unknown, present: boolean): string {
  if (!present) return '—';
  return oneLine(typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined');
}

async function compare(ctx: ScreenContext<DiffState>): Promise<void> {
  const { resource, id, left, right } = ctx.state;
  ctx.update({ loading: `reading ${resource} ${id} twice` });
  try {
    const comparison = await compareRecord(resource, id, left, right);
    ctx.update({ loading: undefined, comparison });
  } catch (error) {
    ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

export const diffScreen: ScreenModule<DiffState, DiffParams> = {
  title: 'diff (d on a record)',
  init: (params) => ({ ...params, all: false, top: 0 }),
  start: (ctx) => void compare(ctx),
  crumb: (s) => `diff ${s.left.label} ↔ ${s.right.label}`,
  subject: (s) => `${s.resource} ${s.id}`,
  status: (s) => {
    if (!s.comparison?.complete) return undefined;
    const counts = s.comparison.rows.reduce<Record<string, number>>((all, row) => ({ ...all, [row.state]: (all[row.state] ?? 0) + 1 }), {});
    return `${counts['changed'] ?? 0} differ · ${(counts['only-then'] ?? 0) + (counts['only-now'] ?? 0)} on one side · ${counts['same-value'] ?? 0} renamed · ${counts['equal'] ?? 0} equal`;
  },
  bindings: [
    { keys: ['a'], help: 'every field, or only those that differ', hint: 'a all fields', run: (ctx) => ctx.update((s) => ({ all: !s.all, top: 0 })) },
    { keys: ['r'], help: 'read both sides again', hint: 'r reread', run: (ctx) => void compare(ctx) },
    { keys: [...MOVE_KEYS], help: 'scroll', run: (ctx, key) => ctx.update((s) => ({ top: moveCursor(s.top, rowsOf(s).length, key, ctx.bodyHeight() - 2) })) },
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
              {'error' in side ? <Tinted tone="bad">{side.error.message}</Tinted> : <Tinted tone="good">read ({side.response.status})</Tinted>}
            </Text>
          ))}
        </Box>
      );
    }
    const rows = rowsOf(state);
    const pathWidth = Math.min(36, Math.max(5, ...rows.map((row) => row.path.length)));
    const side = Math.max(10, Math.floor((width - pathWidth - 8) / 2));
    return (
      <Box flexDirection="column">
        <Text wrap="truncate"><Tinted bold>{'  '}{fit('FIELD', pathWidth)} {fit(state.left.label, side)} {fit(state.right.label, side)}</Tinted></Text>
        {rows.length === 0 ? <Tinted tone="good">  the two are the same, field for field{state.all ? '' : ' (a shows every field)'}</Tinted> : null}
        {rows.slice(state.top, state.top + height - 2).map((row) => {
          const { mark, tone } = MARKS[row.state];
          const path = row.nowPath && row.nowPath !== row.path ? `${row.path} / ${row.nowPath}` : row.path;
          return (
            <Text key={`${row.path} ${row.nowPath ?? ''}`} wrap="truncate">
              <Tinted tone={tone} bold>{mark} </Tinted>{fit(path, pathWidth)}{' '}
              <Tinted tone={row.state === 'only-now' ? 'muted' : tone}>{fit(text(row.then, row.state !== 'only-now'), side)}</Tinted>{' '}
              <Tinted tone={row.state === 'only-then' ? 'muted' : tone}>{truncate(text(row.now, row.state !== 'only-then'), side)}</Tinted>
            </Text>
          );
        })}
      </Box>
    );
  },
};
