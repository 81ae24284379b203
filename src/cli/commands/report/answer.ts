// What a report opens with: the answer before the details. For each command, the question as it was asked,
// the window in absolute times (as the command put it on the list), and the first of its ranking — each
// tenant or unit by name with its region and its number — or why the case could not answer it.
import type { ReportSection } from './sections.js';

/** Entries of a ranking the opening shows; the section below has them all. */
const TOP = 10;

export interface OpeningLine {
  number: number;
  question: string;
  /** Where it was asked: "Bluth Media in us-east", "41 units in several (--profiles)". */
  where: string;
  /** `created_timestamp ≥ 2026-11-27T16:11:22.435Z`, as the command noted it. */
  window?: string;
  /** "Bluth Media (us-east): 40", best first, as the command ranked them. */
  ranking: string[];
  /** What else the answer is, when it is no ranking: "40 records". */
  summary?: string;
  error?: string;
}

export function openingOf(sections: readonly ReportSection[]): OpeningLine[] {
  return sections.map((section) => {
    const window = section.notes
      .find((note) => note.startsWith('window: '))
      ?.slice('window: '.length)
      .replace(/ \(--time-field .*\)$/, '');
    const [table] = section.tables;
    const line: OpeningLine = {
      number: section.number,
      question: section.commandLine,
      where: `${section.unit} in ${section.profile}`,
      ranking: table ? rankingOf(table, section.profile, sortedBy(section.commandLine)) : [],
      ...(window === undefined ? {} : { window }),
      ...(section.error === undefined ? {} : { error: section.error }),
    };
    if (table && line.ranking.length === 0 && table.caption !== undefined) line.summary = table.caption;
    return line;
  });
}

/** The column a count was ranked by (`--sort -failed`): its number leads a unit's line. */
function sortedBy(commandLine: string): string | undefined {
  return /\s--sort[ =]['"]?-?([^\s'"]+)/.exec(commandLine)?.[1];
}

function rankingOf(table: ReportSection['tables'][number], profile: string, sorted: string | undefined): string[] {
  const column = (name: string) => table.columns.indexOf(name);
  const byProfile = column('profile');
  const region = (cells: string[]) => (byProfile >= 0 ? cells[byProfile]! : profile);
  if (table.kind === 'groups') {
    return table.rows.slice(0, TOP).map(({ cells }) => {
      const key = cells.slice(0, -1).filter((_, index) => index !== byProfile);
      return `${key.join(' · ')} (${region(cells)}): ${cells.at(-1)}`;
    });
  }
  if (table.kind === 'matrix') {
    const unit = column('unit');
    // Below the regions' totals when the count holds a tree: the units it ranked.
    const deeper = table.rows.some((row) => (row.depth ?? 0) > 0);
    return table.rows
      .filter((row) => !deeper || (row.depth ?? 0) > 0)
      .slice(0, TOP)
      .map(({ cells }) => {
        const by = sorted === undefined || sorted === 'total' ? -1 : column(sorted);
        const numbers = by > unit ? `${sorted} ${cells[by]}, total ${cells.at(-1)}` : cells.at(-1);
        return `${cells[unit]} (${region(cells)}): ${numbers}`;
      });
  }
  return [];
}
