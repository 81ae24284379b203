// A recorded answer as the tables a report shows, from the JSON the command printed: a count as its
// matrix (units indented by depth, a column per value, other and the total), a group-by as its groups,
// a list as its records (the columns the terminal's table would lead with), an x-ray as its records, and
// a single record as its fields. Cells are plain text; the HTML and Markdown writers escape them.

import { isObject } from '../../../api/json.js';
import { planTable } from '../../format/table.js';
import { tableCell } from '../../format/cells.js';

export interface ReportTable {
  kind: 'matrix' | 'groups' | 'list' | 'nodes' | 'record';
  columns: string[];
  /** Per column: numbers, aligned right. */
  numeric: boolean[];
  rows: { cells: string[]; depth?: number }[];
  /** What the table leaves out, or how it adds up. */
  caption?: string;
}

/** A list's records shown at most. */
const LIST_ROWS = 100;
/** Wide enough for the planner to keep every short field, as a wide terminal would. */
const LIST_WIDTH = 220;

export function tablesOf(word: string | undefined, json: unknown): ReportTable[] {
  if (!isObject(json) && !Array.isArray(json)) return [];
  if (word === 'count' && isObject(json) && Array.isArray(json['rows'])) return [matrix(json)];
  if (isObject(json) && Array.isArray(json['groups'])) return [groups(json)];
  if (word === 'xray' && isObject(json) && Array.isArray(json['nodes'])) return [nodes(json['nodes'])];
  const items = Array.isArray(json) ? json : isObject(json) && Array.isArray(json['items']) ? json['items'] : undefined;
  if (items) return [list(items.filter(isObject), isObject(json) ? json : {})];
  return isObject(json) ? [record(json)] : [];
}

function matrix(json: Record<string, unknown>): ReportTable {
  const rows = (json['rows'] as unknown[]).filter(isObject);
  const columns = Array.isArray(json['columns']) ? json['columns'].map(String) : [];
  const withOther = rows.some((row) => typeof row['other'] === 'number' && row['other'] !== 0);
  const profiles = new Set(rows.map((row) => row['profile'] ?? null)).size > 1;
  const names = [...(profiles ? ['profile'] : []), 'unit', ...columns, ...(withOther ? ['other'] : []), 'total'];
  return {
    kind: 'matrix',
    columns: names,
    numeric: names.map((_name, index) => index >= (profiles ? 2 : 1)),
    rows: rows.map((row) => {
      const counts = isObject(row['counts']) ? row['counts'] : {};
      const unit =
        tableCell(row['ou_name'] ?? row['ou'] ?? '') +
        (row['counted'] === true ? ' *' : '') +
        (row['changed_while_counting'] === true ? ' (changed while counting)' : '');
      const error = typeof row['error'] === 'string' ? row['error'] : undefined;
      // A unit that failed has no numbers: its error stands where its total would.
      const numbers = error
        ? [...columns.map(() => ''), ...(withOther ? [''] : []), `error: ${tableCell(error)}`]
        : [
            ...columns.map((column) => number(counts[column])),
            ...(withOther ? [number(row['other'])] : []),
            number(row['total']),
          ];
      return {
        cells: [...(profiles ? [tableCell(row['profile'] ?? '')] : []), unit, ...numbers],
        depth: typeof row['depth'] === 'number' ? row['depth'] : 0,
      };
    }),
    ...(rows.some((row) => row['counted'] === true)
      ? { caption: '* counted from every record: the list reports no count' }
      : {}),
  };
}

function groups(json: Record<string, unknown>): ReportTable {
  const entries = (json['groups'] as unknown[]).filter(isObject);
  const keys = [...new Set(entries.flatMap((entry) => (isObject(entry['key']) ? Object.keys(entry['key']) : [])))];
  const total = entries.reduce((sum, entry) => sum + (typeof entry['count'] === 'number' ? entry['count'] : 0), 0);
  return {
    kind: 'groups',
    columns: [...keys, 'count'],
    numeric: [...keys.map(() => false), true],
    rows: entries.map((entry) => ({
      cells: [...keys.map((key) => tableCell(isObject(entry['key']) ? entry['key'][key] : '')), number(entry['count'])],
    })),
    caption:
      `${number(total)} records in ${number(entries.length)} groups` +
      (typeof json['requests'] === 'number' ? `, from ${number(json['requests'])} requests` : ''),
  };
}

function list(items: Record<string, unknown>[], envelope: Record<string, unknown>): ReportTable {
  const shown = items.slice(0, LIST_ROWS).map(
    (item): Record<string, unknown> => ({
      ...(isObject(item['_context']) ? { _unit: item['_context']['ou_name'] } : {}),
      ...item,
    }),
  );
  const fields = planTable(
    shown,
    LIST_WIDTH,
    undefined,
    shown.some((item) => '_unit' in item) ? ['_unit'] : undefined,
  ).columns.map((column) => column.field);
  const total = typeof envelope['total_count'] === 'number' ? envelope['total_count'] : items.length;
  return {
    kind: 'list',
    columns: fields,
    numeric: fields.map((field) =>
      shown.every((item) => item[field] === null || item[field] === undefined || typeof item[field] === 'number'),
    ),
    rows: shown.map((item) => ({ cells: fields.map((field) => tableCell(item[field])) })),
    caption:
      shown.length < total
        ? `the first ${number(shown.length)} of ${number(total)} records`
        : `${number(shown.length)} records`,
  };
}

function nodes(all: unknown[]): ReportTable {
  const records = all.filter(isObject);
  return {
    kind: 'nodes',
    columns: ['resource', 'record', 'status', 'id'],
    numeric: [false, false, false, false],
    rows: records.map((node) => ({
      cells: [
        tableCell(node['resource']),
        tableCell(node['label']),
        tableCell(node['error'] ? `error: ${String(node['error'])}` : node['status']),
        tableCell(node['id']),
      ],
    })),
    caption: `${number(records.length)} records around the first`,
  };
}

function record(json: Record<string, unknown>): ReportTable {
  const fields = Object.keys(json).filter((field) => !field.startsWith('_'));
  return {
    kind: 'record',
    columns: ['field', 'value'],
    numeric: [false, false],
    rows: fields.map((field) => ({ cells: [tableCell(field), tableCell(json[field])] })),
  };
}

function number(value: unknown): string {
  return typeof value === 'number' ? value.toLocaleString('en-US') : tableCell(value);
}
