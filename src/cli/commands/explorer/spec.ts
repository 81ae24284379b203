// `dpx`: the interactive explorer; its spec.

import type { CommandSpec } from '../command.js';

const options = {} as const;

/** `dpx` with no command word: the explorer, whose help is dpx's own (the overview of every command). */
export const spec = {
  options,
} satisfies CommandSpec<typeof options>;
