// A list resource as a table: pages loaded by the list's links and ahead of the cursor, a local filter
// and sort over the loaded rows, watch mode; its keys and its view. What it opens over itself to ask (the
// server-side filter builder, columns, versions, path variables) is in choosers.ts.
import { formatCount } from '../../../text/cells.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import type { ScreenContext, ScreenModule } from '../../nav/screen.js';
import {
  emptyText,
  quickFilterEditing,
  quickFilterKeys,
  quickFilterStatus,
  quickFilterTyping,
} from './quick-filter.js';
import { pageIndexAt, rowCount } from '../../window.js';
import { sortBy } from './sorting.js';
import { askBookmarkName, viewBookmark } from '../bookmarks.js';
import { ListView } from './ListView.js';
import { chooseColumns, chooseVersion, loadColumnChoice, openFilterBuilder, openList } from './choosers.js';
import { namesStopper, namesToggle, useNamedCells } from './names.js';
import { listHeight, loadEdge, loadFirstPage, movePage, reloadList, setCursor, shown } from './paging.js';
import {
  columnsOf,
  currentPage,
  loadedRows,
  recordIndex,
  visibleRows,
  type ListParams,
  type ListState,
} from './state.js';
import { windowOf } from './measured-columns.js';
import { scrollBinding, stepColumn, type TableShape } from '../../scroll-keys.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    list: ListParams;
  }
}

type Ctx = ScreenContext<ListState>;

const idle = (state: ListState) => !state.localFilterEditing;

/** The moves that go up: at the top of the run, they read the page before it again when it was dropped. */
const UP_KEYS = new Set<string>(['up', 'pageup', 'home']);

/** "page 3/120 · 1,193 items · 10 loaded", from what the list's envelope says. */
function pageIndicator(state: ListState): string {
  const page = currentPage(state);
  if (!page) return state.loading ? '' : 'no rows';
  const index = pageIndexAt(state.pages, recordIndex(state));
  const number = page.start && /^\d+$/.test(page.start) ? page.start : undefined;
  const pagePart = number
    ? `page ${number}${page.totalPages !== undefined ? `/${formatCount(page.totalPages)}` : ''}`
    : `page ${index + 1} of those loaded`;
  const total = page.totalCount !== undefined ? ` · ${formatCount(page.totalCount)} items` : '';
  const loaded = rowCount(state.pages);
  const local = state.localFilter
    ? ` · ${visibleRows(state).length}/${loaded} match "${state.localFilter}"`
    : ` · ${formatCount(loaded)} loaded`;
  const more = state.pages[state.pages.length - 1]?.links.has('next') ? '' : ' · end';
  return `${pagePart}${total}${local}${more}`;
}

/** The list's columns as the window sees them: the first stays, the others scroll. */
function shapeOf(ctx: Ctx): TableShape {
  return {
    widths: columnsOf(ctx.state, ctx.now).map((column) => column.width),
    frozen: 1,
    room: ctx.size.columns - 2,
    gap: 1,
    partial: true,
  };
}

/** "cols 4–7 of 15" for the header, when the columns do not all fit. */
function labelOf(state: ListState, width: number): string[] {
  const label = windowOf(columnsOf(state, Date.now()), state.left, width - 2).label;
  return label ? [label] : [];
}

export const listScreen: ScreenModule<ListState, ListParams> = {
  title: 'list',
  init: ({ origin, source, serverFilter, first, label }) => ({
    origin,
    source,
    resource: source.resource,
    version: first?.request.version ?? source.version ?? '',
    ...(label ? { label } : {}),
    ...(serverFilter ? { serverFilter } : {}),
    ...(first ? { firstRequest: first.request, pages: [first.page] } : { pages: [] }),
    dropped: [],
    conditions: [],
    cursor: 0,
    top: 0,
    column: 0,
    left: 1,
    localFilter: '',
    localFilterEditing: false,
    watch: false,
    names: true,
    namesRead: 0,
    namesStop: namesStopper(),
  }),
  start: (ctx) => {
    ctx.update({ writesSeen: ctx.services.writesTo(ctx.state.resource) });
    void loadColumnChoice(ctx);
    if (ctx.state.pages.length > 0) shown(ctx);
    else void openList(ctx);
  },
  stop: (state) => state.namesStop.abort(),
  resized: (ctx) => setCursor(ctx, ctx.state.cursor),
  resumed: (ctx) => {
    // A write to this resource while the list was covered (an update, a delete, a create): read it again.
    const writes = ctx.services.writesTo(ctx.state.resource);
    if (writes === (ctx.state.writesSeen ?? 0) || ctx.state.pending) return;
    ctx.update({ writesSeen: writes });
    ctx.nav.notify(`${ctx.state.resource} changed by a write: list read again`);
    void reloadList(ctx);
  },
  tick: (ctx) => {
    if (ctx.state.watch && !ctx.state.pending) void reloadList(ctx, true);
  },
  ouChanged: (ctx, ou) => {
    // A list read on another control plane keeps its own unit.
    if (ctx.state.origin.connection !== ctx.services.connection) return;
    ctx.update((s) => ({ origin: { ...s.origin, ou } }));
    void loadFirstPage(ctx);
  },
  origin: (s) => s.origin,
  empty: (s) => s.pages.length === 0,
  // A list under a parent record is no list a count or a merged list asks for.
  question: (s) =>
    s.source.kind === 'resource' && !s.source.variables
      ? { resource: s.resource, ...(s.serverFilter ? { filter: s.serverFilter } : {}) }
      : undefined,
  crumb: (s) => {
    const parent =
      s.source.kind === 'resource' && s.source.variables ? ` of ${Object.values(s.source.variables).join(', ')}` : '';
    return `${s.label ?? `${s.resource}@${s.version}${parent}`}${s.serverFilter ? ' (filtered)' : ''}`;
  },
  subject: (s) => (s.version ? `${s.resource}@${s.version}` : s.resource),
  badges: (s, width) => [...(s.watch ? ['WATCH'] : []), ...labelOf(s, width)],
  status: (s) => quickFilterStatus(s) ?? pageIndicator(s),
  typing: quickFilterTyping,
  bindings: [
    ...quickFilterEditing<ListState>(),
    {
      keys: ['return'],
      help: 'open the record',
      hint: 'Enter open',
      when: idle,
      run: (ctx) => {
        const record = visibleRows(ctx.state)[ctx.state.cursor];
        // A row a reload changed opens with its last values as the version before.
        const before = record && ctx.state.changes?.before.get(record);
        if (record)
          ctx.nav.open('record', {
            origin: ctx.state.origin,
            resource: ctx.state.resource,
            version: ctx.state.version,
            record,
            ...(before ? { earlier: [before] } : {}),
          });
      },
    },
    {
      keys: ['x'],
      help: 'operations the index offers for this resource version (● the row under the cursor fills them)',
      hint: 'x operations',
      when: idle,
      run: (ctx) => {
        const { origin, resource, version, cursor } = ctx.state;
        const record = visibleRows(ctx.state)[cursor];
        ctx.nav.open('operations', { origin, resource, version, ...(record ? { record } : {}) });
      },
    },
    {
      keys: ['X'],
      help: 'x-ray of the row under the cursor: what its links reach, what refers to it, its history',
      when: idle,
      run: (ctx) => {
        const record = visibleRows(ctx.state)[ctx.state.cursor];
        if (record)
          ctx.nav.open('xray', {
            origin: ctx.state.origin,
            resource: ctx.state.resource,
            version: ctx.state.version,
            record,
          });
      },
    },
    {
      keys: ['n', 'p'],
      help: 'next / previous page',
      hint: 'n/p page',
      when: idle,
      run: (ctx, key) => movePage(ctx, key.char === 'n' ? 1 : -1),
    },
    {
      keys: ['g', 'G'],
      help: "first / last page (by the list's links)",
      when: idle,
      run: (ctx, key) => void loadEdge(ctx, key.char === 'g' ? 'first' : 'last'),
    },
    ...quickFilterKeys<ListState>(),
    {
      keys: ['f'],
      help: 'server-side filter builder: field, operator, value',
      hint: 'f filter',
      when: idle,
      run: openFilterBuilder,
    },
    {
      keys: ['s'],
      help: 'sort by the current column (again: reverse): by the server where the list takes a sort parameter, n/p paging through its order; else the loaded rows, within each page',
      hint: 's sort',
      when: idle,
      run: (ctx) => void sortBy(ctx),
    },
    {
      keys: ['w'],
      help: 'watch: the page is asked again every few seconds (If-None-Match); cells that changed are highlighted until the next time',
      hint: 'w watch',
      when: idle,
      run: (ctx) => {
        const watch = !ctx.state.watch;
        ctx.update({ watch });
        ctx.nav.notify(watch ? 'watching: the page is re-fetched every few seconds (w stops)' : 'watch stopped');
      },
    },
    {
      keys: ['c'],
      help: 'choose and order the columns (kept for this resource on this control plane)',
      hint: 'c columns',
      when: idle,
      run: chooseColumns,
    },
    { keys: ['v'], help: 'switch the resource version and reload', hint: 'v version', when: idle, run: chooseVersion },
    namesToggle(loadedRows, shown, idle),
    {
      keys: ['b'],
      help: 'bookmark this view (profile, resource, version, OU, filter, page); :bm opens bookmarks',
      hint: 'b bookmark',
      when: idle,
      run: (ctx) =>
        askBookmarkName(ctx as ScreenContext<unknown>, viewBookmark(ctx.state, currentPage(ctx.state)?.start)),
    },
    {
      keys: [...MOVE_KEYS],
      help: 'move over the loaded rows',
      when: idle,
      run: (ctx, key) =>
        setCursor(
          ctx,
          moveCursor(ctx.state.cursor, visibleRows(ctx.state).length, key, listHeight(ctx)),
          UP_KEYS.has(key.name) || key.char === 'k',
        ),
    },
    {
      keys: ['left', 'h', 'right', 'l'],
      help: 'choose the current column',
      when: idle,
      run: (ctx, key) =>
        ctx.update((s) => stepColumn(shapeOf(ctx), s.left, s.column, key.name === 'left' || key.char === 'h' ? -1 : 1)),
    },
    scrollBinding(shapeOf, idle),
    { keys: ['r'], help: 'reload', when: idle, run: (ctx) => void reloadList(ctx) },
  ],
  View: ({ state, ctx, height, width }) => {
    const rows = visibleRows(state);
    const empty = emptyText(state, Boolean(state.loading), 'the list is empty');
    // A column moves ahead, as names do, once it has a name to show.
    const cellText = useNamedCells(ctx.services, state, state.pages, loadedRows);
    return (
      <ListView
        view={windowOf(columnsOf(state, ctx.now, cellText), state.left, width - 2)}
        rows={rows}
        cursor={state.cursor}
        top={state.top}
        height={height}
        currentColumn={state.column}
        sort={state.serverSort ?? state.sort}
        now={ctx.now}
        empty={empty}
        cellText={cellText}
        {...(state.changes ? { changed: state.changes.fields } : {})}
      />
    );
  },
};
