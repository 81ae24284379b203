// `dpx list`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { LIST_FORMATS } from '../../format/records.js';
import {
  FIELDS,
  FILTER,
  PAGE_SIZE,
  PROFILES,
  RECORDS_OUTPUT,
  TIME_WINDOW,
  VARIABLES,
  type OptionSpec,
} from '../../options/shared.js';

const options = {
  ...RECORDS_OUTPUT,
  op: { type: 'string' },
  ...FILTER,
  ...PAGE_SIZE,
  page: { type: 'string' },
  all: { type: 'boolean' },
  'max-items': { type: 'string' },
  ...VARIABLES,
  ...FIELDS,
  ...PROFILES,
  ...TIME_WINDOW,
  'group-by': { type: 'string' },
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx list <resource>',
  summary: 'list records (one page, or --all)',
  options,
  help: () => import('./help.js'),
  formats: LIST_FORMATS,
  positionals: ['resource'],
  variables: 'list',
  units: 'merge',
  asks: ['version', 'op', 'filter', 'page-size', 'page', 'var', 'profiles'],
} satisfies CommandSpec<typeof options>;
