// RFC 4180 CSV: CRLF line ends, a field quoted when it holds a comma, quote, CR or LF, quotes doubled.
// Nested values are written as JSON so that nothing is lost.

import { cellText } from './cells.js';

export function csvField(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export function csvRow(columns: readonly string[], record: Record<string, unknown>): string {
  return csvLine(columns.map((column) => record[column]));
}
