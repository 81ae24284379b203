// `dpx report`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { OUTPUT, type OptionSpec } from '../../options/shared.js';

// `-o FILE`: the report's file, whose extension (.html, .md) says its format.
const options = { ...OUTPUT } as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx report FILE.har -o R.html',
  summary: 'a case as one HTML (or Markdown) file a ticket can carry',
  options,
  help: () => import('./help.js'),
  positionals: ['case-file'],
} satisfies CommandSpec<typeof options>;
