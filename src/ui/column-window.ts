// The columns of a table that are on screen: the frozen ones on the left (a list's first column, the
// matrix's unit and total), then as many of the others as fit from the first one scrolled to. Widths are
// the data's own; only a column wider than the room left is cut (and, in a list, the one the room ends
// in), so `>` and `<` reach every column of a wide table, whole, at any terminal width.

export interface WindowOptions {
  /** How many columns on the left stay whatever the scroll. */
  frozen: number;
  /** The first scrolled column shown (an index among all the columns, ≥ frozen). */
  left: number;
  /** Cells for the columns and the gaps between them. */
  room: number;
  gap: number;
  /** Whether the room after the last whole column goes to the next one, cut (a list's text; never a count). */
  partial?: boolean;
}

export interface ShownColumn {
  index: number;
  width: number;
}

/** Frozen columns together take at most this share of the room, so scrolled ones always have some. */
const FROZEN_SHARE = 0.4;
/** Narrower than this, the cut end of a column says too little to be drawn. */
const PARTIAL_MIN = 6;

/**
 * The frozen columns' widths: as wide as their data when the whole table fits, or when that leaves the
 * scrolled columns their share; else the narrow ones keep their width and the wide ones are cut to a common limit.
 */
function frozenWidths(widths: readonly number[], frozen: number, room: number, gap: number): number[] {
  const wanted = widths.slice(0, frozen);
  const whole = widths.reduce((sum, width) => sum + width, 0) + gap * Math.max(0, widths.length - 1);
  const share =
    (widths.length > frozen && whole > room ? Math.floor(room * FROZEN_SHARE) : room) -
    gap * Math.max(0, wanted.length - 1);
  if (wanted.reduce((sum, width) => sum + width, 0) <= share) return wanted;
  let left = share;
  let limit = 1;
  for (const [index, width] of [...wanted].sort((a, b) => a - b).entries()) {
    limit = Math.max(1, Math.floor(left / (wanted.length - index)));
    if (width > limit) break;
    left -= width;
  }
  return wanted.map((width) => Math.min(width, limit));
}

/** The columns on screen, in order, each with the width it is drawn at. */
export function columnWindow(widths: readonly number[], options: WindowOptions): ShownColumn[] {
  const { frozen, room, gap } = options;
  const shown: ShownColumn[] = frozenWidths(widths, frozen, room, gap).map((width, index) => ({ index, width }));
  let used = shown.reduce((sum, column, i) => sum + column.width + (i > 0 ? gap : 0), 0);
  for (let index = clampLeft(widths.length, options); index < widths.length; index++) {
    const space = room - used - (shown.length > 0 ? gap : 0);
    const first = shown.length === Math.min(frozen, widths.length);
    // The first scrolled column is always shown, and the room left after the last whole one goes to
    // the next, cut, when it is enough to tell what that column is.
    const cut = first || (options.partial === true && space >= PARTIAL_MIN && space < widths[index]!);
    const width = cut ? Math.min(widths[index]!, Math.max(1, space)) : widths[index]!;
    if (width > space && !first) break;
    shown.push({ index, width });
    used += width + (shown.length > 1 ? gap : 0);
    if (width < widths[index]! && !first) break;
  }
  return shown;
}

function clampLeft(count: number, { frozen, left }: WindowOptions): number {
  return Math.max(frozen, Math.min(left, count - 1));
}

/** The furthest scroll worth having: from there on, every remaining column is on screen, whole. */
export function lastLeft(widths: readonly number[], options: Omit<WindowOptions, 'left'>): number {
  for (let left = options.frozen; left < widths.length; left++) {
    const shown = columnWindow(widths, { ...options, left });
    const last = shown[shown.length - 1];
    if (last?.index === widths.length - 1 && (last.width === widths[last.index] || left === last.index)) return left;
  }
  return options.frozen;
}

/** The scroll after `>` (step 1) or `<` (step -1). */
export function scrolled(widths: readonly number[], options: WindowOptions, step: 1 | -1): number {
  return Math.max(options.frozen, Math.min(lastLeft(widths, options), options.left + step));
}

/** The scroll that brings column `index` on screen, moving as little as it can. */
export function scrollTo(widths: readonly number[], options: WindowOptions, index: number): number {
  if (index < options.frozen) return options.left;
  if (index < options.left) return index;
  let left = options.left;
  while (left < index && !columnWindow(widths, { ...options, left }).some((column) => column.index === index)) left++;
  return left;
}

/** "cols 4–7 of 15" (counting every column), or nothing when the whole table is on screen, uncut. */
export function windowLabel(
  shown: readonly ShownColumn[],
  widths: readonly number[],
  frozen: number,
): string | undefined {
  if (shown.length >= widths.length && shown.every((column) => column.width === widths[column.index])) return undefined;
  const scrolled = shown.filter((column) => column.index >= frozen);
  const first = scrolled[0]?.index ?? 0;
  const last = scrolled[scrolled.length - 1]?.index ?? 0;
  return `cols ${first + 1}–${last + 1} of ${widths.length}`;
}
