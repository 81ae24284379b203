// `dpx completion`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

const options = {} as const;

export const spec = {
  usage: 'dpx completion bash|zsh|fish',
  summary: 'a shell completion script',
  options,
  help: () => import('./help.js'),
  positionals: [{ words: SHELLS }],
} satisfies CommandSpec<typeof options>;
