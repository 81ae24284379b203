// `dpx operations`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { OUTPUT, VERSION, type OptionSpec } from '../../options/shared.js';
import { TABLE_OR_JSON } from '../../options/output.js';

const options = { ...OUTPUT, ...VERSION } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx operations <resource> [<op>]',
  summary: "a resource's operations; with an operation id, what it needs",
  options,
  help: () => import('./help.js'),
  formats: TABLE_OR_JSON,
  positionals: ['resource'],
  describesOperation: true,
} satisfies CommandSpec<typeof options>;
