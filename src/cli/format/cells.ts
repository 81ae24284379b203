// How one field of a record reads as text in a table or a CSV cell; widths are src/text's job.

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
