// `:count <resource> by <field> [where <filter>]`: the unit tree × the field's values for the current
// profile (`P` adds every profile), each cell the count the server reports for that unit's scope, with a
// bar of its share of the unit's total — the server's own total, not a sum of the cells — and `other`
// for what the columns leave out. Opened from a filtered list, it counts with the list's filter. Cells
// fill in as their answers arrive; Enter on a cell opens that unit's list, filtered by that value, in
// that unit's own context. The unit and the total stay on screen while `>` `<` scroll the values, which
// come in the order layout.ts gives them (the values that mean trouble first).
import { Box, Text } from 'ink';
import { cellFilter, countMatrix, type CountPlan, type RowCounts } from '../../../api/fanout/count.js';
import type { DpxError } from '../../../api/errors.js';
import { statusMeaning } from '../../../api/hal/status.js';
import { fit, truncate } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { scrollTop } from '../../layout.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import type { Binding, ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Connection } from '../../services/connection.js';
import { statusTone, type Tone } from '../../../text/colour.js';
import { columnWindow, windowLabel } from '../../column-window.js';
import { scrollBinding, stepColumn, type TableShape } from '../../scroll-keys.js';
import { columnOrder, countText, GAP, headerText, matrixShape, type CellValue, type MatrixData } from './layout.js';
import { askValueNames, valueHeader, type NamedMatrix } from './names.js';
import { namesStopper } from '../list/names.js';

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
  /** One of the planner's plans, forced (`:count … plan cells`); else the cheaper. */
  forcedPlan?: 'cells' | 'scan';
}

export interface CountState extends ScreenBase, CountParams, NamedMatrix {
  /** The control planes asked: the current one, then with `P` every profile's. */
  connections: Connection[];
  plan?: CountPlan;
  /** Counts by row, then column (the total's column is the last); an error in place of a count that failed. */
  cells: (number | DpxError | undefined)[][];
  /** Each row's numbers once all of them answered: `other`, and whether any was counted or changed. */
  results: (RowCounts | undefined)[];
  row: number;
  /** The current cell, by its index in a row's cells (the total is `plan.columns.length`, other one more). */
  column: number;
  top: number;
  /** The first value column scrolled to (`>` `<`), among the columns drawn (the unit is 0, the total 1). */
  left: number;
  /** `s`: the value columns by name instead of trouble first, then by count. */
  byName: boolean;
  stopping: AbortController;
  answered: number;
}

type Ctx = ScreenContext<CountState>;

const BARS = ' ▁▂▃▄▅▆▇█';

/** Whether `other` is shown: where a row's columns leave records out, or its numbers changed while counted. */
function showsOther(state: CountState): boolean {
  return (
    state.plan?.by !== undefined &&
    state.results.some((result) => (result?.other !== undefined && result.other !== 0) || result?.changed === true)
  );
}

/** A row's cell: a count, an error, `changed` (other, when the numbers moved), or not in yet. */
function valueOf(state: CountState, row: number, cell: number): CellValue {
  if (cell <= (state.plan?.columns.length ?? 0)) return state.cells[row]?.[cell];
  const result = state.results[row];
  return result?.changed ? 'changed' : result?.other;
}

/** The unit column's text: the profile when there are several, the unit indented by its depth. */
function unitName(state: CountState, row: CountPlan['rows'][number]): string {
  return `${state.connections.length > 1 ? `${row.scope.source.profile ?? 'here'} · ` : ''}${'  '.repeat(row.scope.depth)}${row.scope.ouName ?? '(no unit)'}`;
}

/** The columns in the order drawn and their shape for the window, `width` cells wide. */
function layoutOf(
  state: CountState,
  plan: CountPlan,
  width: number,
): { data: MatrixData; order: number[]; shape: TableShape } {
  const data: MatrixData = {
    plan,
    other: showsOther(state),
    names: plan.rows.map((row) => unitName(state, row)),
    value: (row, cell) => valueOf(state, row, cell),
    byName: state.byName,
    header: (cell) => valueHeader(state, cell),
  };
  const order = columnOrder(data);
  return { data, order, shape: matrixShape(data, order, width) };
}

/** The values whose columns are on screen, by their index in the plan. */
function shownValues(state: CountState, width: number): number[] {
  const { plan } = state;
  if (!plan) return [];
  const { order, shape } = layoutOf(state, plan, width);
  return columnWindow(shape.widths, { ...shape, left: state.left })
    .slice(1)
    .map(({ index }) => order[index - 1]!)
    .filter((cell) => cell < plan.columns.length);
}

/**
 * Names for the values on screen (names.ts), once the order of the columns is settled: it follows the
 * counts of the top rows, so until each has answered, the columns on screen are not yet those that stay
 * there (and names would wait behind the counts in the limiter anyway). Asked again as rows answer, on a
 * scroll or sort, and every tick (a resized terminal shows other columns).
 */
function askNames(ctx: Ctx): void {
  const { plan, results, loading } = ctx.state;
  if (
    !plan?.by ||
    (loading !== undefined &&
      plan.rows.some((row, index) => row.scope.depth === 0 && !row.error && results[index] === undefined))
  )
    return;
  void askValueNames(ctx, () => shownValues(ctx.state, ctx.size.columns));
}

async function run(ctx: Ctx): Promise<void> {
  ctx.state.stopping.abort();
  const stopping = new AbortController();
  const { resource, by, filter, forcedPlan, connections } = ctx.state;
  ctx.update({
    stopping,
    plan: undefined,
    cells: [],
    results: [],
    answered: 0,
    loading: `counting ${resource}${by ? ` by ${by}` : ''}`,
    error: undefined,
  });
  try {
    const sources = connections.map((connection) => ({
      session: connection.session,
      ...(connection.profile ? { profile: connection.profile } : {}),
    }));
    for await (const event of countMatrix(
      sources,
      {
        resource,
        units: 'all',
        ...(by ? { by } : {}),
        ...(filter ? { filter } : {}),
        ...(forcedPlan ? { plan: forcedPlan } : {}),
      },
      { signal: stopping.signal },
    )) {
      if (event.kind === 'plan') {
        ctx.update({
          plan: event.plan,
          column: event.plan.columns.length,
          left: 2,
          cells: event.plan.rows.map(() => []),
          results: event.plan.rows.map(() => undefined),
        });
        // Whether the values are ids, and the names known already (units): no request yet.
        void askValueNames(ctx, () => []);
      } else if (event.kind === 'cell') {
        ctx.update((s) => {
          const cells = [...s.cells];
          const row = [...(cells[event.row] ?? [])];
          row[event.column ?? s.plan?.columns.length ?? 0] = event.error ?? event.count;
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
        askNames(ctx);
      } else if (event.kind === 'notice') ctx.nav.notify(event.message);
    }
    ctx.update({ loading: undefined });
    askNames(ctx);
  } catch (error) {
    if (!stopping.signal.aborted) ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

/** `P`: every profile of the config file joins the matrix, each with its own unit tree. */
async function everyProfile(ctx: Ctx): Promise<void> {
  const { profiles } = ctx.services;
  if (!profiles || ctx.services.connection.offline)
    return ctx.nav.notify('no profiles to add: the config file names none, or this explorer is offline');
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
  const { plan, row, column: cell, resource, connections } = ctx.state;
  const target = plan?.rows[row];
  if (!plan || !target?.target)
    return ctx.nav.notify(target?.error ? target.error.message : 'the counts are not in yet');
  const connection = connections.find((candidate) => candidate.session === target.scope.source.session);
  if (!connection) return;
  if (cell > plan.columns.length)
    ctx.nav.notify(`other has no filter of its own: the list shows the unit's records with every value of ${plan.by}`);
  const filter = cellFilter(plan, cell < plan.columns.length ? cell : undefined);
  ctx.nav.open('list', {
    origin: { connection, ou: target.scope.ou ?? undefined },
    source: { kind: 'resource', resource, version: target.target.version, operationId: target.target.operationId },
    ...(filter ? { serverFilter: filter } : {}),
  });
}

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

/** What the matrix is, under its header: the filter counted with, and what its marks mean. */
function captionOf(state: CountState, width: number): string | undefined {
  const parts: string[] = [];
  if (state.filter) parts.push(`where ${state.filter}`);
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

export const countScreen: ScreenModule<CountState, CountParams> = {
  title: 'count matrix (:count <resource> by <field>)',
  init: (params) => ({
    ...params,
    connections: [],
    cells: [],
    results: [],
    row: 0,
    column: 0,
    top: 0,
    left: 2,
    byName: false,
    stopping: new AbortController(),
    answered: 0,
    valueNames: new Map(),
    namesStop: namesStopper(),
  }),
  start: (ctx) => {
    ctx.update({ connections: [ctx.services.connection] });
    // Known to the explorer too, so that a list opened from a cell is named by its unit in the header.
    void ctx.services.units().catch(() => undefined);
    void run(ctx);
  },
  stop: (state) => {
    state.stopping.abort();
    state.namesStop.abort();
  },
  // A resized terminal shows other columns, and a screen closed over the matrix may have named some.
  tick: askNames,
  resumed: askNames,
  empty: (s) => s.plan === undefined,
  crumb: (s) => `count ${s.resource}${s.by ? ` by ${s.by}` : ''}${s.filter ? ' (filtered)' : ''}`,
  subject: (s) => `${s.resource}${s.by ? ` by ${s.by}` : ''}`,
  question: (s) => ({ resource: s.resource, ...(s.filter ? { filter: s.filter } : {}) }),
  status: (s) =>
    s.plan
      ? `${s.plan.rows.length} units × ${s.plan.columns.length || 1} · ${s.answered} answered · values ${valuesText(s.plan)}`
      : undefined,
  bindings: [
    {
      keys: ['return'],
      help: "open the unit's list, filtered by the value, in that unit",
      hint: 'Enter open the cell',
      run: openCell,
    },
    {
      keys: ['P'],
      help: 'every profile of the config file: their control planes and units join the matrix',
      hint: 'P every profile',
      run: (ctx) => void everyProfile(ctx),
    },
    { keys: ['r'], help: 'count again', hint: 'r recount', run: (ctx) => void run(ctx) },
    {
      keys: ['s'],
      help: 'the value columns by name, or again trouble first, then by count',
      hint: 's sort values',
      run: (ctx) => {
        ctx.update((s) => ({ byName: !s.byName, left: 2 }));
        askNames(ctx);
      },
    },
    {
      keys: ['left', 'h', 'right', 'l'],
      help: 'choose the column',
      run: (ctx, key) => {
        const { plan } = ctx.state;
        if (!plan) return;
        const { order, shape } = layoutOf(ctx.state, plan, ctx.size.columns);
        // Positions on screen: the unit column is 0 and is no cell, the total is 1.
        const moved = stepColumn(
          shape,
          ctx.state.left,
          order.indexOf(ctx.state.column) + 1,
          key.name === 'left' || key.char === 'h' ? -1 : 1,
          1,
        );
        ctx.update({ column: order[moved.column - 1]!, left: moved.left });
        askNames(ctx);
      },
    },
    andThen(
      scrollBinding(
        (ctx) =>
          ctx.state.plan
            ? layoutOf(ctx.state, ctx.state.plan, ctx.size.columns).shape
            : { widths: [], frozen: 2, room: 0, gap: GAP },
        (s) => s.plan !== undefined,
        'scroll the value columns right / left (the unit and the total stay)',
      ),
      askNames,
    ),
    {
      keys: [...MOVE_KEYS],
      help: 'choose the unit',
      run: (ctx, key) => {
        const height = ctx.bodyHeight() - 1 - (captionOf(ctx.state, ctx.size.columns) ? 1 : 0);
        const row = moveCursor(ctx.state.row, ctx.state.plan?.rows.length ?? 0, key, height);
        ctx.update((s) => ({ row, top: scrollTop(s.top, row, height) }));
      },
    },
  ],
  badges: (s, width) => {
    if (!s.plan) return [];
    const { shape } = layoutOf(s, s.plan, width);
    const label = windowLabel(columnWindow(shape.widths, { ...shape, left: s.left }), shape.widths, shape.frozen);
    return label ? [label] : [];
  },
  View: ({ state, height, width }) => {
    const { plan } = state;
    if (!plan)
      return (
        <Tinted tone="muted">reading each control plane's units and the values of {state.by ?? 'the list'}…</Tinted>
      );
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
    return (
      <Box flexDirection="column">
        {caption ? <Tinted tone="muted">{caption}</Tinted> : null}
        <Text wrap="truncate">
          <Tinted bold>{fit(state.connections.length > 1 ? 'PROFILE · UNIT' : 'UNIT', unitWidth)}</Tinted>
          {shownColumns.map(({ cell, width: cellWidth }) => (
            <Tinted key={cell} bold tone="info" inverse={cell === state.column}>
              {' '}
              {fit(headerText(data, cell, cellWidth), cellWidth, 'right')}
            </Tinted>
          ))}
        </Text>
        {plan.rows.slice(state.top, state.top + height - 1 - (caption ? 1 : 0)).map((row, offset) => {
          const index = state.top + offset;
          const rowTotal = valueOf(state, index, total);
          const counted = state.results[index]?.counted === true;
          const selected = index === state.row;
          return (
            <Text key={index} wrap="truncate">
              <Tinted bold={selected} inverse={selected}>
                {fit(unitName(state, row), unitWidth)}
              </Tinted>{' '}
              {row.error ? (
                <Tinted tone="bad">✗ {row.error.message}</Tinted>
              ) : (
                shownColumns.map(({ cell, width: cellWidth }, at) => {
                  const value = valueOf(state, index, cell);
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
  },
};

/** A binding that does `after` once it has run (a scroll, then the names of the columns it brought). */
function andThen(binding: Binding<CountState>, after: (ctx: Ctx) => void): Binding<CountState> {
  return {
    ...binding,
    run: (ctx, key) => {
      binding.run(ctx, key);
      after(ctx);
    },
  };
}

/** Where the columns came from, for the status line. */
function valuesText(plan: CountPlan): string {
  const from = plan.valuesFrom;
  if (from === undefined) return 'none (the total only)';
  if (from === 'given') return 'as given';
  const pages = `${from.pages} page${from.pages === 1 ? '' : 's'}${from.everyPage ? ' (every page)' : ''}`;
  return `from ${from.schema ? `the schema and ${pages}` : pages}`;
}
