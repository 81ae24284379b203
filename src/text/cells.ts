// Terminal text measured in cells, not string length: wide characters take two, combining marks none.
// The explorer and the command line's tables both cut and pad by these.
import stringWidth from 'string-width';
import { visible } from '../api/visible.js';

/** The one function that makes server and case-file text safe for a terminal (see src/api/visible.ts). */
export { visible };

export const ELLIPSIS = '…';

// Printable ASCII is one cell a character. Nearly every cell is, and string-width (grapheme
// segmentation, emoji tables) costs milliseconds a frame when asked about each of them.
const PLAIN = /^[\x20-\x7e]*$/;
const measured = new Map<string, number>();
const MEASURED_MAX = 4096;
// Built on first use: the first Segmenter of a process loads ICU's break rules (≈ 10 ms), and most
// runs never cut a non-ASCII string.
let graphemes: Intl.Segmenter | undefined;

export function cellWidth(text: string): number {
  if (PLAIN.test(text)) return text.length;
  return remembered(measured, text, () => stringWidth(text));
}

// Cuts through graphemes, remembered: the explorer cuts the same footer and cells on every frame, and
// walking them grapheme by grapheme was 5 % of its CPU over the bench's key presses.
const cut = new Map<string, string>();

/**
 * Cuts `text` to at most `width` cells, marking a cut with an ellipsis; never splits a grapheme. What it
 * gives is one line with nothing a terminal obeys (oneLine): every cell the explorer and the tables draw
 * goes through here or fit().
 */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (PLAIN.test(text)) return text.length <= width ? text : text.slice(0, width - 1) + ELLIPSIS;
  const shown = oneLine(text);
  if (cellWidth(shown) <= width) return shown;
  return remembered(cut, `${width}\0${shown}`, () => cutGraphemes(shown, width));
}

/** What `compute` gave for `key` before, else computed and kept; the memo starts over when full. */
function remembered<T>(memo: Map<string, T>, key: string, compute: () => T): T {
  let known = memo.get(key);
  if (known === undefined) {
    known = compute();
    if (memo.size >= MEASURED_MAX) memo.clear();
    memo.set(key, known);
  }
  return known;
}

function cutGraphemes(text: string, width: number): string {
  let out = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(text)) {
    const w = cellWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + ELLIPSIS;
}

/** Pads `text` with spaces to `width` cells; longer text is left as it is. */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const spaces = ' '.repeat(Math.max(0, width - cellWidth(text)));
  return align === 'left' ? text + spaces : spaces + text;
}

/** Cuts or pads `text` to exactly `width` cells. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  return pad(truncate(text, width), width, align);
}

/** One line of text: line breaks and tabs read as a space, every other control made visible. */
export function oneLine(text: string): string {
  return visible(text.replace(/[\r\n\t]+/g, ' '));
}

/** 1193 → "1,193". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * `text` as lines of at most `width` cells, broken between words, at most `most` of them: the last line
 * shown ends with an ellipsis when text is left over. A word wider than a line is cut with an ellipsis, or
 * with `hard` broken over lines, so that nothing of it is lost (a command to select and copy). Line breaks
 * in the text start a new line; every line is one line (oneLine).
 */
export function wrapLines(
  text: string,
  width: number,
  most = Infinity,
  { hard = false }: { hard?: boolean } = {},
): string[] {
  if (width <= 0 || most <= 0) return [];
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of oneLine(paragraph).split(' ')) {
      const next = line === '' ? word : `${line} ${word}`;
      if (cellWidth(next) <= width) {
        line = next;
        continue;
      }
      if (line !== '') lines.push(line);
      if (cellWidth(word) <= width) line = word;
      else if (!hard) line = truncate(word, width);
      else {
        const pieces = splitCells(word, width);
        lines.push(...pieces.slice(0, -1));
        line = pieces.at(-1) ?? '';
      }
    }
    lines.push(line);
  }
  if (lines.length <= most) return lines;
  const shown = lines.slice(0, most);
  const last = shown[most - 1]!;
  shown[most - 1] =
    cellWidth(last) + 2 <= width ? `${last} ${ELLIPSIS}` : truncate(`${last}${ELLIPSIS}${ELLIPSIS}`, width);
  return shown;
}

/** `text` in pieces of at most `width` cells, never splitting a grapheme. */
export function splitCells(text: string, width: number): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = cellWidth(segment);
    if (used + w > width && piece !== '') {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += w;
  }
  if (piece !== '' || pieces.length === 0) pieces.push(piece);
  return pieces;
}
