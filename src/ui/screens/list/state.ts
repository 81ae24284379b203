// A list screen as data: where its first page comes from, the run of pages loaded (at most a window of
// records), the cursor, and what the user did to the loaded rows (local filter, sort). The rows and columns
// shown are derived from it here.
import type { PreparedRequest } from '../../../api/hal/operation.js';
import type { Page } from '../../../api/session/page.js';
import type { Condition } from '../../filter.js';
import type { ScreenBase } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import { pageIndexAt, rowsOf } from '../../window.js';
import { compareBy, fieldKinds, inferColumns, type Column } from './measured-columns.js';
import type { LoadedRows, NamedRows } from './names.js';
import { quickFiltered, type QuickFiltered } from './quick-filter.js';

/** Where a list's first page comes from, so it can be asked again after an OU, filter or version change. */
export type ListSource =
  | {
      kind: 'resource';
      resource: string;
      version?: string;
      operationId?: string;
      page?: string;
      variables?: Record<string, string>;
    }
  | { kind: 'link'; href: string; resource: string; version: string };

/** Rows a reload changed, by the record now shown: which of its fields changed, and the row as it was. */
export interface RowChanges {
  fields: ReadonlyMap<Record<string, unknown>, ReadonlySet<string>>;
  before: ReadonlyMap<Record<string, unknown>, Record<string, unknown>>;
}

export interface ListParams {
  origin: Origin;
  source: ListSource;
  /** A server-side filter to open with (a bookmark's). */
  serverFilter?: string;
  /** The first page, when the opener already has it (a followed link that answered with a list). */
  first?: { request: PreparedRequest; page: Page };
  /** How the breadcrumb names the list, when not by its resource. */
  label?: string;
}

export interface ListState extends ScreenBase, QuickFiltered, NamedRows {
  /** Writes to the resource when the list was last read (Services.writesTo): more means it is stale. */
  writesSeen?: number;
  origin: Origin;
  source: ListSource;
  resource: string;
  version: string;
  label?: string;
  /** The request of the first page shown: reload, version switch and page links start from it. */
  firstRequest?: PreparedRequest;
  serverFilter?: string;
  conditions: Condition[];
  pages: Page[];
  /**
   * The URLs of the pages dropped from the front of the run to keep it within its window of records, the
   * nearest last: going back up reads them again.
   */
  dropped: string[];
  /** The current column (`s` sorts by it), among every column. */
  column: number;
  /** The first column scrolled to (`>` `<`); the first column stays. */
  left: number;
  /** The fields the reader chose and ordered (`c`), kept per resource and origin; else every field, ranked. */
  fields?: readonly string[];
  /**
   * A sort of the loaded rows (`s` on a list that takes no sort parameter): each page's rows sorted, the
   * pages in the server's order, so that the page the footer names is the one under the cursor.
   */
  sort?: { field: string; descending: boolean };
  /** The order the server was asked for (`s` on a list whose template declares a sort parameter). */
  serverSort?: { field: string; descending: boolean };
  watch: boolean;
  /** What the last reload changed: each changed row's changed fields, and its values before. */
  changes?: RowChanges;
  /** Which page move is on its way, so a key repeat or a prefetch does not ask twice. */
  pending?: 'next' | 'prev' | 'first' | 'last' | 'reload';
  /** A page key pressed while that page was still loading: the cursor goes there when it arrives. */
  jumpWhenLoaded?: 'next' | 'prev';
}

/** Whether the loaded rows are shown as loaded (no local filter, no sort): then cursor and row index agree. */
export function asLoaded(state: ListState): boolean {
  return !state.localFilter && !state.sort;
}

/**
 * Whether each loaded page is shown as a block of its own where it was loaded (no local filter; a sort
 * orders rows within their page): then a page starts at the same row shown as loaded.
 */
export function inPages(state: ListState): boolean {
  return !state.localFilter;
}

const sorted = new WeakMap<readonly Page[], { key: string; rows: readonly Record<string, unknown>[] }>();

/** The rows the list shows: loaded rows, locally filtered, and sorted within each page. */
export function visibleRows(state: ListState): readonly Record<string, unknown>[] {
  const { sort } = state;
  if (!sort) return quickFiltered(rowsOf(state.pages), state);
  // Sorted once per run of pages, sort and filter: every key and frame asks for the rows several times.
  const key = `${sort.field}\n${sort.descending}\n${state.localFilter}`;
  const known = sorted.get(state.pages);
  if (known?.key === key) return known.rows;
  const compare = compareBy(sort.field, sort.descending);
  const rows = state.pages.flatMap((page) => [...quickFiltered(page.items, state)].sort(compare));
  sorted.set(state.pages, { key, rows });
  return rows;
}

/** The index in the loaded run of the record under the cursor. */
export function recordIndex(state: ListState): number {
  if (asLoaded(state)) return state.cursor;
  const record = visibleRows(state)[state.cursor];
  return record ? rowsOf(state.pages).indexOf(record) : 0;
}

/** The loaded page the cursor is on. */
export function currentPage(state: ListState): Page | undefined {
  return state.pages[pageIndexAt(state.pages, recordIndex(state))];
}

/** The list's loaded rows, for names beside ids: the same pages, the same key. */
export function loadedRows(state: ListState): LoadedRows {
  return { rows: rowsOf(state.pages), key: state.pages };
}

/** Cells that read otherwise than their values say (ids shown as names): which fields, and their text (undefined: as the value says). */
export interface CellText {
  fields: readonly string[];
  text(field: string, value: unknown): string | undefined;
}

const planned = new WeakMap<
  readonly Page[],
  { names: number; named: boolean; fields: readonly string[] | undefined; columns: Column[] }
>();

/**
 * Every column of the list, planned once per set of loaded pages, names read and chosen fields: asked at
 * every frame and every key, and each plan measures every sampled cell. A plan made without the names'
 * text (by a key, before the first frame) is made again by the drawing, which has it.
 */
export function columnsOf(state: ListState, now: number, cellText?: CellText): Column[] {
  const names = state.names ? state.namesRead : -1;
  const known = planned.get(state.pages);
  if (known?.names === names && known.fields === state.fields && (known.named || !cellText)) return known.columns;
  const columns = inferColumns(
    rowsOf(state.pages),
    now,
    cellText,
    state.fields,
    fieldKinds(state.resource, state.version),
  );
  planned.set(state.pages, { names, named: cellText !== undefined, fields: state.fields, columns });
  return columns;
}
