// `dpx xray`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { DEPTH, OUTPUT, type OptionSpec } from '../../options/shared.js';

const options = {
  ...OUTPUT,
  ...DEPTH,
  'no-inbound': { type: 'boolean' },
  verbose: { type: 'boolean' },
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx xray <resource> <id>',
  summary: 'everything connected to a record, both ways, and its history',
  options,
  help: () => import('./help.js'),
  formats: ['tree', 'json', 'dot'] as const,
  positionals: ['resource'],
  asks: ['depth', 'no-inbound'],
} satisfies CommandSpec<typeof options>;
