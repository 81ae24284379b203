// `dpx count` printed: one row per (control plane, unit), one column per value, `other` and the total,
// as a table of bars, as JSON or as CSV. The total is the server's count for the unit's scope (or one
// dpx counted from every record, marked), never the sum of the columns; `other` is what the columns
// leave out. Rows come in the order the command arranged them; a row that failed, one counted by dpx,
// and one whose numbers changed while they were counted are marked in every format.

import type { CountAnswerRow } from '../../api/fanout/count-across.js';
import { statusMeaning } from '../../api/hal/status.js';
import { cellWidth, fit, formatCount, oneLine, truncate } from '../../text/cells.js';
import { meaningTone, paint } from '../../text/colour.js';
import { csvLine, type CsvLineEnd } from './csv.js';

/** The formats the matrix is printed in, the default first. */
export const MATRIX_FORMATS = ['table', 'json', 'csv'] as const;

/** A row of the count's answer (its numbers as CountAnswerRow says), placed by its control plane and unit. */
export interface MatrixRow extends Omit<CountAnswerRow, 'scope'> {
  profile: string | null;
  baseUrl: string;
  ou: string | null;
  /** The unit names from the root down to the unit, its own last. */
  ouPath: readonly string[];
  depth: number;
}

/** How the columns were chosen: named by the caller, or read from the schema and a few pages. */
export interface MatrixValues {
  given: boolean;
  schema: boolean;
  pages: number;
  everyPage: boolean;
  mayMiss: boolean;
}

export interface Matrix {
  resource: string;
  by: string | undefined;
  columns: string[];
  values: MatrixValues | undefined;
  rows: MatrixRow[];
  requests: number;
  /** The plan's `plan` member of -o json (plan.ts). */
  plan: unknown;
  /** Said under the table: the numbers came from a scan no server count could check. */
  verification: 'counted, not verified' | undefined;
}

export function matrixJson(matrix: Matrix): unknown {
  const { values } = matrix;
  return {
    by: matrix.by ?? null,
    columns: matrix.columns,
    values:
      values === undefined
        ? null
        : {
            given: values.given,
            schema: values.schema,
            pages_read: values.pages,
            every_page: values.everyPage,
            may_be_missing: values.mayMiss,
          },
    rows: matrix.rows.map((row) => ({
      profile: row.profile,
      base_url: row.baseUrl,
      ou: row.ou,
      ou_name: row.ouName,
      ou_path: row.ouPath,
      depth: row.depth,
      counts: Object.fromEntries(matrix.columns.map((label, index) => [label, row.counts[index] ?? null])),
      other: row.other ?? null,
      total: row.total ?? null,
      counted: row.counted,
      changed_while_counting: row.changed,
      error: row.error ?? null,
    })),
    requests: matrix.requests,
    plan: matrix.plan,
  };
}

export function matrixCsv(matrix: Matrix, lineEnd: CsvLineEnd = '\n'): string {
  let text = csvLine(
    [
      'profile',
      'base_url',
      'ou',
      'ou_name',
      'ou_path',
      'depth',
      ...matrix.columns,
      'other',
      'total',
      'counted',
      'changed_while_counting',
      'error',
    ],
    lineEnd,
  );
  for (const row of matrix.rows) {
    text += csvLine(
      [
        row.profile,
        row.baseUrl,
        row.ou,
        row.ouName,
        row.ouPath.join(' / '),
        row.depth,
        ...matrix.columns.map((_, index) => row.counts[index]),
        row.other,
        row.total,
        row.counted,
        row.changed,
        row.error,
      ],
      lineEnd,
    );
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
/** After a total dpx counted from every record. */
const COUNTED_MARK = '*';
const CHANGED = 'changed';

/** Whether the table shows `other`: where any row has one that is not 0, or whose numbers changed. */
export function showsOther(matrix: Matrix): boolean {
  return (
    matrix.by !== undefined && matrix.rows.some((row) => (row.other !== undefined && row.other !== 0) || row.changed)
  );
}

/**
 * The matrix as a table within `width` cells: units indented by depth, each count with a bar coloured by
 * the value's meaning. A value's bar is its share of the row's total; without `by`, the totals' bars
 * compare the rows. Bars narrow, then vanish, before anything is cut; a row that failed shows its error.
 * A caption says when values may be missing, and notes under the table say what its marks mean.
 */
export function matrixTable(matrix: Matrix, options: { width: number; colour: boolean; showProfile: boolean }): string {
  const { rows } = matrix;
  // Unit names and the values counted by come from the server: one line each, nothing a terminal obeys.
  const other = showsOther(matrix);
  const columns = (other ? [...matrix.columns, 'other'] : matrix.columns).map(oneLine);
  const countsOf = (row: MatrixRow) => (other ? [...row.counts, row.other] : row.counts);
  const labelOf = (row: MatrixRow) => `${'  '.repeat(row.depth)}${oneLine(row.ouName ?? '(no unit)')}`;
  const profileOf = (row: MatrixRow) => oneLine(row.profile ?? new URL(row.baseUrl).host);
  const totalText = (row: MatrixRow) =>
    row.total === undefined ? '?' : `${formatCount(row.total)}${row.counted ? COUNTED_MARK : ''}`;
  const unitWidth = Math.min(UNIT_WIDTH, Math.max(cellWidth('unit'), ...rows.map((row) => cellWidth(labelOf(row)))));
  const profileWidth = options.showProfile
    ? Math.min(PROFILE_WIDTH, Math.max(cellWidth('profile'), ...rows.map((row) => cellWidth(profileOf(row)))))
    : 0;
  const digits = (values: (number | undefined)[]) =>
    Math.max(1, ...values.map((value) => (value === undefined ? 1 : formatCount(value).length)));
  const countWidths = columns.map((label, index) =>
    Math.max(
      digits(rows.map((row) => countsOf(row)[index])),
      label === 'other' && index === matrix.columns.length && rows.some((row) => row.changed) ? CHANGED.length : 0,
    ),
  );
  const totalDigits = Math.max(
    columns.length > 0 ? cellWidth('total') : 1,
    ...rows.map((row) => cellWidth(totalText(row))),
  );
  const lead = (options.showProfile ? profileWidth + GAP.length : 0) + unitWidth;
  const valueWidth = (bar: number, index: number) =>
    Math.max(Math.min(cellWidth(columns[index]!), LABEL_WIDTH), countWidths[index]! + (bar > 0 ? bar + 1 : 0));
  const totalWidth = (bar: number) =>
    columns.length > 0 ? totalDigits : Math.max(cellWidth('total'), totalDigits + (bar > 0 ? bar + 1 : 0));
  const widthWith = (bar: number) =>
    lead +
    columns.reduce((sum, _, index) => sum + GAP.length + valueWidth(bar, index), 0) +
    GAP.length +
    totalWidth(bar);
  const bar = BAR_WIDTHS.find((candidate) => widthWith(candidate) <= options.width) ?? 0;
  const widths = columns.map((_, index) => valueWidth(bar, index));
  const largestTotal = Math.max(0, ...rows.map((row) => row.total ?? 0));

  const lines: string[] = [];
  const caption = captionOf(matrix);
  if (caption !== undefined) lines.push(paint(truncate(caption, Math.max(20, options.width)), 'muted', options.colour));
  const header = [...(options.showProfile ? [fit('profile', profileWidth)] : []), fit('unit', unitWidth)];
  for (const [index, label] of columns.entries()) header.push(fit(label, widths[index]!));
  header.push(fit('total', totalWidth(bar), 'right'));
  lines.push(header.join(GAP).trimEnd());

  for (const row of rows) {
    const cells = [...(options.showProfile ? [fit(profileOf(row), profileWidth)] : []), fit(labelOf(row), unitWidth)];
    if (row.error !== undefined && row.total === undefined && row.counts.every((count) => count === undefined)) {
      const room = Math.max(10, options.width - lead - GAP.length);
      cells.push(paint(truncate(`error: ${oneLine(row.error)}`, room), 'bad', options.colour));
      lines.push(cells.join(GAP));
      continue;
    }
    const counts = countsOf(row);
    columns.forEach((label, index) => {
      const count = counts[index];
      const isOther = other && index === matrix.columns.length;
      if (isOther && row.changed) {
        cells.push(paint(fit(CHANGED, widths[index]!, 'right'), 'bad', options.colour));
        return;
      }
      const share = row.total !== undefined && row.total > 0 && count !== undefined ? count / row.total : 0;
      cells.push(
        countCell(count, share, bar, widths[index]!, isOther ? 'unknown' : statusMeaning(label), options.colour),
      );
    });
    if (columns.length > 0)
      cells.push(
        paint(
          fit(totalText(row), totalWidth(bar), 'right'),
          row.total === undefined ? 'bad' : 'neutral',
          options.colour,
        ),
      );
    else
      cells.push(
        countCell(
          row.total,
          largestTotal > 0 && row.total !== undefined ? row.total / largestTotal : 0,
          bar,
          totalWidth(bar),
          'unknown',
          options.colour,
          row.counted ? COUNTED_MARK : '',
        ),
      );
    let line = cells.join(GAP);
    if (row.error !== undefined) line += `${GAP}${paint(`error: ${oneLine(row.error)}`, 'bad', options.colour)}`;
    lines.push(line.trimEnd());
  }
  for (const note of notesOf(matrix, other)) lines.push(paint(note, 'muted', options.colour));
  return lines.map((line) => `${line}\n`).join('');
}

/** The line above the header, when the columns may not be every value of the field. */
function captionOf(matrix: Matrix): string | undefined {
  const values = matrix.values;
  if (!values?.mayMiss || matrix.by === undefined) return undefined;
  return (
    `values of ${matrix.by} may be missing: they come from ${values.schema ? 'the schema and ' : ''}` +
    `${values.pages} page${values.pages === 1 ? '' : 's'} of ${matrix.resource}, and the server links no last page; ` +
    'other counts their records (--values names them)'
  );
}

/** What the table's marks mean, for those it shows. */
function notesOf(matrix: Matrix, other: boolean): string[] {
  const notes: string[] = [];
  if (other)
    notes.push(
      `other: records whose ${matrix.by} is none of the columns${matrix.values?.given ? ' named by --values' : ''} (total − the columns)`,
    );
  if (matrix.verification)
    notes.push(
      `${matrix.verification}: one scan of the root's list counted every number, and the list reports no count to check it against`,
    );
  if (matrix.rows.some((row) => row.counted))
    notes.push(`${COUNTED_MARK} counted by dpx from every record: the list reports no total_count`);
  const changed = matrix.rows.filter((row) => row.changed).length;
  if (changed > 0)
    notes.push(
      `${CHANGED}: ${changed} row${changed === 1 ? "'s" : "s'"} numbers were not all true at once ` +
        '(a cell above the total): records changed while they were counted; count again',
    );
  return notes;
}

/** A bar of `bar` cells for its share, then the count right-aligned in the rest of `width`, tinted; `?` for a count that failed. */
function countCell(
  count: number | undefined,
  share: number,
  bar: number,
  width: number,
  meaning: ReturnType<typeof statusMeaning>,
  colour: boolean,
  mark = '',
): string {
  if (count === undefined) return paint(fit('?', width, 'right'), 'bad', colour);
  const number = `${formatCount(count)}${mark}`;
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
