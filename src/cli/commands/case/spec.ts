// `dpx case`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { TABLE_OR_JSON } from '../../options/output.js';
import { OUTPUT, type OptionSpec } from '../../options/shared.js';

const options = { ...OUTPUT } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx case FILE.har',
  summary: 'what a case holds: each command, when, where, requests, records',
  options,
  help: () => import('./help.js'),
  formats: TABLE_OR_JSON,
  positionals: ['case-file'],
} satisfies CommandSpec<typeof options>;
