// `:count <resource> by <field> [where <filter>]`: the unit tree × the field's values for the current
// profile (`P` adds every profile), each cell the count the server reports for that unit's scope, with a
// bar of its share of the unit's total — the server's own total, not a sum of the cells — and `other`
// for what the columns leave out. Opened from a filtered list, it counts with the list's filter. Cells
// fill in as their answers arrive; Enter on a cell opens that unit's list, filtered by that value, in
// that unit's own context. The unit and the total stay on screen while `>` `<` scroll the values, which
// come in the order layout.ts gives them (the values that mean trouble first). The rows are a table to
// work (rows.ts): `s` ranks them by the column under the cursor, `/` finds units by name or path.
import { cellFilter } from '../../../api/fanout/count.js';
import { columnWindow, windowLabel } from '../../column-window.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { scrollTop } from '../../layout.js';
import type { Binding, ScreenContext, ScreenModule } from '../../nav/screen.js';
import { scrollBinding, stepColumn } from '../../scroll-keys.js';
import { namesStopper } from '../list/names.js';
import { quickFilterEditing, quickFilterKeys, quickFilterStatus, quickFilterTyping } from '../list/quick-filter.js';
import { GAP } from './layout.js';
import { MatrixView, rowRoom } from './MatrixView.js';
import { askNames, everyProfile, RECOUNT_ASKS_ABOVE, recount, run } from './counting.js';
import { reranked, shownRows } from './rows.js';
import { layoutOf, type CountParams, type CountState } from './state.js';

export type { CountParams, CountState } from './state.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    count: CountParams;
  }
}

type Ctx = ScreenContext<CountState>;

function openCell(ctx: Ctx): void {
  const { plan, column: cell, resource, connections } = ctx.state;
  const target = plan?.rows[shownRows(ctx.state)[ctx.state.cursor] ?? -1];
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

/** `s`: the rows by the column under the cursor, most first; again, the other way. */
function sortRows(ctx: Ctx): void {
  ctx.update((s) => {
    const same = s.sort && 'cell' in s.sort && s.sort.cell === s.column;
    const sorted = { ...s, sort: { cell: s.column, descending: same ? !s.sort!.descending : true } };
    return { sort: sorted.sort, ...reranked(sorted), top: 0 };
  });
}

/** `[-]COLUMN` as the palette and `--sort` give it. */
function sortParam(sort: string | undefined): CountState['sort'] {
  if (!sort) return undefined;
  const descending = sort.startsWith('-');
  return { label: descending ? sort.slice(1) : sort, descending };
}

export const countScreen: ScreenModule<CountState, CountParams> = {
  title: 'count matrix (:count <resource> by <field>)',
  init: ({ sort, ...params }) => ({
    ...params,
    sort: sortParam(sort),
    connections: [],
    cells: [],
    results: [],
    cursor: 0,
    column: 0,
    top: 0,
    left: 2,
    byName: false,
    localFilter: '',
    localFilterEditing: false,
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
  typing: quickFilterTyping,
  empty: (s) => s.plan === undefined,
  crumb: (s) => `count ${s.resource}${s.by ? ` by ${s.by}` : ''}${s.filter ? ' (filtered)' : ''}`,
  subject: (s) => `${s.resource}${s.by ? ` by ${s.by}` : ''}`,
  question: (s) => ({ resource: s.resource, ...(s.filter ? { filter: s.filter } : {}) }),
  status: (s) =>
    quickFilterStatus(s) ??
    (s.plan
      ? `${shownRows(s).length} of ${s.plan.rows.length} units × ${s.plan.columns.length || 1} · ${s.answered} answered · values ${valuesText(s.plan)}`
      : undefined),
  bindings: [
    ...quickFilterEditing<CountState>(),
    {
      keys: ['return'],
      help: "open the unit's list, filtered by the value, in that unit",
      hint: 'Enter open the cell',
      run: openCell,
    },
    ...quickFilterKeys<CountState>(
      'find units: the rows whose unit name or path holds the text (Enter keeps it, Esc clears it)',
    ),
    {
      keys: ['P'],
      help: 'every profile of the config file: their control planes and units join the matrix',
      hint: 'P every profile',
      run: (ctx) => void everyProfile(ctx),
    },
    {
      keys: ['r'],
      help: `count again (asks first when that sends more than ${RECOUNT_ASKS_ABOVE} requests)`,
      hint: 'r recount',
      run: recount,
    },
    {
      keys: ['s'],
      help: 'sort the rows by the column under the cursor, most first, each unit under its parent (again: reverse)',
      hint: 's sort rows',
      run: sortRows,
    },
    {
      keys: ['S'],
      help: 'order the value columns by name, or again trouble first, then by count',
      hint: 'S order columns',
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
        const height = rowRoom(ctx.state, ctx.bodyHeight(), ctx.size.columns);
        const cursor = moveCursor(ctx.state.cursor, shownRows(ctx.state).length, key, height);
        ctx.update((s) => ({ cursor, top: scrollTop(s.top, cursor, height) }));
      },
    },
  ],
  badges: (s, width) => {
    if (!s.plan) return [];
    const { shape } = layoutOf(s, s.plan, width);
    const label = windowLabel(columnWindow(shape.widths, { ...shape, left: s.left }), shape.widths, shape.frozen);
    return label ? [label] : [];
  },
  View: MatrixView,
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
function valuesText(plan: NonNullable<CountState['plan']>): string {
  const from = plan.valuesFrom;
  if (from === undefined) return 'none (the total only)';
  if (from === 'given') return 'as given';
  const pages = `${from.pages} page${from.pages === 1 ? '' : 's'}${from.everyPage ? ' (every page)' : ''}`;
  return `from ${from.schema ? `the schema and ${pages}` : pages}`;
}
