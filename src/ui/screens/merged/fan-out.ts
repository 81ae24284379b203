// The merged list's state, and its loading: every unit's first page asked at once (through the session's
// limiter), deepest units first so a record an ancestor's scope also holds keeps its deepest unit, further pages
// per unit when the screen asks for more, and the names of the ids on screen. merged.tsx draws it and keys it.
import { setMaxListeners } from 'node:events';
import { type RecordDedupe, scopePages } from '../../../api/fanout/fanout.js';
import type { Page } from '../../../api/session/page.js';
import { planScopes, type Scope, unitLabel } from '../../../api/fanout/scopes.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import type { ScreenBase, ScreenContext } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import type { Condition } from '../../filter.js';
import { quickFiltered, type QuickFiltered } from '../list/quick-filter.js';
import { askNames, type LoadedRows, type NamedRows } from '../list/names.js';

export interface MergedParams {
  origin: Origin;
  resource: string;
  /** A server-side filter (JSON text) every unit's list is read with: the list it was opened from kept it. */
  filter?: string;
  /** The conditions the filter was built from here (`f`), for the builder to show again. */
  conditions?: Condition[];
}

/** The field a row's unit is shown in: no record field can be named so. */
export const UNIT = '@unit';

export interface MergedState extends ScreenBase, MergedParams, QuickFiltered, NamedRows {
  scopes: Scope[];
  /** Records as shown (each with its unit), and the scope each was read in. */
  rows: Record<string, unknown>[];
  /**
   * Grown in place as rows arrive: a row is added once and never read in another scope, so the rows array,
   * new with each page, is what tells React something changed. A copy per page made loading every unit's
   * list quadratic in its rows (the 19,686 tasks of 266 units: 266 copies of a map of up to 19,686).
   */
  scopeOf: WeakMap<Record<string, unknown>, Scope>;
  /** Each unit's pages still to come, in the order units are read; removed once a unit has no more. */
  more: ReadonlyMap<Scope, AsyncGenerator<Page>>;
  asking: number;
  failed: number;
  dedupe: RecordDedupe;
  stopping: AbortController;
  /** The first column scrolled to (`>` `<`). */
  left: number;
  /** The columns chosen for this resource (`c`, here or in a list of it), when any were. */
  fields?: readonly string[];
}

type Ctx = ScreenContext<MergedState>;

async function nextPage(ctx: Ctx, scope: Scope, pages: AsyncGenerator<Page>): Promise<void> {
  try {
    const next = await pages.next();
    ctx.update((s) => {
      const more = new Map(s.more);
      if (next.done) {
        more.delete(scope);
        return { more, asking: s.asking - 1 };
      }
      const added = next.value.items
        .filter((record) => s.dedupe.admit(record))
        .map((record) => ({ [UNIT]: unitLabel(scope) ?? '(no unit)', ...record }));
      for (const row of added) s.scopeOf.set(row, scope);
      if (!next.value.links.has('next')) more.delete(scope);
      return { rows: [...s.rows, ...added], more, asking: s.asking - 1 };
    });
    setImmediate(() => askShownNames(ctx));
  } catch (error) {
    if (ctx.state.stopping.signal.aborted) return;
    ctx.update((s) => {
      const more = new Map(s.more);
      more.delete(scope);
      return { more, asking: s.asking - 1, failed: s.failed + 1 };
    });
    ctx.nav.notify(noticeOf(`${scope.ouName ?? 'a unit'} left out`, error));
  }
}

/** Asks every unit that has more for its next page. */
export function askMore(ctx: Ctx): void {
  const { more } = ctx.state;
  if (ctx.state.asking > 0 || more.size === 0) return;
  ctx.update({ asking: more.size });
  for (const [scope, pages] of more) void nextPage(ctx, scope, pages);
}

export async function startLoading(ctx: Ctx): Promise<void> {
  const { origin, resource, filter, stopping } = ctx.state;
  const source = {
    session: origin.connection.session,
    ...(origin.connection.profile ? { profile: origin.connection.profile } : {}),
  };
  // Every unit's walk listens to this one signal.
  setMaxListeners(0, stopping.signal);
  ctx.update({ loading: `reading ${resource} in every unit` });
  // Known to the explorer too, so that a record opened from here is named by its unit in the header.
  void ctx.services.units(origin.connection).catch(() => undefined);
  void ctx.services.columnChoice(origin.connection, resource).then(
    (fields) => fields && ctx.alive && ctx.update({ fields }),
    () => undefined,
  );
  try {
    // Deepest first: a record also held by an ancestor's scope is given out with its deepest unit.
    const scopes = (await planScopes(source, 'all', { signal: stopping.signal })).sort((a, b) => b.depth - a.depth);
    const pageSize = origin.connection.pageSize;
    const more = new Map(
      scopes.map((scope) => [
        scope,
        scopePages(
          scope,
          { resource, all: true, ...(pageSize ? { pageSize } : {}), ...(filter ? { filter } : {}) },
          { signal: stopping.signal },
        ),
      ]),
    );
    ctx.update({ scopes, more, loading: undefined });
    askMore(ctx);
  } catch (error) {
    if (!stopping.signal.aborted) ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

/** The rows loaded so far, for names beside ids: a new page makes a new set. */
export function loadedOf(state: MergedState): LoadedRows {
  return { rows: state.rows, key: state.rows };
}

/** Asks for the names of the ids in the rows on screen (from the tree, or read once each). */
export function askShownNames(ctx: Ctx): void {
  if (!ctx.alive) return;
  const rows = quickFiltered(ctx.state.rows, ctx.state);
  askNames(ctx, loadedOf(ctx.state), rows.slice(ctx.state.top, ctx.state.top + ctx.bodyHeight()));
}
