// `dpx whoami`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { TABLE_OR_JSON } from '../../options/output.js';
import { OUTPUT, type OptionSpec } from '../../options/shared.js';

const options = { ...OUTPUT } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx whoami [-o json]',
  summary: 'what the token says about itself',
  options,
  help: () => import('./help.js'),
  formats: TABLE_OR_JSON,
} satisfies CommandSpec<typeof options>;
