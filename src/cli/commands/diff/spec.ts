// `dpx diff`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { TABLE_OR_JSON } from '../../options/output.js';
import { EXIT_CODE, OUTPUT, PROFILES, type OptionSpec } from '../../options/shared.js';

const options = { ...OUTPUT, versions: { type: 'string' }, ...PROFILES, ...EXIT_CODE } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx diff <resource> <id> …',
  summary: 'one record in two versions, units or profiles, side by side',
  options,
  help: () => import('./help.js'),
  formats: TABLE_OR_JSON,
  positionals: ['resource'],
  units: 'pair',
  asks: ['versions', 'profiles'],
} satisfies CommandSpec<typeof options>;
