// `:count <resource> by <field>`: the unit tree × the field's values for the current profile (`P` adds every
// profile), each cell the count the server reports for that unit's scope, with a bar of its share. Cells
// fill in as their answers arrive; Enter on a cell opens that unit's list, filtered by that value, in that
// unit's own context.
import { Box, Text } from 'ink';
import { cellFilter, countMatrix, type CountPlan } from '../../../api/fanout/count.js';
import type { DpxError } from '../../../api/errors.js';
import { statusMeaning } from '../../../api/hal/status.js';
import { fit, formatCount } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { scrollTop } from '../../layout.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Connection } from '../../services/connection.js';
import { statusTone, type Tone } from '../../../text/colour.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    count: CountParams;
  }
}

export interface CountParams {
  resource: string;
  by?: string;
}

export interface CountState extends ScreenBase, CountParams {
  /** The control planes asked: the current one, then with `P` every profile's. */
  connections: Connection[];
  plan?: CountPlan;
  /** Counts by row, then column (the total's column is the last); an error in place of a count that failed. */
  cells: (number | DpxError | undefined)[][];
  row: number;
  column: number;
  top: number;
  left: number;
  stopping: AbortController;
  answered: number;
}

type Ctx = ScreenContext<CountState>;

const LABEL_WIDTH = 30;
const CELL_WIDTH = 11;
const BARS = ' ▁▂▃▄▅▆▇█';

function columnCount(state: CountState): number {
  return (state.plan?.columns.length ?? 0) + 1;
}

/** Which cell each shown column is: the total first, then the values in the plan's order. */
function cellOf(state: CountState, shown: number): number {
  const values = state.plan?.columns.length ?? 0;
  return shown === 0 ? values : shown - 1;
}

async function run(ctx: Ctx): Promise<void> {
  ctx.state.stopping.abort();
  const stopping = new AbortController();
  const { resource, by, connections } = ctx.state;
  ctx.update({ stopping, plan: undefined, cells: [], answered: 0, loading: `counting ${resource}${by ? ` by ${by}` : ''}`, error: undefined });
  try {
    const sources = connections.map((connection) => ({ session: connection.session, ...(connection.profile ? { profile: connection.profile } : {}) }));
    for await (const event of countMatrix(sources, { resource, units: 'all', ...(by ? { by } : {}) }, { signal: stopping.signal })) {
      if (event.kind === 'plan') ctx.update({ plan: event.plan, cells: event.plan.rows.map(() => []) });
      else if (event.kind === 'cell') {
        ctx.update((s) => {
          const cells = [...s.cells];
          const row = [...(cells[event.row] ?? [])];
          row[event.column ?? (s.plan?.columns.length ?? 0)] = event.error ?? event.count;
          cells[event.row] = row;
          return { cells, answered: s.answered + 1 };
        });
      } else if (event.kind === 'row' && event.total !== undefined) {
        ctx.update((s) => {
          const cells = [...s.cells];
          const row = [...(cells[event.row] ?? [])];
          row[s.plan?.columns.length ?? 0] = event.total;
          cells[event.row] = row;
          return { cells };
        });
      } else if (event.kind === 'notice') ctx.nav.notify(event.message);
    }
    ctx.update({ loading: undefined });
  } catch (error) {
    if (!stopping.signal.aborted) ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

/** `P`: every profile of the config file joins the matrix, each with its own unit tree. */
async function everyProfile(ctx: Ctx): Promise<void> {
  const { profiles } = ctx.services;
  if (!profiles || ctx.services.connection.offline) return ctx.nav.notify('no profiles to add: the config file names none, or this explorer is offline');
  await ctx.services.refreshConfig().catch(() => undefined);
  const have = new Set(ctx.state.connections.map((connection) => connection.profile));
  const added: Connection[] = [];
  for (const choice of ctx.services.profileChoices()) {
    if (have.has(choice.name)) continue;
    try {
      added.push(await profiles.connect(choice.name));
    } catch (error) {
      ctx.nav.notify(noticeOf(`profile ${choice.name} left out`, error));
    }
  }
  if (added.length === 0) return ctx.nav.notify('every profile is in the matrix already');
  ctx.update((s) => ({ connections: [...s.connections, ...added] }));
  void run(ctx);
}

function openCell(ctx: Ctx): void {
  const { plan, row, column, resource, connections } = ctx.state;
  const target = plan?.rows[row];
  if (!plan || !target?.target) return ctx.nav.notify(target?.error ? target.error.message : 'the counts are not in yet');
  const connection = connections.find((candidate) => candidate.session === target.scope.source.session);
  if (!connection) return;
  const cell = cellOf(ctx.state, column);
  const filter = cellFilter(plan, cell < plan.columns.length ? cell : undefined);
  ctx.nav.open('list', {
    origin: { connection, ou: target.scope.ou ?? undefined },
    source: { kind: 'resource', resource, version: target.target.version, operationId: target.target.operationId },
    ...(filter ? { serverFilter: filter } : {}),
  });
}

/** A count with a bar of its share of the row's total; coloured by what the column's value means. */
function Cell({ value, share, tone, selected }: { value: number | DpxError | undefined; share: number; tone: Tone; selected: boolean }) {
  if (value === undefined) return <Tinted tone="muted" inverse={selected}>{fit('…', CELL_WIDTH, 'right')}</Tinted>;
  if (typeof value !== 'number') return <Tinted tone="bad" inverse={selected}>{fit('✗ error', CELL_WIDTH, 'right')}</Tinted>;
  const bar = value === 0 ? ' ' : BARS[Math.max(1, Math.round(share * (BARS.length - 1)))]!;
  return <Tinted tone={value === 0 ? 'muted' : tone} inverse={selected} bold={selected}>{fit(`${formatCount(value)} ${bar}`, CELL_WIDTH, 'right')}</Tinted>;
}

export const countScreen: ScreenModule<CountState, CountParams> = {
  title: 'count matrix (:count <resource> by <field>)',
  init: (params) => ({ ...params, connections: [], cells: [], row: 0, column: 0, top: 0, left: 0, stopping: new AbortController(), answered: 0 }),
  start: (ctx) => {
    ctx.update({ connections: [ctx.services.connection] });
    // Known to the explorer too, so that a list opened from a cell is named by its unit in the header.
    void ctx.services.units().catch(() => undefined);
    void run(ctx);
  },
  stop: (state) => state.stopping.abort(),
  crumb: (s) => `count ${s.resource}${s.by ? ` by ${s.by}` : ''}`,
  subject: (s) => `${s.resource}${s.by ? ` by ${s.by}` : ''}`,
  status: (s) => (s.plan ? `${s.plan.rows.length} units × ${s.plan.columns.length || 1} · ${s.answered} answered · values from ${s.plan.valuesFrom ?? 'the total'}` : undefined),
  bindings: [
    { keys: ['return'], help: 'open the unit\'s list, filtered by the value, in that unit', hint: 'Enter open the cell', run: openCell },
    { keys: ['P'], help: 'every profile of the config file: their control planes and units join the matrix', hint: 'P every profile', run: (ctx) => void everyProfile(ctx) },
    { keys: ['r'], help: 'count again', hint: 'r recount', run: (ctx) => void run(ctx) },
    {
      keys: ['left', 'h', 'right', 'l'], help: 'choose the column',
      run: (ctx, key) => {
        const step = key.name === 'left' || key.char === 'h' ? -1 : 1;
        ctx.update((s) => {
          const column = Math.max(0, Math.min(columnCount(s) - 1, s.column + step));
          const fit = Math.max(1, Math.floor((ctx.size.columns - LABEL_WIDTH - 2) / (CELL_WIDTH + 1)));
          return { column, left: column < s.left ? column : column >= s.left + fit ? column - fit + 1 : s.left };
        });
      },
    },
    {
      keys: [...MOVE_KEYS], help: 'choose the unit',
      run: (ctx, key) => {
        const height = ctx.bodyHeight() - 1;
        const row = moveCursor(ctx.state.row, ctx.state.plan?.rows.length ?? 0, key, height);
        ctx.update((s) => ({ row, top: scrollTop(s.top, row, height) }));
      },
    },
  ],
  View: ({ state, height, width }) => {
    const { plan } = state;
    if (!plan) return <Tinted tone="muted">reading each control plane's units and the values of {state.by ?? 'the list'}…</Tinted>;
    const fitting = Math.max(1, Math.floor((width - LABEL_WIDTH - 2) / (CELL_WIDTH + 1)));
    const labels = [...plan.columns.map((c) => c.label), 'total'];
    const tones = [...plan.columns.map((c) => (typeof c.value === 'string' && statusMeaning(c.value) !== 'unknown' ? statusTone(c.value) : 'info')), 'neutral' as Tone];
    const shownColumns = labels.map((_, shown) => ({ shown, index: cellOf(state, shown), label: labels[cellOf(state, shown)]! })).slice(state.left, state.left + fitting);
    const several = state.connections.length > 1;
    return (
      <Box flexDirection="column">
        <Text wrap="truncate">
          <Tinted bold>{fit(several ? 'PROFILE · UNIT' : 'UNIT', LABEL_WIDTH)}</Tinted>{' '}
          {shownColumns.map(({ label, index, shown }) => <Tinted key={index} bold tone="info" inverse={shown === state.column}>{fit(label, CELL_WIDTH, 'right')} </Tinted>)}
        </Text>
        {plan.rows.slice(state.top, state.top + height - 1).map((row, offset) => {
          const index = state.top + offset;
          const cells = state.cells[index] ?? [];
          const total = cells[plan.columns.length];
          const selected = index === state.row;
          const name = `${several ? `${row.scope.source.profile ?? 'here'} · ` : ''}${'  '.repeat(row.scope.depth)}${row.scope.ouName ?? '(no unit)'}`;
          return (
            <Text key={index} wrap="truncate">
              <Tinted bold={selected} inverse={selected}>{fit(name, LABEL_WIDTH)}</Tinted>{' '}
              {row.error ? <Tinted tone="bad">✗ {row.error.message}</Tinted> : shownColumns.map(({ index: column, shown }) => {
                const value = cells[column];
                const share = typeof value === 'number' && typeof total === 'number' && total > 0 ? value / total : 0;
                return <Text key={column}><Cell value={value} share={column === plan.columns.length ? 1 : share} tone={tones[column]!} selected={selected && shown === state.column} /> </Text>;
              })}
            </Text>
          );
        })}
      </Box>
    );
  },
};
