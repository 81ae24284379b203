// argv → the command, its positionals, the global flags and the command's own options.
// Global options may stand before or after the command, so both share one parseArgs pass per command.

import { parseArgs } from 'node:util';
import { didYouMean } from '../api/hal/did-you-mean.js';
import { UsageError } from '../api/errors.js';
import type { UnitChoice } from '../api/fanout/scopes.js';
import type { GlobalFlags } from '../config/settings.js';
import type { ParsedLine } from './commands/command.js';
import { COMMAND_WORDS, COMMANDS, type CommandName } from './commands/registry.js';
import { GLOBAL_OPTIONS, type OptionSpec, type OptionValue } from './options/shared.js';
import { positiveNumber } from './options/values.js';

export { COMMAND_WORDS, type CommandName };

/** Global options that take a value: while looking for the command word, their value is skipped. */
const GLOBAL_VALUE_OPTIONS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, spec]) => spec.type === 'string')
    .map(([name]) => `--${name}`),
);

const WORDS = new Set<string>(COMMAND_WORDS);

export function isCommandWord(word: string): word is Exclude<CommandName, 'explorer'> {
  return WORDS.has(word);
}

/** Every option a command takes by long name, the global ones included; the command's own win a clash (`--version`). */
export function commandOptions(command: CommandName): OptionSpec {
  return { ...GLOBAL_OPTIONS, ...COMMANDS[command].options };
}

export interface ParsedArgs extends ParsedLine {
  command: CommandName;
  /** Positionals after the command word. */
  positionals: string[];
  flags: GlobalFlags;
  help: boolean;
  /** `--version` with no value: print dpx's own version. */
  printVersion: boolean;
  options: Record<string, OptionValue>;
}

/** Options whose value may start with `-` (`--sort -failed`: descending), joined to it for parseArgs. */
const DASHED_VALUES = new Set(
  Object.values(COMMANDS).flatMap((command) => (command.dashedValues ?? []).map((name) => `--${name}`)),
);

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
  let parsed: ReturnType<typeof parseArgs<{ options: OptionSpec; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: commandOptions(command), allowPositionals: true, strict: true });
  } catch {
    throw (
      optionProblem(argv, command) ??
      new UsageError(`${spoken(command)} could not read its options`, `\`${spoken(command)} --help\` lists them`)
    );
  }
  const values = parsed.values as Record<string, OptionValue>;
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
    ou: unitsOf(command) === 'pair' && ou?.includes(',') ? undefined : ou,
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
    proxyCaFile: stringValue(values['proxy-ca-file']),
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

/**
 * `--ou all` or `--ou ID,ID` choose the units of a run over several; for `dpx count` one id is a choice
 * of one unit too. The choice is taken out of the flags, so that no session sends it as its OU header.
 */
export function takeUnitChoice(command: CommandName, flags: GlobalFlags): { flags: GlobalFlags; units: UnitChoice } {
  const text = flags.ou?.trim();
  const several = text !== undefined && (text.toLowerCase() === 'all' || text.includes(','));
  const units = unitsOf(command);
  if (text === undefined || (!several && units !== 'rows')) return { flags, units: undefined };
  if (units !== 'rows' && units !== 'merge') {
    const asking = COMMAND_WORDS.filter((word) => unitsOf(word) === 'merge' || unitsOf(word) === 'rows');
    throw new UsageError(
      `--ou ${text} names several units; only ${asking.map((word) => `dpx ${word}`).join(' and ')} ask several at once`,
      'give one unit id to act in',
    );
  }
  const { ou: _chosen, ...rest } = flags;
  if (text.toLowerCase() === 'all') return { flags: rest, units: 'all' };
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) throw new UsageError('--ou names no unit', 'give unit ids separated by commas, or all');
  if (ids.some((id) => id.toLowerCase() === 'all'))
    throw new UsageError('--ou all stands alone: it already names every unit', 'give --ou all, or a list of unit ids');
  return { flags: rest, units: ids };
}

/** What `--ou` with several units means to a command (its spec's `units`). */
export function unitsOf(command: CommandName): 'merge' | 'rows' | 'pair' | undefined {
  return COMMANDS[command].units;
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
