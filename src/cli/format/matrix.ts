// `dpx count` printed: one row per (control plane, unit), one column per value plus the total, as a
// table of bars, as JSON or as CSV. Rows come in the order the plan gave them (tree order per control
// plane); a row that failed carries its error in every format.

import { statusMeaning } from '../../api/hal/status.js';
import { cellWidth, fit, formatCount, oneLine, truncate } from '../../text/cells.js';
import { meaningTone, paint } from '../../text/colour.js';
import { csvLine } from './csv.js';

export interface MatrixRow {
  profile: string | null;
  baseUrl: string;
  ou: string | null;
  ouName: string | null;
  depth: number;
  /** One per column; undefined where that count failed. */
  counts: (number | undefined)[];
  /** The sum of the row's columns (without `by`: its one count); undefined when a count failed. */
  total: number | undefined;
  error: string | undefined;
}

export interface Matrix {
  by: string | undefined;
  columns: string[];
  rows: MatrixRow[];
  requests: number;
}

export function matrixJson(matrix: Matrix): unknown {
  return {
    by: matrix.by ?? null,
    columns: matrix.columns,
    rows: matrix.rows.map((row) => ({
      profile: row.profile,
      base_url: row.baseUrl,
      ou: row.ou,
      ou_name: row.ouName,
      depth: row.depth,
      counts: Object.fromEntries(matrix.columns.map((label, index) => [label, row.counts[index] ?? null])),
      total: row.total ?? null,
      error: row.error ?? null,
    })),
    requests: matrix.requests,
  };
}

export function matrixCsv(matrix: Matrix): string {
  let text = csvLine(['profile', 'base_url', 'ou', 'ou_name', 'depth', ...matrix.columns, 'total', 'error']);
  for (const row of matrix.rows) {
    text += csvLine([row.profile, row.baseUrl, row.ou, row.ouName, row.depth, ...matrix.columns.map((_, index) => row.counts[index]), row.total, row.error]);
  }
  return text;
}

const GAP = '  ';
const LABEL_WIDTH = 12;
const UNIT_WIDTH = 40;
const PROFILE_WIDTH = 20;
/** Bar widths tried, widest first, until the table fits. */
const BAR_WIDTHS = [8, 5, 3, 1, 0];
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * The matrix as a table within `width` cells: units indented by depth, each count with a bar coloured by
 * the value's meaning. A value's bar is its share of the row's total; without `by`, the totals' bars
 * compare the rows. Bars narrow, then vanish, before anything is cut; a row that failed shows its error.
 */
export function matrixTable(matrix: Matrix, options: { width: number; colour: boolean; showProfile: boolean }): string {
  const { rows } = matrix;
  // Unit names and the values counted by come from the server: one line each, nothing a terminal obeys.
  const columns = matrix.columns.map(oneLine);
  const labelOf = (row: MatrixRow) => `${'  '.repeat(row.depth)}${oneLine(row.ouName ?? '(no unit)')}`;
  const profileOf = (row: MatrixRow) => oneLine(row.profile ?? new URL(row.baseUrl).host);
  const unitWidth = Math.min(UNIT_WIDTH, Math.max(cellWidth('unit'), ...rows.map((row) => cellWidth(labelOf(row)))));
  const profileWidth = options.showProfile ? Math.min(PROFILE_WIDTH, Math.max(cellWidth('profile'), ...rows.map((row) => cellWidth(profileOf(row))))) : 0;
  const digits = (values: (number | undefined)[]) => Math.max(1, ...values.map((value) => (value === undefined ? 1 : formatCount(value).length)));
  const countWidths = columns.map((_, index) => digits(rows.map((row) => row.counts[index])));
  const totalDigits = Math.max(cellWidth('total'), digits(rows.map((row) => row.total)));
  const lead = (options.showProfile ? profileWidth + GAP.length : 0) + unitWidth;
  const valueWidth = (bar: number, index: number) => Math.max(Math.min(cellWidth(columns[index]!), LABEL_WIDTH), countWidths[index]! + (bar > 0 ? bar + 1 : 0));
  const totalWidth = (bar: number) => (columns.length > 0 ? totalDigits : Math.max(totalDigits, digits(rows.map((row) => row.total)) + (bar > 0 ? bar + 1 : 0)));
  const widthWith = (bar: number) => lead + columns.reduce((sum, _, index) => sum + GAP.length + valueWidth(bar, index), 0) + GAP.length + totalWidth(bar);
  const bar = BAR_WIDTHS.find((candidate) => widthWith(candidate) <= options.width) ?? 0;
  const widths = columns.map((_, index) => valueWidth(bar, index));
  const largestTotal = Math.max(0, ...rows.map((row) => row.total ?? 0));

  const lines: string[] = [];
  const header = [...(options.showProfile ? [fit('profile', profileWidth)] : []), fit('unit', unitWidth)];
  columns.forEach((label, index) => header.push(fit(label, widths[index]!)));
  header.push(fit('total', totalWidth(bar), 'right'));
  lines.push(header.join(GAP).trimEnd());

  for (const row of rows) {
    const cells = [...(options.showProfile ? [fit(profileOf(row), profileWidth)] : []), fit(labelOf(row), unitWidth)];
    if (row.error !== undefined && row.counts.every((count) => count === undefined)) {
      const room = Math.max(10, options.width - lead - GAP.length);
      cells.push(paint(truncate(`error: ${oneLine(row.error)}`, room), 'bad', options.colour));
      lines.push(cells.join(GAP));
      continue;
    }
    const shareOf = row.total ?? row.counts.reduce<number>((sum, count) => sum + (count ?? 0), 0);
    matrix.columns.forEach((value, index) => {
      const count = row.counts[index];
      cells.push(countCell(count, shareOf > 0 && count !== undefined ? count / shareOf : 0, bar, widths[index]!, statusMeaning(value), options.colour));
    });
    if (columns.length > 0) cells.push(fit(row.total === undefined ? '?' : formatCount(row.total), totalWidth(bar), 'right'));
    else cells.push(countCell(row.total, largestTotal > 0 && row.total !== undefined ? row.total / largestTotal : 0, bar, totalWidth(bar), 'unknown', options.colour));
    let line = cells.join(GAP);
    if (row.error !== undefined) line += `${GAP}${paint(`error: ${oneLine(row.error)}`, 'bad', options.colour)}`;
    lines.push(line.trimEnd());
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** A bar of `bar` cells for its share, then the count right-aligned in the rest of `width`, tinted; `?` for a count that failed. */
function countCell(count: number | undefined, share: number, bar: number, width: number, meaning: ReturnType<typeof statusMeaning>, colour: boolean): string {
  if (count === undefined) return paint(fit('?', width, 'right'), 'bad', colour);
  const number = formatCount(count);
  if (count === 0) return paint(fit(number, width, 'right'), 'muted', colour);
  if (bar === 0) return paint(fit(number, width, 'right'), meaningTone(meaning), colour);
  return paint(`${barText(share, bar)} ${fit(number, width - bar - 1, 'right')}`, meaningTone(meaning), colour);
}

/** `share` of `width` cells in eighth blocks; any share above 0 shows at least one eighth. */
function barText(share: number, width: number): string {
  let eighths = Math.round(Math.max(0, Math.min(1, share)) * width * 8);
  if (eighths === 0 && share > 0) eighths = 1;
  return `${'█'.repeat(Math.floor(eighths / 8))}${EIGHTHS[eighths % 8]}`.padEnd(width);
}
