// `s` on a list: the server asked for its order where the list's template declares a sort parameter, else
// the loaded rows sorted within each page, so that paging and the footer stay true either way.
import { resolveOperation, sortParameter } from '../../../api/hal/operation.js';
import { formatCount } from '../../../text/cells.js';
import { scrollTop } from '../../layout.js';
import type { ScreenContext } from '../../nav/screen.js';
import { pageIndexAt, pageStartRow, rowCount } from '../../window.js';
import { listHeight, loadFirstPage } from './paging.js';
import { columnsOf, recordIndex, type ListState } from './state.js';

type Ctx = ScreenContext<ListState>;

/**
 * `s`: the list sorted by the current column, again reversed. A list whose template declares a sort
 * parameter is read again from its first page in that order; any other sorts its loaded rows within each
 * page, and says so: the footer's page stays the one under the cursor, and `n` shows the next page.
 */
export async function sortBy(ctx: Ctx): Promise<void> {
  const columns = columnsOf(ctx.state, ctx.now);
  const field = columns[Math.min(ctx.state.column, columns.length - 1)]?.field;
  if (!field) return;
  const was = ctx.state.serverSort ?? ctx.state.sort;
  const sort = { field, descending: was?.field === field ? !was.descending : false };
  const arrow = sort.descending ? '↓' : '↑';
  if (await sortsOnServer(ctx)) {
    if (!ctx.alive) return;
    ctx.update({ serverSort: sort, sort: undefined });
    ctx.nav.notify(`sorted by the server: ${field} ${arrow}; n/p page through that order`);
    return loadFirstPage(ctx);
  }
  if (!ctx.alive) return;
  ctx.update((s) => {
    const page = pageIndexAt(s.pages, recordIndex(s));
    const cursor = s.localFilter ? 0 : pageStartRow(s.pages, page);
    return { sort, cursor, top: scrollTop(0, cursor, listHeight(ctx)) };
  });
  const loaded = rowCount(ctx.state.pages);
  ctx.nav.notify(
    `sorted: ${formatCount(loaded)} loaded row${loaded === 1 ? '' : 's'} by ${field} ${arrow}, within each page (the list takes no sort parameter)`,
  );
}

/** Whether the list's operation declares a sort parameter: only a list opened from the index can say. */
async function sortsOnServer(ctx: Ctx): Promise<boolean> {
  const { source, origin } = ctx.state;
  if (source.kind !== 'resource') return false;
  const catalog = await ctx.services.catalog(origin.connection).catch(() => undefined);
  if (!catalog) return false;
  try {
    const { operation } = resolveOperation(catalog, {
      resource: source.resource,
      version: ctx.state.version || source.version,
      ...(source.operationId ? { operationId: source.operationId } : {}),
      ...(source.variables ? { variables: source.variables } : {}),
    });
    return sortParameter(operation) !== undefined;
  } catch {
    return false;
  }
}
