// The words of a command line being completed, read the way parseCommandLine reads a whole one but
// leniently: nothing here fails, since a half-typed line is the normal case.

import { commandOptions, isCommandWord, type CommandName } from '../args.js';

export interface CompletionLine {
  /** The command word; undefined while none is typed (the explorer, or the command is being completed). */
  command?: Exclude<CommandName, 'explorer'>;
  /** Positionals after the command word, before the word being completed. */
  positionals: string[];
  /** Options given before the word being completed, by long name, with their values. */
  options: Map<string, string[]>;
  /** The word being completed (may be empty). */
  current: string;
  /** The long name of the option whose value the current word is (`--ou <TAB>`). */
  valueFor?: string;
}

/** `words` are the words after `dpx`, the last one being the word at the cursor. */
export function readLine(words: readonly string[]): CompletionLine {
  const joined = joinEquals(words);
  const done = joined.slice(0, -1);
  const line: CompletionLine = { positionals: [], options: new Map(), current: joined[joined.length - 1] ?? '' };
  for (let i = 0; i < done.length; i++) {
    const word = done[i]!;
    if (word === '--') {
      line.positionals.push(...done.slice(i + 1));
      break;
    }
    const option = optionName(line.command, word);
    if (option === undefined) {
      if (line.command === undefined && isCommandWord(word)) line.command = word;
      else line.positionals.push(word);
      continue;
    }
    const inline = word.startsWith('--') && word.includes('=') ? word.slice(word.indexOf('=') + 1) : undefined;
    const takesValue = commandOptions(line.command ?? 'explorer')[option]?.type === 'string';
    const values = line.options.get(option) ?? [];
    line.options.set(option, values);
    if (!takesValue || inline !== undefined) {
      if (inline !== undefined) values.push(inline);
      continue;
    }
    if (i + 1 < done.length) values.push(done[++i]!);
    else line.valueFor = option;
  }
  return line;
}

/** The long name of the option a word gives (`--ou`, `--ou=x`, `-o`), or undefined for a positional. */
function optionName(command: CommandName | undefined, word: string): string | undefined {
  if (word.startsWith('--') && word.length > 2) return word.slice(2).split('=')[0];
  if (!/^-[a-zA-Z]$/.test(word)) return undefined;
  const short = word.slice(1);
  const found = Object.entries(commandOptions(command ?? 'explorer')).find(([, spec]) => spec.short === short);
  return found?.[0] ?? short;
}

/** bash splits `--var name=value` at the `=` into three words; they are one. */
function joinEquals(words: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '=' && joined.length > 0) joined[joined.length - 1] += `=${words[++i] ?? ''}`;
    else joined.push(word);
  }
  return joined;
}
