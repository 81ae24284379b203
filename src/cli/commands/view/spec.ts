// `dpx view`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { OUTPUT, type OptionSpec } from '../../options/shared.js';

const options = { ...OUTPUT } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx view save|list|show|run',
  summary: 'saved command lines, to run again or hand on',
  options,
  help: () => import('./help.js'),
} satisfies CommandSpec<typeof options>;
