// `dpx replay`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { TABLE_OR_JSON } from '../../options/output.js';
import { EXIT_CODE, OUTPUT, type OptionSpec } from '../../options/shared.js';

const options = { ...OUTPUT, ...EXIT_CODE } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx replay FILE.har',
  summary: "send a case's reads again, each in its recorded unit, and compare",
  options,
  help: () => import('./help.js'),
  formats: TABLE_OR_JSON,
  positionals: ['case-file'],
} satisfies CommandSpec<typeof options>;
