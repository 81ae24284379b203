// argv → the command, its positionals, the global flags and the command's own options.
// Global options may stand before or after the command, so both share one parseArgs pass per command.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../api/hal/did-you-mean.js';
import { UsageError } from '../api/errors.js';
import type { GlobalFlags } from '../config/settings.js';

export type CommandName =
  | 'explorer'
  | 'resources'
  | 'operations'
  | 'list'
  | 'count'
  | 'call'
  | 'xray'
  | 'replay'
  | 'case'
  | 'report'
  | 'diff'
  | 'whoami'
  | 'profile'
  | 'demo'
  | 'completion'
  | 'view'
  | 'help';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

const GLOBAL_OPTIONS = {
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
  'trust-origin': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies OptionSpec;

/** Global options that take a value: while looking for the command word, their value is skipped. */
const GLOBAL_VALUE_OPTIONS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, spec]) => spec.type === 'string')
    .map(([name]) => `--${name}`),
);

const OUTPUT = { output: { type: 'string', short: 'o' } } as const satisfies OptionSpec;
/** `-o csv` with CR LF line ends (LF otherwise). */
const CSV = { 'csv-crlf': { type: 'boolean' } } as const satisfies OptionSpec;
const TIME_WINDOW = {
  since: { type: 'string' },
  until: { type: 'string' },
  'time-field': { type: 'string' },
} as const satisfies OptionSpec;

const COMMAND_OPTIONS: Record<CommandName, OptionSpec> = {
  explorer: {},
  help: {},
  resources: { ...OUTPUT },
  operations: { ...OUTPUT, version: { type: 'string' } },
  list: {
    ...OUTPUT,
    ...CSV,
    version: { type: 'string' },
    op: { type: 'string' },
    filter: { type: 'string' },
    'page-size': { type: 'string' },
    page: { type: 'string' },
    all: { type: 'boolean' },
    'max-items': { type: 'string' },
    var: { type: 'string', multiple: true },
    fields: { type: 'string' },
    profiles: { type: 'string' },
    ...TIME_WINDOW,
    'group-by': { type: 'string' },
  },
  count: {
    ...OUTPUT,
    ...CSV,
    version: { type: 'string' },
    filter: { type: 'string' },
    by: { type: 'string' },
    values: { type: 'string' },
    profiles: { type: 'string' },
    ...TIME_WINDOW,
    depth: { type: 'string' },
    sort: { type: 'string' },
    nonzero: { type: 'boolean' },
    plan: { type: 'string' },
    explain: { type: 'boolean' },
  },
  call: {
    ...OUTPUT,
    ...CSV,
    version: { type: 'string' },
    var: { type: 'string', multiple: true },
    query: { type: 'string', multiple: true },
    body: { type: 'string' },
    edit: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    'confirm-id': { type: 'string' },
    'send-invalid': { type: 'boolean' },
    include: { type: 'boolean', short: 'i' },
    wait: { type: 'boolean' },
    fields: { type: 'string' },
  },
  xray: { ...OUTPUT, depth: { type: 'string' }, 'no-inbound': { type: 'boolean' }, verbose: { type: 'boolean' } },
  replay: { ...OUTPUT, 'exit-code': { type: 'boolean' } },
  case: { ...OUTPUT },
  // `-o FILE`: the report's file, whose extension (.html, .md) says its format.
  report: { ...OUTPUT },
  diff: { ...OUTPUT, versions: { type: 'string' }, profiles: { type: 'string' }, 'exit-code': { type: 'boolean' } },
  whoami: { ...OUTPUT },
  profile: { 'token-env': { type: 'string' }, 'token-command': { type: 'string' }, 'page-size': { type: 'string' } },
  demo: {
    port: { type: 'string' },
    scale: { type: 'string' },
    seed: { type: 'string' },
    'rate-limit': { type: 'string' },
    tenants: { type: 'string' },
    'hidden-tenants': { type: 'string' },
    frozen: { type: 'boolean' },
    'link-header-paging': { type: 'string' },
  },
  completion: {},
  view: { ...OUTPUT },
};

/** The words that name a command (the explorer has none). */
export const COMMAND_WORDS = Object.keys(COMMAND_OPTIONS).filter(
  (name): name is Exclude<CommandName, 'explorer'> => name !== 'explorer',
);
const COMMANDS = new Set<string>(COMMAND_WORDS);

export function isCommandWord(word: string): word is Exclude<CommandName, 'explorer'> {
  return COMMANDS.has(word);
}

/** Every option a command takes by long name, the global ones included; the command's own win a clash (`--version`). */
export function commandOptions(command: CommandName): OptionSpec {
  return { ...GLOBAL_OPTIONS, ...COMMAND_OPTIONS[command] };
}

export interface ParsedArgs {
  command: CommandName;
  /** Positionals after the command word. */
  positionals: string[];
  flags: GlobalFlags;
  help: boolean;
  /** `--version` with no value: print dpx's own version. */
  printVersion: boolean;
  options: Record<string, string | boolean | string[] | undefined>;
}

/** Options whose value may start with `-` (`--sort -failed`: descending), joined to it for parseArgs. */
const DASHED_VALUES = new Set(['--sort']);

function joinDashedValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (DASHED_VALUES.has(arg) && next !== undefined && /^-[^-]/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
    if (arg === '--') return [...joined, ...argv.slice(i + 1)];
  }
  return joined;
}

export function parseCommandLine(commandLine: string[]): ParsedArgs {
  refuseTokenArgument(commandLine);
  const argv = joinDashedValues(commandLine);
  const word = findCommandWord(argv);
  if (word !== undefined && !isCommandWord(word)) {
    // `dpx --profle eu list`: the misspelt option, not the word after it, is what went wrong.
    const misread = optionProblem(argv.slice(0, argv.indexOf(word)), 'explorer');
    if (misread) throw misread;
    throw new UsageError(
      `unknown command '${word}'`,
      didYouMean(word, COMMAND_WORDS, 'run `dpx --help` for the list of commands'),
    );
  }
  const command = (word ?? 'explorer') as CommandName;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: commandOptions(command), allowPositionals: true, strict: true });
  } catch {
    throw (
      optionProblem(argv, command) ??
      new UsageError(`${spoken(command)} could not read its options`, `\`${spoken(command)} --help\` lists them`)
    );
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const positionals = word === undefined ? parsed.positionals : parsed.positionals.slice(1);
  if (values['read-only'] === true && values['allow-writes'] === true) {
    throw new UsageError('--read-only and --allow-writes contradict each other', 'give one of them');
  }
  const ou = stringValue(values['ou']);
  const flags: GlobalFlags = {
    profile: stringValue(values['profile']),
    baseUrl: stringValue(values['base-url']),
    tokenFile: stringValue(values['token-file']),
    // `dpx diff … --ou A,B` compares two units: that pair is the command's, not the unit every request goes to.
    ou: command === 'diff' && ou?.includes(',') ? undefined : ou,
    ouHeader: stringValue(values['ou-header']),
    vendor: stringValue(values['vendor']),
    readOnly: values['read-only'] === true ? true : undefined,
    allowWrites: values['allow-writes'] === true ? true : undefined,
    timeout: values['timeout'] === undefined ? undefined : positiveNumber('--timeout', stringValue(values['timeout'])),
    concurrency:
      values['concurrency'] === undefined
        ? undefined
        : positiveNumber('--concurrency', stringValue(values['concurrency']), true),
    rate: values['rate'] === undefined ? undefined : positiveNumber('--rate', stringValue(values['rate'])),
    trail: stringValue(values['trail']),
    demo: values['demo'] === true ? true : undefined,
    offline: stringValue(values['offline']),
    proxy: stringValue(values['proxy']),
    caFile: stringValue(values['ca-file']),
    trustOrigin: stringValue(values['trust-origin']),
  };
  return {
    command,
    positionals,
    flags: dropUndefined(flags),
    help: values['help'] === true || command === 'help',
    printVersion: values['version'] === true,
    options: values,
  };
}

/**
 * What node's parser refuses, said in dpx's words (its own text names "positional arguments" and
 * suggests `--`): the option the command does not know, with the closest ones, or the option missing
 * its value or given one it does not take. The argv read leniently, token by token, finds which.
 */
function optionProblem(argv: string[], command: CommandName): UsageError | undefined {
  const options = commandOptions(command);
  const where = spoken(command);
  const help = `\`${where} --help\` lists its options`;
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (spec === undefined) {
      const names = Object.keys(options).map((name) => `--${name}`);
      const typed = token.rawName.startsWith('--') ? token.rawName : `--${token.name}`;
      return new UsageError(`unknown option '${token.rawName}' for ${where}`, didYouMean(typed, names, help));
    }
    if (
      spec.type === 'string' &&
      (token.value === undefined || (token.inlineValue === false && token.value.startsWith('-')))
    ) {
      return new UsageError(`${token.rawName} needs a value`, `e.g. ${token.rawName}=VALUE; ${help}`);
    }
    if (spec.type === 'boolean' && token.value !== undefined) {
      return new UsageError(
        `${token.rawName} takes no value, not '${token.value}'`,
        `give ${token.rawName} alone; ${help}`,
      );
    }
  }
  return undefined;
}

/** How a command is named to the user: `dpx list`, or `dpx` for the explorer. */
function spoken(command: CommandName): string {
  return command === 'explorer' ? 'dpx' : `dpx ${command}`;
}

function refuseTokenArgument(argv: string[]): void {
  if (argv.some((arg) => arg === '--token' || arg.startsWith('--token='))) {
    throw new UsageError(
      'a token is never accepted as a command-line argument (it would show in the process list and shell history)',
      'export DPX_TOKEN, or put the token in a file readable only by you and pass --token-file FILE',
    );
  }
}

function findCommandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return argv[i + 1];
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    return arg;
  }
  return undefined;
}

function stringValue(value: string | boolean | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A positive number from an option's text; `integer` also refuses fractions. */
export function positiveNumber(option: string, text: string | undefined, integer = false): number {
  const value = Number(text);
  if (
    text === undefined ||
    text.trim() === '' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  ) {
    throw new UsageError(
      `${option} must be a positive ${integer ? 'whole ' : ''}number, not '${text ?? ''}'`,
      `for example ${option} 10`,
    );
  }
  return value;
}

/** Like positiveNumber, but 0 is allowed (ports: 0 picks a free one). */
export function nonNegativeInteger(option: string, text: string | undefined): number {
  if (text === '0') return 0;
  return positiveNumber(option, text, true);
}

/** `NAME=VALUE` options (`--var`, `--query`) into a record; the value may itself contain `=`. */
export function namedValues(option: string, value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of Array.isArray(value) ? (value as string[]) : []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${option} takes NAME=VALUE, not '${pair}'`, `e.g. ${option} id=1234`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}
