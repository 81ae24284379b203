// `dpx view save|list|show|run`: a question kept under a name and asked again later, by you or by a
// colleague who was sent the file. A view holds one read command and its query options only
// (config/view-policy.ts), checked when saved, loaded and run. On `run`, options given on the run's own
// command line are the user's: they replace the saved options of the same name (`-o`, `--ou`,
// `--profile`, or any other), so one view serves every tenant and output, and the run stays a read
// whatever they say (it is locked read-only, and a call must be of a GET).
import { UsageError } from '../../api/errors.js';
import { shellQuote } from '../../api/security/curl.js';
import { visible } from '../../api/visible.js';
import { checkView } from '../../config/view-policy.js';
import { checkViewName, listViews, loadView, saveView, type SavedView } from '../../config/views.js';
import { commandOptions, isCommandWord, parseCommandLine, type OptionSpec } from '../args.js';
import { renderTable } from '../format/table.js';
import { DataWriter, type CliIO } from '../io.js';
import { jsonText, outputFormat, tableWidth } from './output.js';

/**
 * Runs a command line as dpx would: the caller's own runCli. `within.view` names the view being run: the
 * run is then locked read-only and may call only a GET.
 */
export type RunArgv = (argv: string[], io: CliIO, within?: { view?: string }) => Promise<number>;

export async function viewCommand(
  io: CliIO,
  configPath: string,
  positionals: string[],
  options: Record<string, unknown>,
  run: RunArgv,
): Promise<number> {
  const [action, name, ...rest] = positionals;
  switch (action) {
    case 'save':
      return save(io, configPath, checkViewName(name), rest);
    case 'list':
      return list(io, configPath, options);
    case 'show':
      return show(io, configPath, checkViewName(name), options);
    case 'run': {
      const view = checked(await loadView(configPath, checkViewName(name)));
      return run(withOverrides(view.argv, options), io, { view: view.name });
    }
    default:
      throw new UsageError(
        action === undefined ? 'view needs an action' : `unknown view action '${action}'`,
        'dpx view save NAME -- <command> | view list | view show NAME | view run NAME [-o FORMAT] [--ou UNIT] [--profile NAME]',
      );
  }
}

async function save(io: CliIO, configPath: string, name: string, argv: string[]): Promise<number> {
  if (argv.length === 0)
    throw new UsageError(
      'nothing to save',
      `put the command after --: dpx view save ${name} -- count tasks --by status --since 24h`,
    );
  // The command line must be one dpx would run, and a question only: checked now, not when a colleague runs it.
  checked({ name, argv, savedAt: '' });
  const path = await saveView(configPath, { name, argv, savedAt: new Date().toISOString() });
  io.stderr.write(`saved view ${name}: dpx ${commandLine(argv)}\n  in ${path}\n`);
  return 0;
}

async function list(io: CliIO, configPath: string, options: Record<string, unknown>): Promise<number> {
  const format = outputFormat(options['output'], ['table', 'json'] as const);
  const views = (await listViews(configPath)).map((view) => {
    if ('problem' in view) return view;
    try {
      return checked(view);
    } catch (error) {
      return { name: view.name, problem: (error as Error).message };
    }
  });
  const rows = views.map((view) =>
    'problem' in view
      ? { name: view.name, command: null, saved_at: null, problem: view.problem }
      : { name: view.name, command: `dpx ${commandLine(view.argv)}`, argv: view.argv, saved_at: view.savedAt },
  );
  const out = new DataWriter(io.stdout);
  if (format === 'json') await out.write(jsonText(rows, io));
  else if (rows.length === 0) io.stderr.write('no saved views: save one with dpx view save NAME -- <command>\n');
  else
    await out.write(
      `${
        renderTable(
          rows.map(({ name, command, problem }) => ({ name, command: command ?? `(unreadable: ${problem})` })),
          tableWidth(io),
          ['name', 'command'],
        ).text
      }\n`,
    );
  out.release();
  return views.some((view) => 'problem' in view) ? 1 : 0;
}

async function show(io: CliIO, configPath: string, name: string, options: Record<string, unknown>): Promise<number> {
  const format = outputFormat(options['output'], ['table', 'json'] as const);
  const view = await loadView(configPath, name);
  const out = new DataWriter(io.stdout);
  // What the view would run is shown whether or not it may run; a view that may not is then refused.
  await out.write(
    format === 'json'
      ? jsonText({ name: view.name, argv: view.argv, saved_at: view.savedAt }, io)
      : `dpx ${commandLine(view.argv)}\n`,
  );
  out.release();
  checked(view);
  return 0;
}

/** The view, when its command line is one dpx would run and a question only; else the refusal, naming what broke it. */
function checked(view: SavedView): SavedView {
  const parsed = parseCommandLine(view.argv);
  const options = Object.entries(parsed.options)
    .filter(([, value]) => value !== undefined)
    .map(([option]) => option);
  checkView({ command: parsed.command, options }, view.name);
  return view;
}

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

/**
 * A command line to read and to paste: words quoted only where a shell would need it. A view file may
 * come from a colleague, so nothing in it reaches the terminal as a control sequence.
 */
export function commandLine(argv: string[]): string {
  return visible(argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg))).join(' '));
}
