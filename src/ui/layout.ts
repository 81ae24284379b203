// How the terminal's rows are shared. The frame stays at most rows − 1 tall: at full height ink 6.8
// clears the whole screen on every frame.
import type { ErrorInfo } from './nav/screen.js';

export const HEADER_LINES = 3;
export const CRUMB_LINES = 1;
export const FOOTER_LINES = 1;
export const MAX_PANEL_DETAIL_LINES = 3;

export function panelLines(error: ErrorInfo | undefined): string[] {
  if (!error) return [];
  const title = error.status !== undefined ? `${error.status} ${error.title}` : error.title;
  const lines = [title, ...error.lines.slice(0, MAX_PANEL_DETAIL_LINES)];
  if (error.lines.length > MAX_PANEL_DETAIL_LINES) lines.push(`… ${error.lines.length - MAX_PANEL_DETAIL_LINES} more`);
  if (error.hint) lines.push(`hint: ${error.hint}`);
  return lines;
}

/** Lines left for the screen's body under the header, crumbs, panel and footer. */
export function bodyHeight(rows: number, error: ErrorInfo | undefined): number {
  return Math.max(3, rows - 1 - HEADER_LINES - CRUMB_LINES - FOOTER_LINES - panelLines(error).length);
}

/** The first visible row so that `cursor` stays inside a window of `height` rows starting near `top`. */
export function scrollTop(top: number, cursor: number, height: number): number {
  if (cursor < top) return cursor;
  if (cursor >= top + height) return cursor - height + 1;
  return Math.max(0, top);
}
