// `dpx view save|list|show|run`: a command line kept under a name and run again later, by you or by a
// colleague who was sent the file. On `run`, options given on the run's own command line replace the
// saved options of the same name (`-o`, `--ou`, `--profile`, or any other), so one view serves every
// tenant and output.
import { UsageError } from '../../../api/errors.js';
import { shellQuote } from '../../../api/security/curl.js';
import { visible } from '../../../api/visible.js';
import { checkViewName, listViews, loadView, saveView } from '../../../config/views.js';
import { renderTable } from '../../format/table.js';
import { DataWriter, type CliIO } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import type { CommandLine, LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';
import type { spec } from './spec.js';

/** Commands that manage dpx rather than ask a control plane: a view of one is refused. */
const NOT_VIEWABLE = new Set(['view', 'profile', 'completion', 'demo', 'help']);

export async function run({
  io,
  configPath,
  positionals,
  options,
  commandLine: line,
}: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const [action, name, ...rest] = positionals;
  switch (action) {
    case 'save':
      return save(io, configPath, checkViewName(name), rest, line);
    case 'list':
      return list(io, configPath, options);
    case 'show':
      return show(io, configPath, checkViewName(name), options);
    case 'run': {
      const view = await loadView(configPath, checkViewName(name));
      return line.run(line.withOverrides(view.argv, options), io);
    }
    default:
      throw new UsageError(
        action === undefined ? 'view needs an action' : `unknown view action '${action}'`,
        'dpx view save NAME -- <command> | view list | view show NAME | view run NAME [-o FORMAT] [--ou UNIT] [--profile NAME]',
      );
  }
}

async function save(io: CliIO, configPath: string, name: string, argv: string[], line: CommandLine): Promise<number> {
  if (argv.length === 0)
    throw new UsageError(
      'nothing to save',
      `put the command after --: dpx view save ${name} -- count tasks --by status --since 24h`,
    );
  // The command line must be one dpx would run: checked now, not when a colleague runs it.
  const parsed = line.parse(argv);
  if (NOT_VIEWABLE.has(parsed.command))
    throw new UsageError(
      `a view of \`dpx ${parsed.command}\` is not kept`,
      'a view keeps a command that asks a control plane: list, count, xray, call …',
    );
  const path = await saveView(configPath, { name, argv, savedAt: new Date().toISOString() });
  io.stderr.write(`saved view ${name}: dpx ${commandLine(argv)}\n  in ${path}\n`);
  return 0;
}

async function list(io: CliIO, configPath: string, options: Record<string, unknown>): Promise<number> {
  const format = outputFormat(options['output'], ['table', 'json'] as const);
  const views = await listViews(configPath);
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
  await out.write(
    format === 'json'
      ? jsonText({ name: view.name, argv: view.argv, saved_at: view.savedAt }, io)
      : `dpx ${commandLine(view.argv)}\n`,
  );
  out.release();
  return 0;
}

/**
 * A command line to read and to paste: words quoted only where a shell would need it. A view file may
 * come from a colleague, so nothing in it reaches the terminal as a control sequence.
 */
export function commandLine(argv: string[]): string {
  return visible(argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg))).join(' '));
}
