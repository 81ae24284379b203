// The loaded part of a list: a contiguous run of pages, capped so memory follows what is on hand,
// never the list's total size. Rows are addressed by their index in the run.

export interface PageLike {
  items: Record<string, unknown>[];
}

export const MAX_LOADED_PAGES = 20;

export function rowCount(pages: readonly PageLike[]): number {
  return pages.reduce((n, p) => n + p.items.length, 0);
}

const flattened = new WeakMap<readonly PageLike[], readonly Record<string, unknown>[]>();

/**
 * The rows of the run, in order. A run is never changed in place (a new page makes a new array), and
 * each key press asks for its rows several times over up to 20 pages: they are flattened once per run.
 */
export function rowsOf(pages: readonly PageLike[]): readonly Record<string, unknown>[] {
  let rows = flattened.get(pages);
  if (rows === undefined) {
    rows = pages.flatMap((p) => p.items);
    flattened.set(pages, rows);
  }
  return rows;
}

/** Index of the page that holds row `row` (the last page for rows past the end). */
export function pageIndexAt(pages: readonly PageLike[], row: number): number {
  let start = 0;
  for (let i = 0; i < pages.length; i++) {
    const n = pages[i]?.items.length ?? 0;
    if (row < start + n) return i;
    start += n;
  }
  return Math.max(0, pages.length - 1);
}

export function pageStartRow(pages: readonly PageLike[], index: number): number {
  return rowCount(pages.slice(0, index));
}

/** Adds a page after the run; when over the cap, drops pages from the front. `shift` moves row indexes. */
export function appendPage<P extends PageLike>(
  pages: readonly P[],
  page: P,
  cap = MAX_LOADED_PAGES,
): { pages: P[]; shift: number } {
  const next = [...pages, page];
  const dropped = next.splice(0, Math.max(0, next.length - cap));
  return { pages: next, shift: -rowCount(dropped) };
}

/** Adds a page before the run; when over the cap, drops pages from the back. */
export function prependPage<P extends PageLike>(
  pages: readonly P[],
  page: P,
  cap = MAX_LOADED_PAGES,
): { pages: P[]; shift: number } {
  const next = [page, ...pages];
  next.splice(cap);
  return { pages: next, shift: page.items.length };
}
