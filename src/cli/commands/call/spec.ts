// `dpx call`: its spec — options, help and completion hints.

import type { CommandSpec } from '../command.js';
import { LIST_FORMATS, type ListFormat } from '../../format/records.js';
import { FIELDS, RECORDS_OUTPUT, VARIABLES, type OptionSpec } from '../../options/shared.js';

const options = {
  ...RECORDS_OUTPUT,
  ...VARIABLES,
  query: { type: 'string', multiple: true },
  body: { type: 'string' },
  edit: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  'confirm-id': { type: 'string' },
  'send-invalid': { type: 'boolean' },
  include: { type: 'boolean', short: 'i' },
  wait: { type: 'boolean' },
  ...FIELDS,
} as const satisfies OptionSpec;

export const spec = {
  usage: 'dpx call <resource> <operation>',
  summary: 'send any operation from the index',
  options,
  help: () => import('./help.js'),
  // json first, the default: the body as sent.
  formats: ['json', ...LIST_FORMATS.filter((format) => format !== 'json')] as readonly ListFormat[],
  positionals: ['resource', 'operation'],
  variables: 'operation',
  asks: ['version', 'var', 'query'],
  describesOperation: true,
} satisfies CommandSpec<typeof options>;
