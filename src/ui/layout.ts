// How the terminal's rows are shared. The frame stays at most rows − 1 tall: at full height ink 6.8
// clears the whole screen on every frame.
import { cellWidth, oneLine, splitCells, truncate, wrapLines } from '../text/cells.js';
import type { ErrorInfo } from './error-info.js';

export const HEADER_LINES = 3;
export const CRUMB_LINES = 1;
export const FOOTER_LINES = 1;

/** Lines a notice in the footer may take: one that is longer runs over them, in place of the screen's status. */
export const MAX_NOTICE_LINES = 2;

/**
 * A notice too long for one footer line (`trail written: <a long path>`), over up to MAX_NOTICE_LINES
 * lines `columns` wide; none when it fits on one, where the footer draws it beside the screen's status.
 */
export function noticeLines(notice: string | undefined, columns: number): string[] {
  if (!notice || cellWidth(notice) <= columns - 1) return [];
  const words = wrapLines(notice, columns - 1, Infinity, { hard: true });
  if (words.length <= MAX_NOTICE_LINES) return words;
  // A long path or id would leave most of a line empty before it: the lines are filled to their end instead.
  const cells = splitCells(oneLine(notice), columns - 1);
  return cells.length <= MAX_NOTICE_LINES ? cells : wrapLines(notice, columns - 1, MAX_NOTICE_LINES, { hard: true });
}

/** Lines the panel's wrapped text may take at most; what is left over, E shows whole. */
export const MAX_PANEL_LINES = 9;

/**
 * The error panel's lines, `width` cells wide: the title (at most three lines) and the hint (four) are
 * always there; the server's error lines run over what is left of MAX_PANEL_LINES, and where they would
 * take more, the last line says how to read them whole (the exchange: E).
 */
export function panelLines(error: ErrorInfo | undefined, width = Infinity): string[] {
  if (!error) return [];
  const room = Math.max(8, width - 3);
  const title = wrapLines(error.status !== undefined ? `${error.status} ${error.title}` : error.title, room, 3);
  const hint = error.hint ? wrapLines(`hint: ${error.hint}`, room, 4) : [];
  const details = error.lines.flatMap((line) => wrapLines(line, room, Infinity, { hard: true }));
  const left = Math.max(1, MAX_PANEL_LINES - title.length - hint.length);
  const shown =
    details.length <= left
      ? details
      : [...details.slice(0, left - 1), `… ${details.length - left + 1} more lines: E shows the exchange whole`];
  return [...title, ...shown, ...hint];
}

const CRUMB_SEPARATOR = ' › ';

/**
 * The breadcrumb in `width` cells: the screens from home to the current one; where they do not fit, the
 * first ones give way (`… › `), so the current screen is always named, and only it is cut when alone it is
 * too wide.
 */
export function breadcrumb(crumbs: readonly string[], width: number): string {
  const whole = crumbs.join(CRUMB_SEPARATOR);
  if (cellWidth(whole) <= width) return whole;
  for (let first = 1; first < crumbs.length; first++) {
    const kept = `…${CRUMB_SEPARATOR}${crumbs.slice(first).join(CRUMB_SEPARATOR)}`;
    if (cellWidth(kept) <= width) return kept;
  }
  return truncate(crumbs[crumbs.length - 1] ?? '', width);
}

/** Lines left for the screen's body under the header, crumbs, panel and footer. */
export function bodyHeight(rows: number, error: ErrorInfo | undefined, columns = Infinity, notice?: string): number {
  const footer = Math.max(FOOTER_LINES, noticeLines(notice, columns).length);
  return Math.max(3, rows - 1 - HEADER_LINES - CRUMB_LINES - footer - panelLines(error, columns).length);
}

/** The first visible row so that `cursor` stays inside a window of `height` rows starting near `top`. */
export function scrollTop(top: number, cursor: number, height: number): number {
  if (cursor < top) return cursor;
  if (cursor >= top + height) return cursor - height + 1;
  return Math.max(0, top);
}

// Every screen's body fits the `height` lines it is given, each line at most `width` cells: a frame
// taller than the terminal leaves lines ink cannot erase, and a line that wraps, or a body taller than its
// room, makes ink lay lines over each other. The Frame cuts a body that is taller still, at the bottom, so
// a mistake costs the last lines, never a garbled screen; these are how a screen plans to fit instead.

/** One part of a screen's body: the lines it cannot do without, and the most it would use. */
export interface Part {
  least: number;
  most: number;
}

/**
 * `room` lines shared among `parts`: first each part its least, in the order given (the first are the ones
 * a screen can least do without: a part that finds no room left gets what is left), then each part more,
 * up to its most, in `order` (the indexes of the parts; by default the order given).
 */
export function share(
  room: number,
  parts: readonly Part[],
  order: readonly number[] = parts.map((_, index) => index),
): number[] {
  let left = Math.max(0, room);
  const given = parts.map((part) => {
    const least = Math.min(left, Math.max(0, Math.min(part.least, part.most)));
    left -= least;
    return least;
  });
  for (const index of order) {
    const part = parts[index];
    if (!part) continue;
    const more = Math.min(left, Math.max(0, part.most - given[index]!));
    given[index]! += more;
    left -= more;
  }
  return given;
}

/** The rows shown: from `top` up to, not including, `end`. */
export interface RowWindow {
  top: number;
  end: number;
}

/**
 * Which of the rows (each `heights[i]` lines tall) are shown in `room` lines so that row `focus` is: the
 * window starting at `top` when the focus is in it, else moved as little as brings it in; never ending
 * short while rows above it are hidden. A row taller than the room is shown alone (the Frame cuts it).
 */
export function windowOf(heights: readonly number[], focus: number, room: number, top = 0): RowWindow {
  const count = heights.length;
  if (count === 0) return { top: 0, end: 0 };
  const at = Math.max(0, Math.min(count - 1, focus));
  const span = (from: number, to: number) => heights.slice(from, to).reduce((sum, height) => sum + height, 0);
  let first = Math.max(0, Math.min(top, at));
  while (first < at && span(first, at + 1) > room) first++;
  while (first > 0 && span(first - 1, count) <= room) first--;
  let end = first + 1;
  while (end < count && span(first, end + 1) <= room) end++;
  return { top: first, end };
}

/** "fields 4–9 of 14 · ↑3 ↓5": which rows of how many a window shows, and how many are above and below it. */
export function windowText(noun: string, window: RowWindow, total: number): string {
  const above = window.top;
  const below = Math.max(0, total - window.end);
  const marks = [above > 0 ? `↑${above}` : '', below > 0 ? `↓${below}` : ''].filter(Boolean).join(' ');
  return `${noun} ${window.top + 1}–${window.end} of ${total}${marks ? ` · ${marks} more` : ''}`;
}
