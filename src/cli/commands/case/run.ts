// `dpx case FILE`: what a case holds — each command, when it ran, in which unit and against which
// control plane, how many requests and records (src/api/case/summary.ts). Reads the file only: no
// control plane, no token.

import { readTrail } from '../../../api/case/har.js';
import { summariseCase, type CommandSummary } from '../../../api/case/summary.js';
import { UsageError } from '../../../api/errors.js';
import { redactText, redactValue } from '../../../api/security/redact.js';
import { oneLine } from '../../../text/cells.js';
import { count, when } from '../../format/phrases.js';
import { renderTable } from '../../format/table.js';
import { DataWriter } from '../../io.js';
import { formatWarning } from '../../error-lines.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import { spec } from './spec.js';
import type { LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';

export async function run({
  io,
  positionals,
  flags,
  options,
}: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new UsageError('dpx case takes one case file', 'e.g. dpx case case-1234.har');
  const format = outputFormat(options['output'], spec.formats);
  const trail = await readTrail(file, flags.ouHeader === undefined ? {} : { ouHeader: flags.ouHeader });
  const secrets = trail.credentials;
  for (const warning of trail.warnings) io.stderr.write(formatWarning(warning, secrets));
  const summary = await summariseCase(trail);
  const out = new DataWriter(io.stdout);
  try {
    if (format === 'json') {
      await out.write(
        jsonText(
          redactValue(
            {
              file: summary.source,
              creator: summary.creator,
              base_url: summary.baseUrl,
              commands: summary.commands.map(jsonCommand),
              requests: summary.requests,
              records: summary.records,
              warnings: trail.warnings,
            },
            secrets,
          ),
          io,
        ),
      );
    } else {
      const rows = summary.commands.map((command, index) => ({
        '#': index + 1,
        when: when(command.startedAt),
        requests: command.requests,
        records: command.records,
        unit: oneLine(command.unit ?? (command.units.length > 1 ? `${command.units.length} units` : 'none')),
        origin: oneLine(command.origins.length > 1 ? `${command.origins.length} origins` : (command.origin ?? '')),
      }));
      const head = `${summary.source}: ${count(summary.commands.length, 'command')}, ${count(summary.requests, 'request')}, ${count(summary.records, 'record')}${summary.creator ? ` (written by ${oneLine(summary.creator)})` : ''}\n`;
      const table =
        rows.length > 0 ? commandTable(rows, summary.commands, tableWidth(io), io.stdout.isTTY === true) : '';
      await out.write(redactText(head + table, secrets));
    }
  } finally {
    out.release();
  }
  return 0;
}

/**
 * The table of commands, each command whole: the one column that says what was asked is never cut. Piped,
 * it ends its row; on a terminal it has a line of its own under its row, which the terminal wraps. A
 * command that asked several control planes names every origin it asked.
 */
function commandTable(
  rows: Record<string, unknown>[],
  commands: readonly CommandSummary[],
  width: number,
  terminal: boolean,
): string {
  const lines = renderTable(rows, width, ['#', 'when', 'requests', 'records', 'unit', 'origin']).text.split('\n');
  const whole = (command: CommandSummary) =>
    oneLine(command.title) + (command.origins.length > 1 ? `  (asked ${command.origins.join(', ')})` : '');
  if (terminal)
    return `${[lines[0], ...commands.flatMap((command, index) => [lines[index + 1], `    ${whole(command)}`])].join('\n')}\n`;
  return `${[`${lines[0]}  command`, ...commands.map((command, index) => `${lines[index + 1]}  ${whole(command)}`)].join('\n')}\n`;
}

function jsonCommand(command: CommandSummary): Record<string, unknown> {
  return {
    page: command.page ?? null,
    command: command.title,
    ...(command.argv ? { argv: command.argv } : {}),
    started: command.startedAt,
    ended: command.endedAt ?? null,
    profile: command.profile ?? null,
    origin: command.origin ?? null,
    origins: command.origins,
    base_url: command.baseUrl ?? null,
    unit: command.unit ?? null,
    units: command.units,
    requests: command.requests,
    records: command.records,
  };
}
