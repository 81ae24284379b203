// `dpx profile`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { PAGE_SIZE, type OptionSpec } from '../../options/shared.js';

export const PROFILE_ACTIONS = ['add', 'list', 'use', 'remove'] as const;

const options = {
  'token-env': { type: 'string' },
  'token-command': { type: 'string' },
  ...PAGE_SIZE,
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx profile add|list|use|remove',
  summary: 'saved control planes',
  options,
  help: () => import('./help.js'),
  positionals: [{ words: PROFILE_ACTIONS }, { profileAfter: ['use', 'remove'] }],
} satisfies CommandSpec<typeof options>;
