// Width-aware cutting and padding: terminal cells, not string length, decide what fits.
import stringWidth from 'string-width';

export const ELLIPSIS = '…';

// Printable ASCII is one cell a character. Nearly every cell is, and string-width (grapheme
// segmentation, emoji tables) costs milliseconds a frame when asked about each of them.
const PLAIN = /^[\x20-\x7e]*$/;
const measured = new Map<string, number>();
const MEASURED_MAX = 4096;

export function cellWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = measured.get(text);
  if (width === undefined) {
    width = stringWidth(text);
    if (measured.size >= MEASURED_MAX) measured.clear();
    measured.set(text, width);
  }
  return width;
}

/** Cuts `text` to at most `width` cells, marking a cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (cellWidth(text) <= width) return text;
  if (PLAIN.test(text)) return text.slice(0, width - 1) + ELLIPSIS;
  let out = '';
  let used = 0;
  for (const c of text) {
    const w = cellWidth(c);
    if (used + w > width - 1) break;
    out += c;
    used += w;
  }
  return out + ELLIPSIS;
}

/** Cuts or right-pads `text` to exactly `width` cells. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - cellWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

/** One line of text, whatever control characters or newlines the value held. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
}

/** 1193 → "1,193". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
