// The options several commands share, each spelled once: the global ones every command takes, and those
// a few commands have in common. An option of one command only is spelled in that command's folder
// (commands/<name>/spec.ts).

import type { ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** An option's value as parsed: text, a switch, or the texts of a repeatable option. */
export type OptionValue = string | boolean | string[] | undefined;

type ValueOf<S> = S extends { multiple: true } ? string[] : S extends { type: 'boolean' } ? boolean : string;

/** A command's options as its run function reads them: each name its spec declares, typed by its kind. */
export type OptionValues<O extends OptionSpec> = { [K in keyof O]: ValueOf<O[K]> | undefined };

export const GLOBAL_OPTIONS = {
  profile: { type: 'string' },
  'base-url': { type: 'string' },
  'token-file': { type: 'string' },
  ou: { type: 'string' },
  'ou-header': { type: 'string' },
  vendor: { type: 'string' },
  'read-only': { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  rate: { type: 'string' },
  trail: { type: 'string' },
  demo: { type: 'boolean' },
  offline: { type: 'string' },
  proxy: { type: 'string' },
  'ca-file': { type: 'string' },
  'proxy-ca-file': { type: 'string' },
  'trust-origin': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies OptionSpec;

export const OUTPUT = { output: { type: 'string', short: 'o' } } as const satisfies OptionSpec;
/** `--version vN`: a version of the resource other than the newest (the command's own wins over dpx's `--version`). */
export const VERSION = { version: { type: 'string' } } as const satisfies OptionSpec;
export const FILTER = { filter: { type: 'string' } } as const satisfies OptionSpec;
export const VARIABLES = { var: { type: 'string', multiple: true } } as const satisfies OptionSpec;
export const FIELDS = { fields: { type: 'string' } } as const satisfies OptionSpec;
export const PROFILES = { profiles: { type: 'string' } } as const satisfies OptionSpec;
export const PAGE_SIZE = { 'page-size': { type: 'string' } } as const satisfies OptionSpec;
export const DEPTH = { depth: { type: 'string' } } as const satisfies OptionSpec;
/** `-o csv` with CR LF line ends (LF otherwise). */
export const CSV_LINE_END = { 'csv-crlf': { type: 'boolean' } } as const satisfies OptionSpec;
/** What every command that prints a resource's records takes, in this order: -o, --csv-crlf and --version vN. */
export const RECORDS_OUTPUT = { ...OUTPUT, ...CSV_LINE_END, ...VERSION } as const satisfies OptionSpec;
export const EXIT_CODE = { 'exit-code': { type: 'boolean' } } as const satisfies OptionSpec;
export const TIME_WINDOW = {
  since: { type: 'string' },
  until: { type: 'string' },
  'time-field': { type: 'string' },
} as const satisfies OptionSpec;

/**
 * The environment variable naming the case's page a command answers as: `dpx report` sets it for each
 * section, and every command reads it offline, as it reads the global options.
 */
export const CASE_PAGE_VARIABLE = 'DPX_CASE_PAGE';
