// `dpx demo`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import type { OptionSpec } from '../../options/shared.js';

const options = {
  port: { type: 'string' },
  scale: { type: 'string' },
  seed: { type: 'string' },
  'rate-limit': { type: 'string' },
  tenants: { type: 'string' },
  'hidden-tenants': { type: 'string' },
  frozen: { type: 'boolean' },
  'link-header-paging': { type: 'string' },
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx demo',
  summary: 'run the demo control plane alone',
  options,
  help: () => import('./help.js'),
} satisfies CommandSpec<typeof options>;
