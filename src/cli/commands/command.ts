// What a command is: its spec (options, help, completion hints) and its run function, loaded when the
// command runs. The registry (registry.ts) lists them; the parser, the help, completion and the dispatch
// in run.ts all read it.

import type { HarTrail } from '../../api/case/trail.js';
import type { Source, UnitChoice } from '../../api/fanout/scopes.js';
import type { Session } from '../../api/session/session.js';
import type { GlobalFlags, Settings } from '../../config/settings.js';
import type { CliIO } from '../io.js';
import type { OptionSpec, OptionValue, OptionValues } from '../options/shared.js';

/** What completion offers for a positional: resources and operation ids from the index, case files, or fixed words. */
export type PositionalHint =
  | 'resource'
  | 'operation'
  | 'case-file'
  /** Fixed words; with `after`, only after one of those first words (`dpx profile set <name> <key>`). */
  | { words: readonly string[]; after?: readonly string[] }
  /** A saved profile's name, after one of these words (`dpx profile use <name>`). */
  | { profileAfter: readonly string[] };

export interface CommandSpec<O extends OptionSpec = OptionSpec> {
  /** `dpx list <resource>` and a few words: `dpx --help`'s overview and what completion shows beside the word. */
  usage?: string;
  summary?: string;
  /** The command's own options (the global ones come with every command). */
  options: O;
  /** Its help text, loaded only when asked for; `global` is the global options' text it ends with. Without it: dpx's own. */
  help?: () => Promise<{ help: (global: string) => string }>;
  /** The formats of `--output`, its default first. */
  formats?: readonly string[];
  /** What completion offers for each positional, in order. */
  positionals?: readonly PositionalHint[];
  /** Whose variables `--var` completes: the resource's lists under a parent, or the operation's. */
  variables?: 'list' | 'operation';
  /**
   * What `--ou` with several units (`all`, `A,B`) means to it: units whose records are merged (`merge`), a
   * row per unit (`rows`, where one unit is a choice of rows too), or a pair to compare (`pair`). Without it,
   * `--ou` names one unit to act in.
   */
  units?: 'merge' | 'rows' | 'pair';
  /** Options whose value may start with `-` (`--sort -failed`: descending). */
  dashedValues?: readonly string[];
  /** Options that change what is asked, not how it is shown: offline, which recorded command answers. */
  asks?: readonly (keyof O & string)[];
  /** `dpx <command> <resource> <operation> --help` describes that operation from the index. */
  describesOperation?: boolean;
}

/** A parsed command line, as far as a command that runs others reads it. */
export interface ParsedLine {
  command: string;
  positionals: string[];
  options: Record<string, OptionValue>;
}

/** Runs a command line as dpx would: the caller's own runCli, so a view runs exactly like typed argv. */
export type RunArgv = (argv: string[], io: CliIO, within?: { view?: string }) => Promise<number>;

/** What a command that runs other command lines (view, report) is handed, rather than importing the parser. */
export interface CommandLine {
  run: RunArgv;
  parse(argv: string[]): ParsedLine;
  /** The saved command line with the given options in place of its own of the same name. */
  withOverrides(saved: string[], options: Record<string, unknown>): string[];
  /** A command line less the options named (a report asks a recorded command again without its --trail). */
  withoutOptions(argv: string[], names: Set<string>): string[];
}

/**
 * What a command that asks a control plane gets: the resolved settings, a session factory, and its output.
 * Not the run's whole context (CommandContext): the flags, the demo, the profiles' settings are the
 * dispatcher's.
 */
export interface CommandScope {
  readonly io: CliIO;
  /** This run's own settings: flags > environment > profile > defaults (offline: with the case). */
  readonly settings: Settings;
  readonly configPath: string;
  /** The saved view this run is, when it is one (never from argv): it only reads, and calls only a GET. */
  readonly view: string | undefined;
  /** The case this run records into (--trail), the explorer's `T` adds to it. */
  readonly trail: HarTrail | undefined;
  /** What the explorer's header names a control plane by that is not the configured one: the case, the demo. */
  readonly label: string | undefined;
  /** The control plane's session (offline: the case's); a usage error when none is configured. */
  session(options?: { needsToken?: boolean }): Session;
  /** A session for another saved profile. */
  profileSession(name: string): Promise<Session>;
  /** The control planes a run over several asks (`--profiles`). */
  sources(profiles: string | undefined): Promise<Source[]>;
  /** The id of the unit a text names (id, name or path). */
  unitId(text: string): Promise<string>;
  /** Everything that must never reach the terminal. */
  secrets(): string[];
  /** A warning on stderr, once per distinct message. */
  warn(message: string): void;
  /** A line on stderr that is not data. */
  note(message: string): void;
  /** After SIGINT or SIGTERM: what was done and what was not, said once. */
  reportInterruption(what: string | undefined, command?: string): void;
}

export interface PlaneInput<V> {
  positionals: string[];
  options: V;
  /** The units `--ou all|A,B` chose (list, count). */
  units: UnitChoice;
  /** `--ou` as given on the command line (replay asks every request in it). */
  ou: string | undefined;
}

export interface LocalInput<V> {
  io: CliIO;
  configPath: string;
  flags: GlobalFlags;
  positionals: string[];
  options: V;
  commandLine: CommandLine;
}

/** A command of the registry: its spec and how its run function is loaded. */
export type Command = CommandSpec &
  (
    | {
        needs: 'control-plane';
        load: () => Promise<{ run: (scope: CommandScope, input: PlaneInput<never>) => Promise<number> }>;
      }
    | { needs: 'nothing'; load: () => Promise<{ run: (input: LocalInput<never>) => Promise<number> }> }
    /** `dpx help`: dpx's help, printed before anything would run. */
    | { needs: 'help' }
  );

/** A command that asks a control plane; its run function reads the options its spec declares. */
export function plane<O extends OptionSpec>(
  spec: CommandSpec<O>,
  load: () => Promise<{ run: (scope: CommandScope, input: PlaneInput<OptionValues<O>>) => Promise<number> }>,
): Command {
  return { ...spec, needs: 'control-plane', load: load as Extract<Command, { needs: 'control-plane' }>['load'] };
}

/** A command that works on this machine only (profiles, files, the demo): it gets no session. */
export function local<O extends OptionSpec>(
  spec: CommandSpec<O>,
  load: () => Promise<{ run: (input: LocalInput<OptionValues<O>>) => Promise<number> }>,
): Command {
  return { ...spec, needs: 'nothing', load: load as Extract<Command, { needs: 'nothing' }>['load'] };
}

/** `dpx help`: a word that prints dpx's help, as `dpx --help` does. */
export const HELP: Command = { options: {}, needs: 'help' };
