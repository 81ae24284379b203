// `dpx count`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { MATRIX_FORMATS } from '../../format/matrix.js';
import { DEPTH, FILTER, PROFILES, RECORDS_OUTPUT, TIME_WINDOW, type OptionSpec } from '../../options/shared.js';

const options = {
  ...RECORDS_OUTPUT,
  ...FILTER,
  by: { type: 'string' },
  values: { type: 'string' },
  ...PROFILES,
  ...TIME_WINDOW,
  ...DEPTH,
  sort: { type: 'string' },
  nonzero: { type: 'boolean' },
  plan: { type: 'string' },
  explain: { type: 'boolean' },
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx count <resource>',
  summary: 'count records per unit and value (--plan, --explain: the cost)',
  options,
  help: () => import('./help.js'),
  formats: MATRIX_FORMATS,
  positionals: ['resource'],
  units: 'rows',
  dashedValues: ['sort'],
  asks: ['version', 'filter', 'by', 'values', 'depth', 'profiles'],
} satisfies CommandSpec<typeof options>;
