// Command lines edited as words, by the options' own spec: a saved one with the run's options in place of
// its own (`dpx view run`), one less some options (`dpx report` asks a recorded command again without
// its --trail). Handed to those commands as part of their CommandLine, with the parser.

import { commandOptions, isCommandWord, parseCommandLine } from './args.js';
import type { OptionSpec } from './options/shared.js';

/**
 * The saved command line with the run's options in place of the saved ones of the same name. The run's
 * options come parsed (`options` of `dpx view run …`), so each is written back in its long form.
 */
export function withOverrides(saved: string[], options: Record<string, unknown>): string[] {
  const word = saved.find((arg) => !arg.startsWith('-'));
  const spec = commandOptions(word !== undefined && isCommandWord(word) ? word : 'explorer');
  const given = Object.entries(options).filter(
    ([name, value]) => value !== undefined && value !== false && name !== 'help',
  );
  const replaced = new Set(given.map(([name]) => name));
  return [
    ...without(saved, replaced, spec),
    ...given.flatMap(([name, value]) =>
      value === true
        ? [`--${name}`]
        : (Array.isArray(value) ? value : [value]).flatMap((one) => [`--${name}`, String(one)]),
    ),
  ];
}

/** A command line less the options named in `names` (a report asks a recorded command again without its --trail). */
export function withoutOptions(argv: string[], names: Set<string>): string[] {
  return without(argv, names, commandOptions(parseCommandLine(argv).command));
}

/** `argv` less the options named in `names` (and their values), up to a `--`. */
function without(argv: string[], names: Set<string>, spec: OptionSpec): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      kept.push(...argv.slice(i));
      break;
    }
    const name = longName(arg, spec);
    if (name === undefined || !names.has(name)) {
      kept.push(arg);
      continue;
    }
    if (spec[name]?.type === 'string' && !arg.includes('=')) i++;
  }
  return kept;
}

/** The long name an option word stands for (`-o` → output, `--ou=x` → ou), or undefined for a positional. */
function longName(arg: string, spec: OptionSpec): string | undefined {
  if (arg.startsWith('--')) return arg.slice(2).split('=')[0];
  if (arg.startsWith('-') && arg.length === 2)
    return Object.entries(spec).find(([, option]) => option.short === arg[1])?.[0];
  return undefined;
}
