// The count matrix's work: the count itself (with the time window put on the resource's own time field),
// the names of the values on screen, a recount that asks first when it would send many requests, and `P`,
// which adds every profile's control plane.
import { countAcross } from '../../../api/fanout/count-across.js';
import type { CountEvent } from '../../../api/fanout/count.js';
import { describeWindow, readWindow } from '../../../api/hal/time-window.js';
import { windowOnList } from '../../../api/session/windowed.js';
import { formatCount } from '../../../text/cells.js';
import { columnWindow } from '../../column-window.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import type { ScreenContext } from '../../nav/screen.js';
import type { Connection } from '../../services/connection.js';
import { askValueNames } from './names.js';
import { reranked, sortOfLabel } from './rows.js';
import { layoutOf, type CountState } from './state.js';

type Ctx = ScreenContext<CountState>;

/** A recount that would send more requests than this asks first. */
export const RECOUNT_ASKS_ABOVE = 50;

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
export function askNames(ctx: Ctx): void {
  const { plan, results, loading } = ctx.state;
  if (
    !plan?.by ||
    (loading !== undefined &&
      plan.rows.some((row, index) => row.scope.depth === 0 && !row.error && results[index] === undefined))
  )
    return;
  void askValueNames(ctx, () => shownValues(ctx.state, ctx.size.columns));
}

const requestsSent = (connections: readonly Connection[]) =>
  connections.reduce((sum, connection) => sum + connection.session.traffic.requests, 0);

/** The filter counted with: the one asked for, with the time window put on the resource's own time field. */
async function windowed(ctx: Ctx): Promise<{ filter?: string; keep?: (record: Record<string, unknown>) => boolean }> {
  const { resource, filter, since, until, connections } = ctx.state;
  const window = readWindow(since, until, new Date(ctx.now));
  if (!window || !connections[0]) return filter ? { filter } : {};
  const put = await windowOnList(connections[0].session, { resource, ...(filter ? { filter } : {}) }, window);
  ctx.update({ windowText: describeWindow(put.field, window) });
  if (put.refused)
    ctx.nav.notify(`the server refused the window as a filter (${put.refused}): every record is read and counted here`);
  return { ...(put.filter ? { filter: put.filter } : {}), ...(put.keep ? { keep: put.keep } : {}) };
}

export async function run(ctx: Ctx): Promise<void> {
  ctx.state.stopping.abort();
  const stopping = new AbortController();
  const { resource, by, forcedPlan, depth, connections } = ctx.state;
  const before = requestsSent(connections);
  // The rows stay, in their ranking, until the new plan comes; their numbers fill in again.
  ctx.update((s) => ({
    stopping,
    cells: s.plan ? s.plan.rows.map(() => []) : [],
    results: s.plan ? s.plan.rows.map(() => undefined) : [],
    answered: 0,
    loading: `counting ${resource}${by ? ` by ${by}` : ''}`,
    error: undefined,
  }));
  try {
    const { filter, keep } = await windowed(ctx);
    const sources = connections.map((connection) => ({
      session: connection.session,
      ...(connection.profile ? { profile: connection.profile } : {}),
    }));
    const answer = await countAcross(
      sources,
      {
        resource,
        units: 'all',
        ...(by ? { by } : {}),
        ...(filter ? { filter } : {}),
        ...(keep ? { keep } : {}),
        ...(forcedPlan ? { plan: forcedPlan } : {}),
        ...(depth === undefined ? {} : { depth }),
      },
      { signal: stopping.signal, on: (event) => shown(ctx, event) },
    );
    // Stopped for a new count (or the screen closed): that count's rows are on screen now, not these.
    if (stopping.signal.aborted) return;
    ctx.update((s) => ({ loading: undefined, lastRequests: answer.requests - before, ...reranked(s) }));
    askNames(ctx);
  } catch (error) {
    if (!stopping.signal.aborted) ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

/** One event of the count on screen: the plan's rows and columns, a cell, a row's result, a notice. */
function shown(ctx: Ctx, event: CountEvent): void {
  if (event.kind === 'plan') {
    const asked = ctx.state.sort;
    const sort = asked && !('cell' in asked) ? sortOfLabel(event.plan, asked) : asked;
    if (asked && 'label' in asked && !sort)
      ctx.nav.notify(`sort ${asked.label}: the matrix has no such column (a value, total, other or unit)`);
    ctx.update((s) => ({
      plan: event.plan,
      ...(s.plan?.rows.length === event.plan.rows.length
        ? {}
        : { column: event.plan.columns.length, left: 2, cursor: 0, top: 0, ranking: undefined }),
      sort,
      cells: event.plan.rows.map(() => []),
      results: event.plan.rows.map(() => undefined),
    }));
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

/** `r`: counts again, after asking when that would send more than a few requests. */
export function recount(ctx: Ctx): void {
  const { plan, lastRequests } = ctx.state;
  const cost = lastRequests ?? (plan ? plan.rows.length * (plan.columns.length + 1) : 0);
  if (cost <= RECOUNT_ASKS_ABOVE) return void run(ctx);
  ctx.nav.open('choose', {
    title: `Count again? The last count sent ${formatCount(cost)} requests`,
    entries: [
      { label: 'count again', detail: `about ${formatCount(cost)} requests`, run: () => void run(ctx) },
      { label: 'keep these counts', detail: 'send nothing', run: () => undefined },
    ],
  });
}

/** `P`: every profile of the config file joins the matrix, each with its own unit tree. */
export async function everyProfile(ctx: Ctx): Promise<void> {
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
