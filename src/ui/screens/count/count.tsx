// `:count <resource> by <field> [where <filter>]`: the unit tree × the field's values for the current
// profile (`P` adds every profile), each cell the count the server reports for that unit's scope, with a
// bar of its share of the unit's total — the server's own total, not a sum of the cells — and `other`
// for what the columns leave out. Opened from a filtered list, it counts with the list's filter. Cells
// fill in as their answers arrive; Enter on a cell opens that unit's list, filtered by that value, in
// that unit's own context.
import { Box, Text } from 'ink';
import { cellFilter, countMatrix, type CountPlan, type RowCounts } from '../../../api/fanout/count.js';
import type { DpxError } from '../../../api/errors.js';
import { statusMeaning } from '../../../api/hal/status.js';
import { fit, formatCount, truncate } from '../../../text/cells.js';
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
  /** A server-side filter (JSON text) every count carries. */
  filter?: string;
}

export interface CountState extends ScreenBase, CountParams {
  /** The control planes asked: the current one, then with `P` every profile's. */
  connections: Connection[];
  plan?: CountPlan;
  /** Counts by row, then column (the total's column is the last); an error in place of a count that failed. */
  cells: (number | DpxError | undefined)[][];
  /** Each row's numbers once all of them answered: `other`, and whether any was counted or changed. */
  results: (RowCounts | undefined)[];
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

/** Whether `other` is shown: where a row's columns leave records out, or its numbers changed while counted. */
function showsOther(state: CountState): boolean {
  return state.plan?.by !== undefined && state.results.some((result) => (result?.other !== undefined && result.other !== 0) || result?.changed === true);
}

function columnCount(state: CountState): number {
  return (state.plan?.columns.length ?? 0) + 1 + (showsOther(state) ? 1 : 0);
}

/** Which cell each shown column is: the total first, then the values in the plan's order, then other (one past the total). */
function cellOf(state: CountState, shown: number): number {
  const values = state.plan?.columns.length ?? 0;
  return shown === 0 ? values : shown <= values ? shown - 1 : values + 1;
}

async function run(ctx: Ctx): Promise<void> {
  ctx.state.stopping.abort();
  const stopping = new AbortController();
  const { resource, by, filter, connections } = ctx.state;
  ctx.update({ stopping, plan: undefined, cells: [], results: [], answered: 0, loading: `counting ${resource}${by ? ` by ${by}` : ''}`, error: undefined });
  try {
    const sources = connections.map((connection) => ({ session: connection.session, ...(connection.profile ? { profile: connection.profile } : {}) }));
    for await (const event of countMatrix(sources, { resource, units: 'all', ...(by ? { by } : {}), ...(filter ? { filter } : {}) }, { signal: stopping.signal })) {
      if (event.kind === 'plan') ctx.update({ plan: event.plan, cells: event.plan.rows.map(() => []), results: event.plan.rows.map(() => undefined) });
      else if (event.kind === 'cell') {
        ctx.update((s) => {
          const cells = [...s.cells];
          const row = [...(cells[event.row] ?? [])];
          row[event.column ?? (s.plan?.columns.length ?? 0)] = event.error ?? event.count;
          cells[event.row] = row;
          return { cells, answered: s.answered + 1 };
        });
      } else if (event.kind === 'row') {
        const { kind: _kind, row: at, ...result } = event;
        ctx.update((s) => {
          const results = [...s.results];
          results[at] = result;
          return { results };
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
  if (cell > plan.columns.length) ctx.nav.notify(`other has no filter of its own: the list shows the unit's records with every value of ${plan.by}`);
  const filter = cellFilter(plan, cell < plan.columns.length ? cell : undefined);
  ctx.nav.open('list', {
    origin: { connection, ou: target.scope.ou ?? undefined },
    source: { kind: 'resource', resource, version: target.target.version, operationId: target.target.operationId },
    ...(filter ? { serverFilter: filter } : {}),
  });
}

/** A count with a bar of its share of the row's total; coloured by what the column's value means; `*` when dpx counted it. */
function Cell({ value, share, tone, selected, mark = '' }: { value: number | DpxError | 'changed' | undefined; share: number; tone: Tone; selected: boolean; mark?: string }) {
  if (value === undefined) return <Tinted tone="muted" inverse={selected}>{fit('…', CELL_WIDTH, 'right')}</Tinted>;
  if (value === 'changed') return <Tinted tone="bad" inverse={selected}>{fit('changed', CELL_WIDTH, 'right')}</Tinted>;
  if (typeof value !== 'number') return <Tinted tone="bad" inverse={selected}>{fit('✗ error', CELL_WIDTH, 'right')}</Tinted>;
  const bar = value === 0 ? ' ' : BARS[Math.max(1, Math.round(share * (BARS.length - 1)))]!;
  return <Tinted tone={value === 0 ? 'muted' : tone} inverse={selected} bold={selected}>{fit(`${formatCount(value)}${mark} ${bar}`, CELL_WIDTH, 'right')}</Tinted>;
}

/** What the matrix is, under its header: the filter counted with, and what its marks mean. */
function captionOf(state: CountState, width: number): string | undefined {
  const parts: string[] = [];
  if (state.filter) parts.push(`where ${state.filter}`);
  const survey = typeof state.plan?.valuesFrom === 'object' ? state.plan.valuesFrom : undefined;
  if (survey?.mayMiss) parts.push(`values of ${state.by} may be missing (${survey.pages} pages read, no last page linked): other counts them`);
  if (state.results.some((result) => result?.counted)) parts.push('* counted from every record: the list reports no total_count');
  if (state.results.some((result) => result?.changed)) parts.push('changed: records moved while counted; r counts again');
  return parts.length === 0 ? undefined : truncate(parts.join(' · '), width);
}

export const countScreen: ScreenModule<CountState, CountParams> = {
  title: 'count matrix (:count <resource> by <field>)',
  init: (params) => ({ ...params, connections: [], cells: [], results: [], row: 0, column: 0, top: 0, left: 0, stopping: new AbortController(), answered: 0 }),
  start: (ctx) => {
    ctx.update({ connections: [ctx.services.connection] });
    // Known to the explorer too, so that a list opened from a cell is named by its unit in the header.
    void ctx.services.units().catch(() => undefined);
    void run(ctx);
  },
  stop: (state) => state.stopping.abort(),
  empty: (s) => s.plan === undefined,
  crumb: (s) => `count ${s.resource}${s.by ? ` by ${s.by}` : ''}${s.filter ? ' (filtered)' : ''}`,
  subject: (s) => `${s.resource}${s.by ? ` by ${s.by}` : ''}`,
  question: (s) => ({ resource: s.resource, ...(s.filter ? { filter: s.filter } : {}) }),
  status: (s) => (s.plan ? `${s.plan.rows.length} units × ${s.plan.columns.length || 1} · ${s.answered} answered · values ${valuesText(s.plan)}` : undefined),
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
        const height = ctx.bodyHeight() - 1 - (captionOf(ctx.state, ctx.size.columns) ? 1 : 0);
        const row = moveCursor(ctx.state.row, ctx.state.plan?.rows.length ?? 0, key, height);
        ctx.update((s) => ({ row, top: scrollTop(s.top, row, height) }));
      },
    },
  ],
  View: ({ state, height, width }) => {
    const { plan } = state;
    if (!plan) return <Tinted tone="muted">reading each control plane's units and the values of {state.by ?? 'the list'}…</Tinted>;
    const fitting = Math.max(1, Math.floor((width - LABEL_WIDTH - 2) / (CELL_WIDTH + 1)));
    const labels = [...plan.columns.map((c) => c.label), 'total', 'other'];
    const tones = [...plan.columns.map((c) => (typeof c.value === 'string' && statusMeaning(c.value) !== 'unknown' ? statusTone(c.value) : 'info')), 'neutral' as Tone, 'neutral' as Tone];
    const count = columnCount(state);
    const shownColumns = Array.from({ length: count }, (_, shown) => ({ shown, index: cellOf(state, shown), label: labels[cellOf(state, shown)]! })).slice(state.left, state.left + fitting);
    const several = state.connections.length > 1;
    const caption = captionOf(state, width);
    const valueOf = (index: number, column: number): number | DpxError | 'changed' | undefined => {
      if (column <= plan.columns.length) return state.cells[index]?.[column];
      const result = state.results[index];
      return result?.changed ? 'changed' : result?.other;
    };
    return (
      <Box flexDirection="column">
        {caption ? <Tinted tone="muted">{caption}</Tinted> : null}
        <Text wrap="truncate">
          <Tinted bold>{fit(several ? 'PROFILE · UNIT' : 'UNIT', LABEL_WIDTH)}</Tinted>{' '}
          {shownColumns.map(({ label, index, shown }) => <Tinted key={index} bold tone="info" inverse={shown === state.column}>{fit(label, CELL_WIDTH, 'right')} </Tinted>)}
        </Text>
        {plan.rows.slice(state.top, state.top + height - 1 - (caption ? 1 : 0)).map((row, offset) => {
          const index = state.top + offset;
          const cells = state.cells[index] ?? [];
          const total = cells[plan.columns.length];
          const counted = state.results[index]?.counted === true;
          const selected = index === state.row;
          const name = `${several ? `${row.scope.source.profile ?? 'here'} · ` : ''}${'  '.repeat(row.scope.depth)}${row.scope.ouName ?? '(no unit)'}`;
          return (
            <Text key={index} wrap="truncate">
              <Tinted bold={selected} inverse={selected}>{fit(name, LABEL_WIDTH)}</Tinted>{' '}
              {row.error ? <Tinted tone="bad">✗ {row.error.message}</Tinted> : shownColumns.map(({ index: column, shown }) => {
                const value = valueOf(index, column);
                const share = typeof value === 'number' && typeof total === 'number' && total > 0 ? value / total : 0;
                const mark = counted && column === plan.columns.length ? '*' : '';
                return <Text key={column}><Cell value={value} share={column === plan.columns.length ? 1 : share} tone={tones[column]!} selected={selected && shown === state.column} mark={mark} /> </Text>;
              })}
            </Text>
          );
        })}
      </Box>
    );
  },
};

/** Where the columns came from, for the status line. */
function valuesText(plan: CountPlan): string {
  const from = plan.valuesFrom;
  if (from === undefined) return 'none (the total only)';
  if (from === 'given') return 'as given';
  const pages = `${from.pages} page${from.pages === 1 ? '' : 's'}${from.everyPage ? ' (every page)' : ''}`;
  return `from ${from.schema ? `the schema and ${pages}` : pages}`;
}
