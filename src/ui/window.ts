// The loaded part of a list: a contiguous run of pages, capped by a number of records so that memory
// follows what is on hand, never the list's total size nor the server's page size. Rows are addressed by
// their index in the run.

export interface PageLike {
  items: Record<string, unknown>[];
}

/**
 * The records a list keeps loaded. A run of 20 pages held 20,000 rows at pages of 1,000 (305 MiB RSS at
 * the end of a 100,000-record list) and 2,000 at pages of 100; a run of records holds the same whatever
 * the page size, and more only to keep the page under the cursor whole.
 */
export const ROW_WINDOW = 1_000;

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

/** A run after a page was added: how row indexes moved, and the pages dropped to stay within the window. */
export interface Added<P> {
  pages: P[];
  shift: number;
  dropped: P[];
}

/**
 * Adds a page after the run; when over the cap, drops pages from the front, never the one that holds row
 * `keep` (the cursor's) nor the page added. `shift` moves row indexes; `dropped` is in the run's order.
 */
export function appendPage<P extends PageLike>(pages: readonly P[], page: P, keep: number, cap = ROW_WINDOW): Added<P> {
  const next = [...pages, page];
  let rows = rowCount(next);
  let front = 0;
  while (next.length - front > 1 && rows > cap) {
    const n = next[front]!.items.length;
    // The front page holds the kept row when the rows before it and its own reach past it.
    if (pageStartRow(next, front) + n > keep) break;
    rows -= n;
    front += 1;
  }
  const dropped = next.splice(0, front);
  return { pages: next, shift: -rowCount(dropped), dropped };
}

/** Adds a page before the run; when over the cap, drops pages from the back, never the one that holds row `keep` (an index in the run with the page added) nor the page added. */
export function prependPage<P extends PageLike>(
  pages: readonly P[],
  page: P,
  keep: number,
  cap = ROW_WINDOW,
): Added<P> {
  const next = [page, ...pages];
  let rows = rowCount(next);
  let end = next.length;
  while (end > 1 && rows > cap) {
    const n = next[end - 1]!.items.length;
    if (rows - n <= keep) break;
    rows -= n;
    end -= 1;
  }
  const dropped = next.splice(end);
  return { pages: next, shift: page.items.length, dropped };
}
