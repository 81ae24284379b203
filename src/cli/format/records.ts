// Writers for a stream of list records, one page at a time, in each output format. Every format streams:
// a page is written as soon as it arrives, so memory does not grow with the number of pages.

import type { DataWriter } from '../io.js';
import { mayHoldInexactNumbers, parseExact } from '../../api/hal/exact-json.js';
import { csvLine, csvRow, type CsvLineEnd } from './csv.js';
import { dataFields } from '../../api/hal/records.js';
import type { ColumnPlan } from '../../text/column-planner.js';
import { selectFields } from './fields.js';
import { jsonString } from './json.js';
import { formatHeader, formatRow, planTable } from './table.js';

export const LIST_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export interface ListSummary {
  totalCount?: number;
  totalPages?: number;
  pagesFetched: number;
  /** Sources that failed, in a list merged from several (json only; the other formats name them on stderr). */
  errors?: Record<string, unknown>[];
}

/** A page's records as a sink is given them. */
export interface SinkPage {
  /** The records. A page read for its records as sent parses them when this is first read (sent-page.ts). */
  readonly items: Record<string, unknown>[];
  /**
   * Each record as the server sent it (itemsAsSent), where the caller has them unchanged: a machine format
   * writes those bytes instead of serialising the record again, and never reads `items`.
   */
  readonly asSent?: readonly Uint8Array[];
}

export interface RecordSink {
  /** Writes a page's records. */
  page(records: SinkPage): Promise<void>;
  finish(summary: ListSummary): Promise<void>;
}

export interface SinkOptions {
  /** Table width in terminal cells. */
  width: number;
  /** Stdout is a terminal: JSON indented for a person, and written with nothing a terminal obeys. */
  pretty: boolean;
  /** A note for stderr (never data). */
  note: (message: string) => void;
  /** `--fields`: only these (dotted) paths, in this order, keyed by the paths; else every field. */
  fields?: readonly string[];
  /** Table fields that come first whatever the ranking (where a merged list's record came from). */
  leading?: readonly string[];
  /** How a csv line ends (--csv-crlf); LF when unset. */
  lineEnd?: CsvLineEnd;
}

export function createRecordSink(format: ListFormat, out: DataWriter, options: SinkOptions): RecordSink {
  const sink = formatSink(format, out, options);
  const { fields } = options;
  if (fields === undefined) return sink;
  // Only the fields asked for: the records as sent are not what is written.
  return {
    page: (records) => sink.page({ items: exactItems(records).map((item) => selectFields(item, fields)) }),
    finish: (summary) => sink.finish(summary),
  };
}

function formatSink(format: ListFormat, out: DataWriter, options: SinkOptions): RecordSink {
  switch (format) {
    case 'ndjson':
      return {
        page: (records) =>
          out.write(
            records.asSent !== undefined && !options.pretty
              ? joined(records.asSent, NEWLINE, { after: NEWLINE })
              : exactItems(records)
                  .map((item) => `${jsonString(item, undefined, options.pretty)}\n`)
                  .join(''),
          ),
        finish: async () => undefined,
      };
    case 'json':
      return new JsonSink(out, options.pretty);
    case 'csv':
      return new CsvSink(out, options.note, options.fields, options.lineEnd ?? '\n');
    case 'table':
      return new TableSink(out, options);
  }
}

/**
 * The records with each one that may hold a number a double changed read again from its bytes as sent,
 * that number kept with its own digits (exact-json.ts); the others as they are.
 */
function exactItems({ items, asSent }: SinkPage): Record<string, unknown>[] {
  if (asSent === undefined || asSent.length !== items.length) return items;
  return items.map((item, index) => {
    const text = Buffer.from(asSent[index]!).toString('utf8');
    return mayHoldInexactNumbers(text) ? (parseExact(text) as Record<string, unknown>) : item;
  });
}

const NEWLINE = Buffer.from('\n');
const ITEM_SEPARATOR = Buffer.from(',\n');
const JSON_OPENING = Buffer.from('{"items":[\n');

/** Records' bytes, `between` each two, `before` the first and `after` the last, in one buffer: one write per page. */
function joined(
  records: readonly Uint8Array[],
  between: Uint8Array,
  ends: { before?: Uint8Array; after?: Uint8Array } = {},
): Uint8Array {
  if (records.length === 0) return new Uint8Array(0);
  const parts: Uint8Array[] = ends.before === undefined ? [] : [ends.before];
  records.forEach((record, index) => {
    if (index > 0) parts.push(between);
    parts.push(record);
  });
  if (ends.after !== undefined) parts.push(ends.after);
  return Buffer.concat(parts);
}

/**
 * `{ "items": [...], "total_count": n, "total_pages": n, "pages_fetched": n }` — the items are written as
 * the pages come; the counts (the server's, when it sent them) close the document, and for a list merged
 * from several sources, the `errors` of those that failed.
 */
class JsonSink implements RecordSink {
  private count = 0;

  constructor(
    private readonly out: DataWriter,
    private readonly pretty: boolean,
  ) {}

  async page(records: SinkPage): Promise<void> {
    const { asSent } = records;
    if (asSent !== undefined && !this.pretty) {
      if (asSent.length === 0) return;
      const before = this.count === 0 ? JSON_OPENING : ITEM_SEPARATOR;
      this.count += asSent.length;
      await this.out.write(joined(asSent, ITEM_SEPARATOR, { before }));
      return;
    }
    if (records.items.length === 0) return;
    let text = '';
    for (const item of exactItems(records)) {
      text += this.count === 0 ? (this.pretty ? '{\n  "items": [\n' : '{"items":[\n') : ',\n';
      text += this.pretty ? `    ${jsonString(item, 2).replace(/\n/g, '\n    ')}` : jsonString(item, undefined, false);
      this.count++;
    }
    await this.out.write(text);
  }

  async finish(summary: ListSummary): Promise<void> {
    const counts: [string, unknown][] = [];
    if (summary.totalCount !== undefined) counts.push(['total_count', summary.totalCount]);
    if (summary.totalPages !== undefined) counts.push(['total_pages', summary.totalPages]);
    counts.push(['pages_fetched', summary.pagesFetched]);
    if (summary.errors !== undefined) counts.push(['errors', summary.errors]);
    const empty = this.count === 0;
    const value = (entry: unknown) => (this.pretty ? jsonString(entry, 2).replace(/\n/g, '\n  ') : jsonString(entry));
    const text = this.pretty
      ? `${empty ? '{\n  "items": [' : '\n  '}]${counts.map(([key, entry]) => `,\n  "${key}": ${value(entry)}`).join('')}\n}\n`
      : `${empty ? '{"items":[' : '\n'}]${counts.map(([key, entry]) => `,"${key}":${value(entry)}`).join('')}}\n`;
    await this.out.write(text);
  }
}

/**
 * The header is the fields asked for, else the fields of the first page; a field that first appears later
 * is reported, not lost silently.
 */
class CsvSink implements RecordSink {
  private columns: readonly string[] | undefined;
  private readonly missing = new Set<string>();

  constructor(
    private readonly out: DataWriter,
    private readonly note: (message: string) => void,
    private readonly fields: readonly string[] | undefined,
    private readonly lineEnd: CsvLineEnd,
  ) {}

  async page(records: SinkPage): Promise<void> {
    if (records.items.length === 0) return;
    const items = exactItems(records);
    let text = '';
    if (this.columns === undefined) {
      this.columns = this.fields ?? [...new Set(items.flatMap(dataFields))];
      text += csvLine(this.columns, this.lineEnd);
    }
    for (const item of items) {
      for (const key of dataFields(item)) if (!this.columns.includes(key)) this.missing.add(key);
      text += csvRow(this.columns, item, this.lineEnd);
    }
    await this.out.write(text);
  }

  async finish(): Promise<void> {
    if (this.missing.size > 0) {
      this.note(
        `fields not in the CSV header (first seen after the first page): ${[...this.missing].join(', ')}; use --output ndjson to keep them`,
      );
    }
  }
}

/** Column widths come from the first page; later pages are cut to the same grid. */
class TableSink implements RecordSink {
  private layout: ColumnPlan | undefined;
  private readonly hidden = new Set<string>();
  private rows = 0;

  constructor(
    private readonly out: DataWriter,
    private readonly options: SinkOptions,
  ) {}

  async page({ items }: SinkPage): Promise<void> {
    if (items.length === 0) return;
    let text = '';
    if (this.layout === undefined) {
      // The fields the reader named are each given a column, however narrow.
      this.layout = planTable(items, this.options.width, this.options.fields, this.options.leading, {
        keepAll: this.options.fields !== undefined,
      });
      text += `${formatHeader(this.layout)}\n`;
    }
    const shown = new Set(this.layout.columns.map((column) => column.field));
    for (const item of items) {
      for (const key of dataFields(item)) if (!shown.has(key)) this.hidden.add(key);
      text += `${formatRow(this.layout, item)}\n`;
      this.rows++;
    }
    await this.out.write(text);
  }

  async finish(): Promise<void> {
    if (this.rows === 0) this.options.note('no items');
    if (this.hidden.size > 0) {
      this.options.note(
        `not shown for lack of width: ${[...this.hidden].join(', ')} (use --output json to see every field)`,
      );
    }
  }
}
