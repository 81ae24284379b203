// `dpx resources`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { OUTPUT, type OptionSpec } from '../../options/shared.js';
import { TABLE_OR_JSON } from '../../options/output.js';

const options = { ...OUTPUT } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx resources',
  summary: 'resources, versions and operation counts',
  options,
  help: () => import('./help.js'),
  formats: TABLE_OR_JSON,
} satisfies CommandSpec<typeof options>;
