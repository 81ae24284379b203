// One self-overwriting status line on stderr while `--all` walks the pages or a run over several units
// goes on — only on a terminal, so logs and pipes never collect carriage returns.

import { formatCount, oneLine } from '../text/cells.js';
import type { OutputStream } from './io.js';

const REDRAW_INTERVAL_MS = 100;
const CLEAR_LINE = '\r\x1b[2K';

/** "page 12/1000 · 1,200 of 100,000 items" — each total only when the server gave it. */
export function progressText(pages: number, items: number, totalPages?: number, totalItems?: number): string {
  const pagePart = `page ${formatCount(pages)}${totalPages === undefined ? '' : `/${formatCount(totalPages)}`}`;
  const itemPart = `${formatCount(items)}${totalItems === undefined ? '' : ` of ${formatCount(totalItems)}`} items`;
  return `${pagePart} · ${itemPart}`;
}

export class Progress {
  private lastDrawn = 0;
  private drawn = false;

  constructor(private readonly stream: OutputStream) {}

  static forStream(stream: OutputStream): Progress | undefined {
    return stream.isTTY ? new Progress(stream) : undefined;
  }

  update(pages: number, items: number, totalPages?: number, totalItems?: number): void {
    this.show(progressText(pages, items, totalPages, totalItems));
  }

  /** Any one line of status (a unit's name in it made visible); at most one redraw per interval. */
  show(text: string): void {
    const now = Date.now();
    if (now - this.lastDrawn < REDRAW_INTERVAL_MS) return;
    this.lastDrawn = now;
    this.drawn = true;
    this.stream.write(`${CLEAR_LINE}${oneLine(text)}`);
  }

  clear(): void {
    if (this.drawn) this.stream.write(CLEAR_LINE);
    this.drawn = false;
  }
}
