// `dpx __complete <words…>`: what the shell scripts call on Tab. The words are those after `dpx`, the
// last one the word at the cursor (empty for a new word). It prints one candidate a line, a tab and a
// description after it where there is one (zsh and fish show them, bash only the candidate). It never
// prints an error and always exits 0: whatever it cannot learn, it leaves out.

import { readdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import {
  findResource,
  findVersion,
  type Catalog,
  type Operation,
  type Resource,
  type ResourceVersion,
} from '../../api/hal/catalog.js';
import { listOperations } from '../../api/hal/operation.js';
import type { OrgUnit } from '../../api/fanout/units.js';
import { UnitDirectory } from '../../api/fanout/unit-names.js';
import { defaultConfigPath } from '../../config/profiles.js';
import type { GlobalFlags } from '../../config/settings.js';
import { COMMAND_WORDS, commandOptions, unitsOf } from '../args.js';
import type { PositionalHint } from '../commands/command.js';
import { COMMANDS } from '../commands/registry.js';
import { tableCell } from '../format/cells.js';
import type { CliIO } from '../io.js';
import { readLine, type CompletionLine } from './line.js';
import { CompletionSources } from './sources.js';

interface Candidate {
  value: string;
  description?: string;
  /** Named exactly by the word typed (a unit's name or path): offered whatever the word's first letters. */
  named?: boolean;
}

/** Past this, the prompt is given back with no candidates, whatever is still under way. */
const DEADLINE_MS = 4_000;

export async function completeCommand(io: CliIO, words: string[]): Promise<number> {
  const line = readLine(words);
  const sources = new CompletionSources(flagsOf(line), io.env, defaultConfigPath(io.env));
  const settled = new AbortController();
  try {
    const deadline = delay(DEADLINE_MS, [], { signal: settled.signal });
    const found = matching(
      await Promise.race([candidates(line, sources), deadline]),
      line.current,
      line.valueFor === 'ou',
    );
    io.stdout.write(
      found.map(({ value, description }) => (description ? `${value}\t${description}\n` : `${value}\n`)).join(''),
    );
  } catch {
    // Nothing goes into the prompt: no candidates is the answer to anything unexpected.
  } finally {
    settled.abort();
    await sources.close();
  }
  return 0;
}

async function candidates(line: CompletionLine, sources: CompletionSources): Promise<Candidate[]> {
  if (line.valueFor !== undefined) return optionValues(line, line.valueFor, sources);
  // `--name=value` is left alone: bash splits it at the `=`, zsh and fish do not. `--name value` completes.
  if (line.current.startsWith('-')) return line.current.includes('=') ? [] : optionNames(line);
  return positionalValues(line, sources);
}

/**
 * The candidates that start with the word typed; with `byDescription`, when none does, those whose
 * description holds it (`--ou acme` finds the unit by its name).
 */
function matching(all: Candidate[], current: string, byDescription: boolean): Candidate[] {
  // A candidate is a line of its own: a server's name with a control character in it would break it.
  const shown = all
    .filter((candidate) => tableCell(candidate.value) === candidate.value)
    .map((candidate) =>
      candidate.description === undefined ? candidate : { ...candidate, description: tableCell(candidate.description) },
    );
  const named = shown.filter((candidate) => candidate.named);
  if (named.length > 0) return named;
  const byValue = shown.filter((candidate) => candidate.value.startsWith(current));
  if (byValue.length > 0 || !byDescription) return byValue;
  const needle = current.toLowerCase();
  return shown.filter((candidate) => candidate.description?.toLowerCase().includes(needle));
}

function optionNames(line: CompletionLine): Candidate[] {
  return Object.entries(commandOptions(line.command ?? 'explorer'))
    .filter(([name, spec]) => spec.multiple === true || !line.options.has(name))
    .map(([name]) => ({ value: `--${name}` }));
}

async function optionValues(line: CompletionLine, option: string, sources: CompletionSources): Promise<Candidate[]> {
  switch (option) {
    case 'profile':
      return (await sources.profiles()).map(({ name, profile }) => ({ value: name, description: profile.baseUrl }));
    case 'ou': {
      const units = unitCandidates((await sources.units()) ?? [], line.current);
      const several = unitsOf(line.command ?? 'explorer');
      return several === 'merge' || several === 'rows'
        ? [{ value: 'all', description: 'every unit' }, ...units]
        : units;
    }
    case 'trail':
    case 'offline':
      return harFiles(line.current);
    case 'profiles':
      return [
        { value: 'all', description: 'every profile' },
        ...(await sources.profiles()).map(({ name, profile }) => ({ value: name, description: profile.baseUrl })),
      ];
    case 'output':
      return (COMMANDS[line.command ?? 'explorer'].formats ?? []).map((format) => ({ value: format }));
    case 'version': {
      const resource = await resourceOf(line, sources);
      return (resource?.versions ?? []).map((version) => ({
        value: version.version,
        ...(version.version === resource?.defaultVersion ? { description: 'the default (newest)' } : {}),
      }));
    }
    case 'op': {
      const version = await versionOf(line, sources);
      return (version ? listOperations(version) : []).map(operationCandidate);
    }
    case 'var': {
      // After `name=` comes a value dpx cannot know.
      if (line.current.includes('=')) return [];
      const given = new Set((line.options.get('var') ?? []).map((pair) => pair.split('=')[0]));
      return (await variableNames(line, sources))
        .filter((name) => !given.has(name))
        .map((name) => ({ value: `${name}=` }));
    }
    default:
      return [];
  }
}

async function positionalValues(line: CompletionLine, sources: CompletionSources): Promise<Candidate[]> {
  const position = line.positionals.length;
  // After a word that is no command, nothing fits.
  if (line.command === undefined)
    return position === 0
      ? COMMAND_WORDS.flatMap((word) => {
          const { summary } = COMMANDS[word];
          return summary === undefined ? [] : [{ value: word, description: summary }];
        })
      : [];
  const hint = COMMANDS[line.command].positionals?.[position];
  return hint === undefined ? [] : hinted(hint, line, sources);
}

/** The candidates a command's spec names for the positional at the cursor. */
async function hinted(hint: PositionalHint, line: CompletionLine, sources: CompletionSources): Promise<Candidate[]> {
  if (hint === 'resource') return resourceCandidates(await sources.catalog());
  if (hint === 'operation') return ((await versionOf(line, sources))?.operations ?? []).map(operationCandidate);
  if (hint === 'case-file') return harFiles(line.current);
  const [first] = line.positionals;
  if ('words' in hint)
    return hint.after === undefined || (first !== undefined && hint.after.includes(first))
      ? hint.words.map((word) => ({ value: word }))
      : [];
  if (first === undefined || !hint.profileAfter.includes(first)) return [];
  return (await sources.profiles()).map(({ name, profile }) => ({ value: name, description: profile.baseUrl }));
}

/** Case files (`.har`) and folders (ending in `/`, to go on into) where the word typed points. */
async function harFiles(current: string): Promise<Candidate[]> {
  const slash = current.lastIndexOf('/');
  const folder = slash < 0 ? '' : current.slice(0, slash + 1);
  const hidden = current.slice(slash + 1).startsWith('.');
  const entries = await readdir(folder === '' ? '.' : folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => hidden || !entry.name.startsWith('.'))
    .flatMap((entry) => {
      if (entry.isDirectory()) return [{ value: `${folder}${entry.name}/` }];
      return /\.har$/i.test(entry.name) ? [{ value: `${folder}${entry.name}` }] : [];
    })
    .sort((a, b) => a.value.localeCompare(b.value));
}

function resourceCandidates(catalog: Catalog | undefined): Candidate[] {
  return (catalog?.resources ?? []).map((resource) => ({
    value: resource.name,
    description: resource.versions.map((version) => version.version).join(' '),
  }));
}

function operationCandidate(operation: Operation): Candidate {
  return { value: operation.id, description: `${operation.method} ${operation.href}` };
}

/**
 * Unit ids, each described by its place in the tree (`Global › Acme Corp › EMEA`); those the word typed
 * names exactly (a name, or a path such as `Acme Corp/EMEA`) are marked, so that a name several units
 * share offers each of them with its path, as `--ou` lists them when it is ambiguous.
 */
function unitCandidates(units: OrgUnit[], typed: string): Candidate[] {
  const directory = new UnitDirectory(units);
  const named = new Set(typed.trim() === '' ? [] : directory.find(typed).map((unit) => unit.id));
  return units.map((unit) => ({
    value: unit.id,
    description: directory.path(unit.id).join(' › '),
    ...(named.has(unit.id) ? { named: true } : {}),
  }));
}

async function resourceOf(line: CompletionLine, sources: CompletionSources): Promise<Resource | undefined> {
  const name = line.positionals[0];
  if (name === undefined) return undefined;
  const catalog = await sources.catalog();
  return catalog && findResource(catalog, name);
}

async function versionOf(line: CompletionLine, sources: CompletionSources): Promise<ResourceVersion | undefined> {
  const resource = await resourceOf(line, sources);
  return resource && findVersion(resource, line.options.get('version')?.[0]);
}

/** For list, the path variables of its lists under a parent (of --op's, when given); for call, the operation's. */
async function variableNames(line: CompletionLine, sources: CompletionSources): Promise<string[]> {
  const version = await versionOf(line, sources);
  if (!version) return [];
  const whose = line.command === undefined ? undefined : COMMANDS[line.command].variables;
  if (whose === 'operation') {
    const operation = version.operations.find((candidate) => candidate.id === line.positionals[1]);
    return operation ? [...operation.pathVariables, ...operation.queryVariables] : [];
  }
  if (whose !== 'list') return [];
  const chosen = line.options.get('op')?.[0];
  const lists =
    chosen === undefined ? listOperations(version) : version.operations.filter((operation) => operation.id === chosen);
  return [...new Set(lists.flatMap((operation) => operation.pathVariables))];
}

/** The global options on the line that choose the control plane. */
function flagsOf(line: CompletionLine): GlobalFlags {
  const value = (name: string): string | undefined => line.options.get(name)?.[0];
  const flags: GlobalFlags = {};
  const profile = value('profile');
  const baseUrl = value('base-url');
  const tokenFile = value('token-file');
  const ouHeader = value('ou-header');
  const vendor = value('vendor');
  if (profile !== undefined) flags.profile = profile;
  if (baseUrl !== undefined) flags.baseUrl = baseUrl;
  if (tokenFile !== undefined) flags.tokenFile = tokenFile;
  if (ouHeader !== undefined) flags.ouHeader = ouHeader;
  if (vendor !== undefined) flags.vendor = vendor;
  if (line.options.has('demo')) flags.demo = true;
  return flags;
}
