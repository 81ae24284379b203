// How one field of a record reads as text, measured in terminal cells (wide and combining characters).

import stringWidth from 'string-width';

/** Fields of a record that are data, in their order: HAL plumbing (`_links`, `_embedded`) is not data. */
export function dataFields(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => key !== '_links' && key !== '_embedded');
}

export function isScalar(value: unknown): boolean {
  return value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Scalars as themselves, nested values as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One line for a table cell: control characters (newlines, tabs, escapes) would break the grid. */
export function tableCell(value: unknown): string {
  return cellText(value).replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

export function displayWidth(text: string): number {
  return stringWidth(text);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** At most `width` terminal cells; a cut is marked with `…`. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let result = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const cell = displayWidth(segment);
    if (used + cell > width - 1) break;
    result += segment;
    used += cell;
  }
  return `${result}…`;
}

export function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

export function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - displayWidth(text))) + text;
}
