// What a list is asked (`dpx list`'s options, read in commands/list/options.ts), and `--since`/`--until`
// on a list or a count: the window is put on the resource's own time field (named on stderr) and
// sent as a filter. One request tells whether the server takes it: the list's first page, which the
// walk then reads again from the session's freshness window at no cost. A server that refuses it gets
// the plain list, filtered here as it streams, and stderr says so.
import { describeWindow, type TimeWindow } from '../api/hal/time-window.js';
import type { Session } from '../api/session/session.js';
import { windowOnList } from '../api/session/windowed.js';
import type { CommandScope } from './commands/command.js';
import type { CsvLineEnd } from './format/csv.js';
import type { ListFormat } from './format/records.js';

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

export interface WindowedList {
  list: ListOptions;
  /** Set when the server refused the window: the records to keep, tested here. */
  keep?: (record: Record<string, unknown>) => boolean;
}

export async function windowedList(
  ctx: CommandScope,
  session: Session,
  resource: string,
  list: ListOptions,
): Promise<WindowedList> {
  const { window } = list;
  if (window === undefined) return { list };
  const windowed = await windowOnList(session, { resource, ...listTarget(list) }, window, list.timeField);
  ctx.note(
    `window: ${describeWindow(windowed.field, window)}${list.timeField === undefined ? ` (--time-field chooses another field)` : ''}`,
  );
  if (windowed.refused === undefined) return { list: { ...list, filter: windowed.filter } };
  ctx.note(
    `the server refused the window as a filter (${windowed.refused}); ` +
      "every record is read and the window applied here, so the server's counts are not the window's",
  );
  return { list, ...(windowed.keep ? { keep: windowed.keep } : {}) };
}

/**
 * The filter of a count with a window. A count is the server's where it takes the window as a filter;
 * where it refuses it, every record of each unit is read and the window applied here (`keep`): the
 * numbers are then counted, and marked so.
 */
export async function windowedCountFilter(
  ctx: CommandScope,
  session: Session,
  resource: string,
  asked: { filter?: string; version?: string; window?: TimeWindow; timeField?: string },
): Promise<{ filter?: string; keep?: (record: Record<string, unknown>) => boolean }> {
  if (asked.window === undefined) return asked.filter === undefined ? {} : { filter: asked.filter };
  const { list, keep } = await windowedList(ctx, session, resource, {
    format: 'json',
    lineEnd: '\n',
    all: false,
    variables: {},
    window: asked.window,
    ...(asked.filter === undefined ? {} : { filter: asked.filter }),
    ...(asked.version === undefined ? {} : { version: asked.version }),
    ...(asked.timeField === undefined ? {} : { timeField: asked.timeField }),
  });
  return { ...(list.filter === undefined ? {} : { filter: list.filter }), ...(keep === undefined ? {} : { keep }) };
}
