// `dpx profile`: its spec — options, help and completion hints.

import { PROFILE_KEYS } from '../../../config/profiles.js';
import type { CommandSpec } from '../command.js';
import { PAGE_SIZE, type OptionSpec } from '../../options/shared.js';

const PROFILE_ACTIONS = ['add', 'list', 'use', 'remove', 'set', 'show'] as const;

const options = {
  'token-env': { type: 'string' },
  'token-command': { type: 'string' },
  ...PAGE_SIZE,
  'schema-dir': { type: 'string' },
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx profile <action>',
  summary: 'saved control planes: add, list, use, remove, set, show',
  options,
  help: () => import('./help.js'),
  positionals: [
    { words: PROFILE_ACTIONS },
    { profileAfter: ['use', 'remove', 'set', 'show'] },
    { words: PROFILE_KEYS, after: ['set'] },
  ],
} satisfies CommandSpec<typeof options>;
