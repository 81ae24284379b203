// A report as Markdown: the same sections and tables as the HTML, the command lines in code blocks, and
// each x-ray's picture as an SVG file beside it (`report-3.svg` for the third command of `report.md`).
// Case text is made inert and escaped, so a name cannot become a link, markup or a table's edge.

import { visible } from '../../../api/visible.js';
import { count, when } from '../../format/phrases.js';
import { openingOf } from './answer.js';
import type { Report, ReportSection } from './sections.js';
import type { ReportTable } from './tables.js';

export interface MarkdownReport {
  markdown: string;
  /** The pictures, by file name (beside the Markdown file). */
  pictures: Map<string, string>;
}

/** `stem`: the Markdown file's name without `.md`, which the pictures' names start with. */
export function reportMarkdown(report: Report, stem: string): MarkdownReport {
  const pictures = new Map<string, string>();
  const parts = [
    `# Case report: ${inline(report.source)}`,
    inline(
      `${count(report.sections.length, 'command')}, ${count(report.requests, 'request')}, against ${report.baseUrl}; written by ${report.creator || 'an unknown tool'}. Every answer below was rebuilt from the case: nothing was sent.`,
    ),
  ];
  parts.push(opening(report));
  for (const part of report.sections) {
    const picture = part.svg ? `${stem}-${part.number}.svg` : undefined;
    if (picture && part.svg) pictures.set(picture, part.svg);
    parts.push(section(part, picture));
  }
  return { markdown: `${parts.join('\n\n')}\n`, pictures };
}

/** The answer first: each question, its window, and the first of its ranking by name and region. */
function opening(report: Report): string {
  const lines = ['## The answer'];
  for (const line of openingOf(report.sections)) {
    lines.push(`${line.number}. ${inline(line.question)}`, `   - asked of: ${inline(line.where)}`);
    if (line.window !== undefined) lines.push(`   - window: ${inline(line.window)}`);
    if (line.error !== undefined) lines.push(`   - not answered from the case: ${inline(line.error)}`);
    for (const entry of line.ranking) lines.push(`   - ${inline(entry)}`);
    if (line.summary !== undefined) lines.push(`   - ${inline(line.summary)}`);
  }
  return lines.join('\n');
}

function section(part: ReportSection, picture: string | undefined): string {
  const lines = [
    `## ${part.number}. ${inline(part.word ? `dpx ${part.word}` : 'a page')}`,
    [
      `- time: ${inline(when(part.startedAt))}`,
      `- profile: ${inline(part.profile)}`,
      `- origin: ${inline(part.origin)}`,
      `- unit: ${inline(part.unit)}`,
      `- recorded: ${count(part.requests, 'request')}, ${count(part.records, 'record')}`,
    ].join('\n'),
    fenced(part.commandLine, 'sh'),
  ];
  if (part.error) lines.push(`**Not answered from the case:** ${inline(part.error)}`);
  if (picture) lines.push(`![the x-ray, laid out by Graphviz](${picture})`);
  for (const table of part.tables) lines.push(tableText(table));
  if (part.notes.length > 0) lines.push(fenced(part.notes.join('\n'), 'text'));
  return lines.join('\n\n');
}

function tableText(table: ReportTable): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    row(table.columns.map(inline)),
    row(table.numeric.map((numeric) => (numeric ? '--:' : '---'))),
    ...table.rows.map((each) =>
      row(
        each.cells.map((cell, index) =>
          index === table.columns.indexOf('unit') && each.depth
            ? `${'&nbsp;'.repeat(2 * each.depth)}${inline(cell)}`
            : inline(cell),
        ),
      ),
    ),
  ];
  return table.caption ? `${lines.join('\n')}\n\n*${inline(table.caption)}*` : lines.join('\n');
}

/** A code block whose fence is longer than any run of backticks in the text, so the text cannot close it. */
function fenced(value: string, language: string): string {
  const longest = Math.max(2, ...[...value.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${visible(value, { lines: true })}\n${fence}`;
}

/** Text in a line or a cell: controls made visible, HTML's characters as entities, Markdown's escaped. */
function inline(value: string): string {
  return visible(value)
    .replace(/[\\`*_[\]|#!~]/g, (character) => `\\${character}`)
    .replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`)
    .replace(/[\r\n]+/g, ' ');
}
