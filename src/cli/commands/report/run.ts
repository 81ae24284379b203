// `dpx report CASE.har -o report.html|report.md`: a case as a file a ticket can carry. Each recorded
// command is asked again offline, from the case alone (answers.ts), and its answer
// written as tables and, for an x-ray, a picture laid out by Graphviz. Sends nothing, reads no token,
// and masks whatever the case recorded to authenticate, as `dpx case` does.

import { chmod, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { readTrail } from '../../../api/case/har.js';
import { summariseCase } from '../../../api/case/summary.js';
import { UsageError } from '../../../api/errors.js';
import { redactText } from '../../../api/security/redact.js';
import { recordedAnswers } from './answers.js';
import { reportHtml } from './html.js';
import { reportMarkdown } from './markdown.js';
import { reportOf } from './sections.js';
import { formatWarning } from '../../error-lines.js';
import type { LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';
import type { spec } from './spec.js';

const HINT = 'e.g. dpx report case-1234.har -o report.html (or -o report.md)';

export async function run({
  io,
  positionals,
  flags,
  options,
  commandLine,
}: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('dpx report takes one case file', HINT);
  const target = options['output'];
  if (typeof target !== 'string' || target === '')
    throw new UsageError('dpx report needs the file to write: -o FILE', HINT);
  const format = extname(target).toLowerCase();
  if (format !== '.html' && format !== '.htm' && format !== '.md')
    throw new UsageError(`dpx report writes .html or .md, not '${basename(target)}'`, HINT);
  const trail = await readTrail(file, flags.ouHeader === undefined ? {} : { ouHeader: flags.ouHeader });
  const token = io.env['DPX_TOKEN']?.trim();
  const secrets = [...trail.credentials, ...(token ? [token] : [])];
  for (const warning of trail.warnings) io.stderr.write(formatWarning(warning, secrets));
  const summary = await summariseCase(trail);
  const answers = await recordedAnswers(file, summary, commandLine, io, flags.ouHeader);
  const report = await reportOf(summary, answers);
  const written = [target];
  if (format === '.md') {
    const { markdown, pictures } = reportMarkdown(report, basename(target, extname(target)));
    for (const [name, svg] of pictures) {
      await writePrivate(join(dirname(target), name), redactText(svg, secrets));
      written.push(join(dirname(target), name));
    }
    await writePrivate(target, redactText(markdown, secrets));
  } else {
    await writePrivate(target, redactText(reportHtml(report), secrets));
  }
  const unanswered = report.sections.filter((section) => section.error !== undefined);
  io.stderr.write(
    `report: ${report.sections.length} commands from ${file}${unanswered.length > 0 ? `, ${unanswered.length} not answered from the case` : ''}; wrote ${written.join(', ')}\n`,
  );
  for (const section of unanswered)
    io.stderr.write(formatWarning(`command ${section.number}: ${section.error}`, secrets));
  return unanswered.length > 0 ? 1 : 0;
}

/** A report holds customer data, as its case does: readable by its owner alone (0600), also when it replaces a file. */
async function writePrivate(path: string, text: string): Promise<void> {
  await writeFile(path, text, { mode: 0o600 });
  await chmod(path, 0o600);
}
