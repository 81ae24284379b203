// `dpx view save|list|show|run`: a question kept under a name and asked again later, by you or by a
// colleague who was sent the file. A view holds one read command and its query options only
// (config/view-policy.ts), checked when saved, loaded and run. On `run`, options given on the run's own
// command line are the user's: `-o` and the global options (`--ou`, `--profile`, …) replace the saved
// ones of the same name, so one view serves every tenant and output, and the run stays a read
// whatever they say (it is locked read-only, and a call must be of a GET).
import { UsageError } from '../../../api/errors.js';
import { shellQuote } from '../../../api/security/curl.js';
import { visible } from '../../../api/visible.js';
import { checkView } from '../../../config/view-policy.js';
import { checkViewName, listViews, loadView, saveView, type SavedView } from '../../../config/views.js';
import { renderTable } from '../../format/table.js';
import { DataWriter, type CliIO } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import type { GlobalFlags } from '../../../config/settings.js';
import type { CommandLine, LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';
import type { spec } from './spec.js';

export async function run({
  io,
  configPath,
  flags,
  positionals,
  options,
  commandLine: line,
}: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const [action, name, ...rest] = positionals;
  switch (action) {
    case 'save':
      refuseOptionsBeforeCommand({ ...flags, output: options.output }, name);
      return save(io, configPath, checkViewName(name), rest, line);
    case 'list':
      return list(io, configPath, options, line);
    case 'show':
      return show(io, configPath, checkViewName(name), options, line);
    case 'run': {
      const view = checked(await loadView(configPath, checkViewName(name)), line);
      return line.run(line.withOverrides(view.argv, options), io, { view: view.name });
    }
    default:
      throw new UsageError(
        action === undefined ? 'view needs an action' : `unknown view action '${action}'`,
        'dpx view save NAME -- <command> | view list | view show NAME | view run NAME [-o FORMAT] [--ou UNIT] [--profile NAME]',
      );
  }
}

/**
 * `dpx view save NAME list tasks --trust-origin X` without `--` gives the options to `view save` itself,
 * and the view would be saved without them: refused, so that what is saved is what was typed.
 */
function refuseOptionsBeforeCommand(flags: GlobalFlags & { output?: unknown }, name: string | undefined): void {
  const given = Object.entries(flags)
    .filter(([key, value]) => key !== 'view' && value !== undefined && value !== false)
    .map(([key]) => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`);
  if (given.length > 0)
    throw new UsageError(
      `${given.join(', ')} would be an option of dpx view save, not of the command saved`,
      `put the whole command after --: dpx view save ${name ?? 'NAME'} -- list tasks …`,
    );
}

async function save(io: CliIO, configPath: string, name: string, argv: string[], line: CommandLine): Promise<number> {
  if (argv.length === 0)
    throw new UsageError(
      'nothing to save',
      `put the command after --: dpx view save ${name} -- count tasks --by status --since 24h`,
    );
  // The command line must be one dpx would run, and a question only: checked now, not when a colleague runs it.
  checked({ name, argv, savedAt: '' }, line);
  const path = await saveView(configPath, { name, argv, savedAt: new Date().toISOString() });
  io.stderr.write(`saved view ${name}: dpx ${commandLine(argv)}\n  in ${path}\n`);
  return 0;
}

async function list(
  io: CliIO,
  configPath: string,
  options: Record<string, unknown>,
  line: CommandLine,
): Promise<number> {
  const format = outputFormat(options['output'], ['table', 'json'] as const);
  const views = (await listViews(configPath)).map((view) => {
    if ('problem' in view) return view;
    try {
      return checked(view, line);
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

async function show(
  io: CliIO,
  configPath: string,
  name: string,
  options: Record<string, unknown>,
  line: CommandLine,
): Promise<number> {
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
  checked(view, line);
  return 0;
}

/** The view, when its command line is one dpx would run and a question only; else the refusal, naming what broke it. */
function checked(view: SavedView, line: CommandLine): SavedView {
  const parsed = line.parse(view.argv);
  const options = Object.entries(parsed.options)
    .filter(([, value]) => value !== undefined)
    .map(([option]) => option);
  checkView({ command: parsed.command, options }, view.name);
  return view;
}

/**
 * A command line to read and to paste: words quoted only where a shell would need it. A view file may
 * come from a colleague, so nothing in it reaches the terminal as a control sequence.
 */
export function commandLine(argv: string[]): string {
  return visible(argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg))).join(' '));
}
