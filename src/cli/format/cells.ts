// How one field of a record reads as text in a table or a CSV cell; widths are src/text's job.

import { ExactNumber, stringifyExact } from '../../api/hal/exact-json.js';
import { oneLine } from '../../text/cells.js';

/** Scalars as themselves (a number kept as sent with its own digits), nested values as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof ExactNumber) return String(value);
  return stringifyExact(value) ?? '';
}

/** One line for a table cell: line breaks and tabs read as a space, escapes and other controls made visible. */
export function tableCell(value: unknown): string {
  return oneLine(cellText(value));
}
