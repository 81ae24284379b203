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
      origin: command.origin ?? '',
      unit:
        command.unit ?? (command.units.length > 1 ? `${command.units.length} units` : "none (the token's own scope)"),
      requests: command.requests,
      records: command.records,
      tables: tablesOf(answer.word, answer.json),
      ...(answer.dot ? { svg: await svgOf(answer.dot) } : {}),
      notes:
        answer.notes.length > NOTES
          ? [...answer.notes.slice(0, NOTES), `… and ${answer.notes.length - NOTES} more lines`]
          : answer.notes,
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
