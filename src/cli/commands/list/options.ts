// What `dpx list` was asked, read from its options and checked before anything is sent; shared by the
// one-source list and the merged one.

import { UsageError } from '../../../api/errors.js';
import { checkNamedValues } from '../../../api/security/control-chars.js';
import { readWindow } from '../../../api/hal/time-window.js';
import { namedValues, positiveNumber } from '../../options/values.js';
import { parseFields } from '../../format/fields.js';
import { csvLineEnd } from '../../format/csv.js';
import type { CommandScope } from '../command.js';
import { parseGroupBy } from './groups.js';
import type { ListOptions } from '../../list-query.js';
import { outputFormat } from '../../options/output.js';
import { spec } from './spec.js';

export function readListOptions(ctx: CommandScope, options: Record<string, unknown>): ListOptions {
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
    format: outputFormat(options['output'], spec.formats),
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
