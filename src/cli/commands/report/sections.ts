// What a report says about each command of a case, whatever it is written as (HTML, Markdown): when,
// where and as what it ran, its answer's tables and picture, what it noted, or why it has no answer.

import { basename } from 'node:path';
import type { CaseSummary } from '../../../api/case/summary.js';
import type { RecordedAnswer } from './answers.js';
import { svgOf } from './picture.js';
import { tablesOf, type ReportTable } from './tables.js';

/** What a command said on stderr, at most: enough to tell what happened, not a scroll-back. */
const NOTES = 12;

export interface ReportSection {
  number: number;
  /** The command line as recorded (secrets masked). */
  commandLine: string;
  word?: string;
  startedAt: string;
  /** The profile the command ran as; a command over several names them as it asked (--profiles). */
  profile: string;
  /** Every origin the command asked, its own first. */
  origin: string;
  unit: string;
  requests: number;
  records: number;
  tables: ReportTable[];
  /** An x-ray laid out by Graphviz. */
  svg?: string;
  notes: string[];
  error?: string;
}

export interface Report {
  source: string;
  creator: string;
  baseUrl: string;
  requests: number;
  sections: ReportSection[];
}

export async function reportOf(summary: CaseSummary, answers: RecordedAnswer[]): Promise<Report> {
  const sections: ReportSection[] = [];
  for (const [index, answer] of answers.entries()) {
    const { command } = answer;
    sections.push({
      number: index + 1,
      commandLine: command.title,
      ...(answer.word === undefined ? {} : { word: answer.word }),
      startedAt: command.startedAt,
      profile: command.profile ?? (command.origins.length > 1 ? 'several (--profiles)' : 'none'),
      origin: (command.origins.length > 0 ? command.origins : [command.origin ?? '']).join(', '),
      unit: unitText(command, answers),
      requests: command.requests,
      records: command.records,
      tables: tablesOf(answer.word, answer.json),
      ...(answer.dot ? { svg: await svgOf(answer.dot) } : {}),
      notes: shortNotes(answer),
      ...(answer.error === undefined ? {} : { error: answer.error }),
    });
  }
  // The case's file name, not where it lay on the machine that wrote the report.
  return {
    source: basename(summary.source),
    creator: summary.creator,
    baseUrl: summary.baseUrl,
    requests: summary.requests,
    sections,
  };
}

/** What a command said, at most NOTES lines; for one not answered, without its error and hint (said once, above). */
function shortNotes(answer: RecordedAnswer): string[] {
  const notes =
    answer.error === undefined
      ? answer.notes
      : answer.notes.filter((line) => !line.startsWith('error: ') && !line.startsWith('hint: '));
  return notes.length > NOTES ? [...notes.slice(0, NOTES), `… and ${notes.length - NOTES} more lines`] : notes;
}

/** The unit a command ran in, by name where any answer of the case names it (a count's row, a record's context). */
function unitText(command: RecordedAnswer['command'], answers: readonly RecordedAnswer[]): string {
  if (command.unit === undefined)
    return command.units.length > 1 ? `${command.units.length} units` : "none (the token's own scope)";
  const id = command.unit;
  for (const answer of answers) {
    const name = nameIn(answer.json, id, 0);
    if (name !== undefined) return name;
  }
  return id;
}

/** How deep an answer is searched for a unit's name: a record's `_context`, a count's row, an x-ray's node. */
const NAME_DEPTH = 4;

function nameIn(value: unknown, id: string, depth: number): string | undefined {
  if (depth > NAME_DEPTH || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const name = nameIn(item, id, depth + 1);
      if (name !== undefined) return name;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (record['ou'] === id && typeof record['ou_name'] === 'string' && record['ou_name'] !== id)
    return record['ou_name'];
  for (const child of Object.values(record)) {
    const name = nameIn(child, id, depth + 1);
    if (name !== undefined) return name;
  }
  return undefined;
}
