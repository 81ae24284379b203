// Loading a list's pages: the first page, the page under the cursor again, the pages next to the loaded
// run (ahead of need, as the cursor nears the end), and the first and last pages by the list's links.
// Every request goes to the list's own origin, whatever the explorer has switched to since.
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { listRequest, pageLinkRequest, pageRequest, readPage, type LinkRole } from '../../../api/session/pages.js';
import type { Page } from '../../../api/session/page.js';
import { parseVendorMediaType } from '../../../api/media.js';
import { dataFields } from '../../../api/hal/records.js';
import { diffRecords, recordKey, topLevelField } from '../../../api/case/diff.js';
import { scrollTop } from '../../layout.js';
import { errorInfo, warningInfo } from '../../nav/problems.js';
import type { ScreenContext } from '../../nav/screen.js';
import { appendPage, pageIndexAt, pageStartRow, prependPage, rowCount } from '../../window.js';
import { askNames } from './names.js';
import {
  asLoaded,
  currentPage,
  inPages,
  loadedRows,
  recordIndex,
  visibleRows,
  type ListState,
  type RowChanges,
} from './state.js';

type Ctx = ScreenContext<ListState>;

const PREFETCH_MARGIN = 5;

export function listHeight(ctx: Ctx): number {
  return ctx.bodyHeight() - 1;
}

async function firstPageRequest(state: ListState): Promise<PreparedRequest> {
  const { session, pageSize } = state.origin.connection;
  const { source } = state;
  const ou = state.origin.ou ?? null;
  if (source.kind === 'link')
    return session.prepareLink(source.href, {
      resource: source.resource,
      version: state.version || source.version,
      ou,
    });
  return listRequest(session, {
    resource: source.resource,
    version: state.version || source.version,
    operationId: source.operationId,
    filter: state.serverFilter,
    pageSize,
    page: source.page,
    ou,
    ...(state.serverSort ? { sort: state.serverSort } : {}),
    ...(source.variables ? { variables: source.variables } : {}),
  });
}

/** A page; `again` asks the server whether it changed (If-None-Match when it gave an ETag), else it may come from the freshness window. */
async function fetchPage(
  state: ListState,
  request: PreparedRequest,
  again = false,
): Promise<{ page: Page; contentType: string }> {
  const response = await state.origin.connection.session.send(request, again ? { revalidate: true } : {});
  // Read without the body's bytes: the explorer shows records and never passes them on as sent, and a
  // page's bytes held beside its records would double what a loaded row costs.
  const page = readPage({ body: response.body, url: response.url, headers: response.headers });
  return { page, contentType: response.contentType };
}

/** What changed from the rows before a reload to the rows after it, keyed by the rows now shown. */
function rowChanges(before: Record<string, unknown>[], after: Record<string, unknown>[]): RowChanges {
  const diff = diffRecords(before, after);
  const byKey = new Map(after.map((record, position) => [recordKey(record, position), record]));
  const oldByKey = new Map(before.map((record, position) => [recordKey(record, position), record]));
  const fields = new Map<Record<string, unknown>, ReadonlySet<string>>();
  const was = new Map<Record<string, unknown>, Record<string, unknown>>();
  for (const change of diff.changed) {
    const record = byKey.get(change.id);
    const old = oldByKey.get(change.id);
    if (!record || !old) continue;
    fields.set(record, new Set(change.fields.map((field) => topLevelField(field.path))));
    was.set(record, old);
  }
  for (const { record } of diff.added) fields.set(record, new Set(dataFields(record)));
  return { fields, before: was };
}

/** Loads the first page again: after a filter, version or OU change. What was shown goes first. */
export async function loadFirstPage(ctx: Ctx): Promise<void> {
  ctx.update({
    loading: 'loading the first page',
    pending: 'first',
    error: undefined,
    pages: [],
    dropped: [],
    cursor: 0,
    top: 0,
  });
  try {
    const request = await firstPageRequest(ctx.state);
    // The version asked for shows in the header from now on, whether or not an answer comes (offline, a
    // page the case does not hold).
    if (!ctx.state.version && request.version) ctx.update({ version: request.version });
    const { page, contentType } = await fetchPage(ctx.state, request, true);
    const version = parseVendorMediaType(contentType)?.version ?? request.version;
    ctx.update({
      firstRequest: request,
      version,
      pages: [page],
      cursor: 0,
      top: 0,
      loading: undefined,
      pending: undefined,
      error: warningInfo(page.warnings),
    });
    shown(ctx);
  } catch (error) {
    ctx.update({ loading: undefined, pending: undefined, error: errorInfo(error) });
  }
}

/** Fetches the page under the cursor again by its self link; the cursor keeps its place in it. */
export async function reloadList(ctx: Ctx, quiet = false): Promise<void> {
  const state = ctx.state;
  const index = pageIndexAt(state.pages, recordIndex(state));
  const page = state.pages[index];
  const request =
    page && state.firstRequest
      ? pageLinkRequest(state.origin.connection.session, page, 'self', state.firstRequest)
      : undefined;
  if (!page || !request) return loadFirstPage(ctx);
  const offset = recordIndex(state) - pageStartRow(state.pages, index);
  ctx.update({ loading: quiet ? undefined : 'reloading', pending: 'reload' });
  try {
    const { page: fresh } = await fetchPage(state, request, true);
    // Highlighted until the next reload: what changed since this one's previous answer.
    const changes = rowChanges(page.items, fresh.items);
    ctx.update((s) => {
      const cursor = Math.min(Math.max(0, fresh.items.length - 1), asLoaded(s) ? offset : 0);
      return {
        pages: [fresh],
        dropped: [],
        changes,
        cursor,
        top: scrollTop(0, cursor, listHeight(ctx)),
        loading: undefined,
        pending: undefined,
        error: warningInfo(fresh.warnings),
      };
    });
    shown(ctx);
  } catch (error) {
    ctx.update({ loading: undefined, pending: undefined, error: errorInfo(error) });
  }
}

/**
 * Moves the cursor (`upward`: a key moved it up, or would have at the top). The next page, and the names
 * of ids that scrolled into view, are asked for once the key's frame is out, since a request costs
 * milliseconds.
 */
export function setCursor(ctx: Ctx, cursor: number, upward = cursor < ctx.state.cursor): void {
  ctx.update((s) => ({ cursor, top: scrollTop(s.top, cursor, listHeight(ctx)) }));
  setImmediate(() => shown(ctx, upward));
}

/**
 * What the rows on screen need once they are there: the page after them (or, when the cursor went up, the
 * page before them), and the names of their ids.
 */
export function shown(ctx: Ctx, upward = false): void {
  if (!ctx.alive) return;
  prefetch(ctx, upward);
  const { top, pending } = ctx.state;
  const onScreen = visibleRows(ctx.state).slice(top, top + listHeight(ctx));
  // A screen the next page is on its way to fill asks for its names once it has: one read per referenced
  // list for the whole screen, not one for each page that fills it.
  if (pending === 'next' && onScreen.length < listHeight(ctx)) return;
  askNames(ctx, loadedRows(ctx.state), onScreen);
}

/**
 * Loads the next page ahead of need: when the cursor nears the end of the rows, or they do not fill the
 * screen; and the page before the run when the cursor goes up near its top and that page was dropped (not
 * when a page key put it there: a re-read then would be thrown away by the next page key).
 */
export function prefetch(ctx: Ctx, upward = false): void {
  if (!ctx.alive) return;
  const state = ctx.state;
  // A local filter works on what is loaded: it never pulls in more pages looking for matches.
  if (state.pending || state.localFilter || state.error?.tone === 'error') return;
  const wanted = Math.max(state.cursor + PREFETCH_MARGIN, state.top + listHeight(ctx));
  if (visibleRows(state).length < wanted && state.pages[state.pages.length - 1]?.links.has('next'))
    void loadAdjacent(ctx, 'next', false);
  else if (upward && inPages(state) && state.cursor < PREFETCH_MARGIN && state.dropped.length > 0)
    void loadAdjacent(ctx, 'prev', false);
}

/**
 * Loads the page after (or before) the run; `jump` moves the cursor to its first row. The page before is
 * the last one dropped from the front of the run when there is one (read again, and the header says so
 * while it is), else the one the first page's link names.
 */
export async function loadAdjacent(ctx: Ctx, role: 'next' | 'prev', jump: boolean): Promise<void> {
  const state = ctx.state;
  if (!state.firstRequest) return;
  if (state.pending) {
    // A key that asks for the page already on its way is answered when it arrives.
    if (jump && state.pending === role) ctx.update({ jumpWhenLoaded: role });
    return;
  }
  const { session } = state.origin.connection;
  const again = role === 'prev' ? state.dropped[state.dropped.length - 1] : undefined;
  const edge = role === 'next' ? state.pages[state.pages.length - 1] : state.pages[0];
  const request =
    again !== undefined
      ? pageRequest(session, again, state.firstRequest)
      : edge
        ? pageLinkRequest(session, edge, role, state.firstRequest)
        : undefined;
  if (!request) {
    if (jump) ctx.nav.notify(role === 'next' ? 'this is the last page' : 'this is the first page');
    return;
  }
  const loading =
    again !== undefined
      ? 're-reading the page before, dropped to keep memory flat'
      : jump
        ? `loading the ${role} page`
        : undefined;
  ctx.update({ pending: role, loading });
  try {
    const { page } = await fetchPage(state, request);
    ctx.update((s) => {
      // Sorted within pages, rows stay in their page's block: the cursor moves with it as when unsorted.
      const plain = inPages(s);
      const land = (jump || s.jumpWhenLoaded === role) && plain;
      // The row the cursor is on once the page is in, in the run with the page added: what must stay.
      const keep =
        role === 'next' ? (land ? rowCount(s.pages) : recordIndex(s)) : land ? 0 : recordIndex(s) + page.items.length;
      const cap = ctx.services.rowWindow;
      const added = role === 'next' ? appendPage(s.pages, page, keep, cap) : prependPage(s.pages, page, keep, cap);
      const { pages, shift } = added;
      const dropped =
        role === 'next'
          ? [...s.dropped, ...added.dropped.map((p) => p.url)]
          : again !== undefined
            ? s.dropped.slice(0, -1)
            : s.dropped;
      let cursor = plain ? Math.max(0, s.cursor + shift) : s.cursor;
      if (land) cursor = role === 'next' ? pageStartRow(pages, pages.length - 1) : 0;
      const top = scrollTop(plain ? Math.max(0, s.top + shift) : s.top, cursor, listHeight(ctx));
      return {
        pages,
        dropped,
        cursor,
        top,
        pending: undefined,
        jumpWhenLoaded: undefined,
        loading: undefined,
        error: warningInfo(page.warnings),
      };
    });
    shown(ctx);
  } catch (error) {
    ctx.update({ pending: undefined, jumpWhenLoaded: undefined, loading: undefined, error: errorInfo(error) });
  }
}

/** The first or last page, by the list's own links. */
export async function loadEdge(ctx: Ctx, role: Extract<LinkRole, 'first' | 'last'>): Promise<void> {
  const state = ctx.state;
  const page = currentPage(state);
  if (!state.firstRequest || !page || state.pending) return;
  const request = pageLinkRequest(state.origin.connection.session, page, role, state.firstRequest);
  if (!request) return ctx.nav.notify(`the list offers no ${role} link`);
  ctx.update({ pending: role, loading: `loading the ${role} page` });
  try {
    const { page: edge } = await fetchPage(state, request);
    ctx.update({
      pages: [edge],
      dropped: [],
      cursor: 0,
      top: 0,
      pending: undefined,
      loading: undefined,
      error: warningInfo(edge.warnings),
    });
    shown(ctx);
  } catch (error) {
    ctx.update({ pending: undefined, loading: undefined, error: errorInfo(error) });
  }
}

/** The next or previous page: within the loaded run when it is there, else loaded. */
export function movePage(ctx: Ctx, step: 1 | -1): void {
  const state = ctx.state;
  const target = pageIndexAt(state.pages, recordIndex(state)) + step;
  if (target >= 0 && target < state.pages.length && inPages(state))
    return setCursor(ctx, pageStartRow(state.pages, target));
  void loadAdjacent(ctx, step === 1 ? 'next' : 'prev', true);
}
