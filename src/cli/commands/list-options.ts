// What `dpx list` was asked, read from its options and checked before anything is sent; shared by the
// one-source list and the merged one.

import { UsageError } from '../../api/errors.js';
import { checkNamedValues } from '../../api/security/control-chars.js';
import { readWindow, type TimeWindow } from '../../api/hal/time-window.js';
import { namedValues, positiveNumber } from '../args.js';
import { parseFields } from '../format/fields.js';
import { csvLineEnd, type CsvLineEnd } from '../format/csv.js';
import type { ListFormat } from '../format/records.js';
import type { CommandContext } from '../context.js';
import { parseGroupBy } from './list-groups.js';
import { OUTPUT_FORMATS, outputFormat } from './output.js';

export interface ListOptions {
  format: ListFormat;
  /** --csv-crlf: how a csv line ends. */
  lineEnd: CsvLineEnd;
  filter?: string;
  pageSize?: number;
  maxItems?: number;
  page?: string;
  all: boolean;
  version?: string;
  operationId?: string;
  variables: Record<string, string>;
  fields?: string[];
  /** --since/--until; put on `timeField` (--time-field) or the resource's own time field. */
  window?: TimeWindow;
  timeField?: string;
  /** --group-by: count groups of every record instead of printing them. */
  groupBy?: string[];
}

export function readListOptions(ctx: CommandContext, options: Record<string, unknown>): ListOptions {
  const filter = checkedFilter(options['filter']);
  const pageSize = optionalNumber('--page-size', options['page-size']) ?? ctx.settings.pageSize;
  const maxItems = optionalNumber('--max-items', options['max-items']);
  const fields = parseFields(options['fields']);
  const window = readWindow(stringOption(options['since']), stringOption(options['until']), ctx.settings.now);
  const groupBy = parseGroupBy(options['group-by']);
  if (groupBy !== undefined && maxItems !== undefined) {
    throw new UsageError(
      '--group-by counts every record: with --max-items its groups would be of a sample',
      'leave out --max-items, or narrow the list with --filter or --since',
    );
  }
  return {
    format: outputFormat(options['output'], OUTPUT_FORMATS.list),
    lineEnd: csvLineEnd(options),
    // A group-by counts every record: a page would be a sample.
    all: options['all'] === true || groupBy !== undefined,
    ...(groupBy === undefined ? {} : { groupBy }),
    variables: checkedVariables(namedValues('--var', options['var'])),
    ...(filter === undefined ? {} : { filter }),
    ...(pageSize === undefined ? {} : { pageSize }),
    ...(maxItems === undefined ? {} : { maxItems }),
    ...(typeof options['page'] === 'string' ? { page: options['page'] } : {}),
    ...(typeof options['version'] === 'string' ? { version: options['version'] } : {}),
    ...(typeof options['op'] === 'string' ? { operationId: options['op'] } : {}),
    ...(fields === undefined ? {} : { fields }),
    ...(window === undefined ? {} : { window }),
    ...(typeof options['time-field'] === 'string' ? { timeField: options['time-field'] } : {}),
  };
}

/** --var values, refused before anything is sent when one holds a control character. */
function checkedVariables(variables: Record<string, string>): Record<string, string> {
  checkNamedValues(variables);
  return variables;
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** What the server is asked, of all that was given: the list's version, operation, variables, filter and paging. */
export function listTarget(
  list: ListOptions,
): Omit<ListOptions, 'format' | 'lineEnd' | 'all' | 'maxItems' | 'fields' | 'window' | 'timeField' | 'groupBy'> {
  const {
    format: _format,
    lineEnd: _lineEnd,
    all: _all,
    maxItems: _maxItems,
    fields: _fields,
    window: _window,
    timeField: _timeField,
    groupBy: _groupBy,
    ...target
  } = list;
  return target;
}

function checkedFilter(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    JSON.parse(value);
  } catch (error) {
    throw new UsageError(
      `--filter is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      `quote the filter for the shell, e.g. --filter '{"name":{"$contains":"a"}}'`,
    );
  }
  return value;
}

function optionalNumber(option: string, value: unknown): number | undefined {
  return typeof value === 'string' ? positiveNumber(option, value, true) : undefined;
}
