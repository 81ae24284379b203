// CSV as RFC 4180 writes it, but for its line ends: LF, as Unix tools (cut, awk, sort) expect, or CR LF
// with --csv-crlf for the tools that want it (csvLineEnd). A field quoted when it holds a comma, quote, CR or LF, quotes doubled.
// Nested values are written as JSON so that nothing is lost. Text from the server is made visible (an
// escape sequence in a cell would reach the terminal `-o csv` prints to; line feeds and tabs stay), and a
// string that a spreadsheet would read as a formula is guarded the way OWASP's "CSV Injection" asks: a
// leading `'` and the field quoted. A value that is a number, the JSON number -5 or the string "-5", is
// written as it is.

import { visible } from '../../text/cells.js';
import { cellText } from './cells.js';

/** What a spreadsheet starts a formula (or a DDE call) with. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function csvField(value: unknown): string {
  const raw = cellText(value);
  const formula = typeof value === 'string' && FORMULA_START.test(raw) && !NUMBER.test(raw);
  const text = visible(formula ? `'${raw}` : raw, { lines: true });
  return formula || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export type CsvLineEnd = '\n' | '\r\n';

export function csvLine(values: readonly unknown[], lineEnd: CsvLineEnd = '\n'): string {
  return `${values.map(csvField).join(',')}${lineEnd}`;
}

export function csvRow(
  columns: readonly string[],
  record: Record<string, unknown>,
  lineEnd: CsvLineEnd = '\n',
): string {
  return csvLine(
    columns.map((column) => record[column]),
    lineEnd,
  );
}

/** `--csv-crlf`: CR LF line ends; LF otherwise. */
export function csvLineEnd(options: Record<string, unknown>): CsvLineEnd {
  return options['csv-crlf'] === true ? '\r\n' : '\n';
}
