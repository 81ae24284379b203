// `dpx report` of a case that holds both demo regions' commands, recorded over HTTP: each section
// answered from its own region's recorded answers, as the command printed them then.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { addRegionProfiles, regionTokens } from '../../helpers/regions.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo({ tenants: 40, frozen: true });
const FILTER = '{"category":{"$eq":"restore"},"status":{"$eq":"failed"}}';
let dir = '';
let file = '';
const printed: { argv: string[]; json: unknown }[] = [];

beforeAll(async () => {
  await addRegionProfiles(demo, dpx);
  dir = temporaryFolder('dpx-report-regions-');
  file = join(dir, 'case.har');
  const count = [
    'count',
    'tasks',
    '--filter',
    FILTER,
    '--ou',
    'all',
    '--depth',
    '1',
    '--sort',
    '-total',
    '--nonzero',
    '--since',
    '24h',
  ];
  const commands = [
    ['--profile', demo.region.name, ...count],
    ['--profile', demo.otherRegion.name, ...count],
    [
      '--profile',
      demo.otherRegion.name,
      'list',
      'tasks',
      '--filter',
      FILTER,
      '--ou',
      'Bluth Media',
      '--since',
      '24h',
      '--page-size',
      '5',
    ],
    [
      'list',
      'tasks',
      '--filter',
      FILTER,
      '--ou',
      'all',
      '--since',
      '24h',
      '--group-by',
      '@tenant',
      '--profiles',
      'all',
    ],
  ];
  for (const argv of commands) {
    const run = await dpx(['--trail', file, ...argv, '-o', 'json'], { env: regionTokens(demo) });
    expect(run.code, run.stderr).toBe(0);
    printed.push({ argv, json: JSON.parse(run.stdout) });
  }
  // A unit given by its id: the report names it, as the case's count names it.
  const bluth = (printed[1]!.json as { rows: { ou: string; ou_name: string }[] }).rows.find(
    (row) => row.ou_name === 'Bluth Media',
  )!;
  const byId = ['--profile', demo.otherRegion.name, 'list', 'tasks', '--ou', bluth.ou, '--page-size', '2'];
  const run = await dpx(['--trail', file, ...byId, '-o', 'json'], { env: regionTokens(demo) });
  expect(run.code, run.stderr).toBe(0);
  printed.push({ argv: byId, json: JSON.parse(run.stdout) });
});

/** The report's Markdown cut into its sections, each with its fields and its first table's rows. */
function sectionsOf(markdown: string): { fields: Record<string, string>; rows: string[][]; text: string }[] {
  return markdown
    .split(/^## \d+\. /m)
    .slice(1)
    .map((text) => {
      const fields = Object.fromEntries(
        [...text.matchAll(/^- (\w+): (.*)$/gm)].map((match) => [match[1]!, match[2]!.replace(/\\/g, '')]),
      );
      const rows = text
        .split('\n')
        .filter((line) => line.startsWith('| '))
        .slice(2)
        .map((line) =>
          line
            .slice(2, -2)
            .split(' | ')
            .map((cell) =>
              cell
                .replace(/&nbsp;/g, '')
                .replace(/\\/g, '')
                .trim(),
            ),
        );
      return { fields, rows, text };
    });
}

const numberOf = (cell: string) => Number(cell.replace(/,/g, ''));

describe('dpx report of a case with two regions', () => {
  it("answers each command from its own region, as the command printed it then; the file is the owner's alone", async () => {
    const target = join(dir, 'report.md');
    const run = await dpx(['report', file, '-o', target]);
    expect(run.code, run.stderr).toBe(0);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    const sections = sectionsOf(readFileSync(target, 'utf8'));
    expect(sections).toHaveLength(5);
    const origin = (url: string) => new URL(url).origin;

    // 1 and 2: the same count in each region, each section with its own region's numbers.
    for (const [index, region] of [demo.region, demo.otherRegion].entries()) {
      const { fields, rows } = sections[index]!;
      expect(fields['profile']).toBe(region.name);
      expect(fields['origin']).toBe(origin(region.baseUrl));
      const printedRows = (printed[index]!.json as { rows: { ou_name: string; total: number }[] }).rows;
      expect(rows.map((row) => [row[0], numberOf(row.at(-1)!)])).toEqual(
        printedRows.map((row) => [row.ou_name, row.total]),
      );
    }
    expect(sections[0]!.rows[0]).not.toEqual(sections[1]!.rows[0]);

    // 3: a unit given by name, in the second region: the records it printed.
    expect(sections[2]!.fields['origin']).toBe(origin(demo.otherRegion.baseUrl));
    const items = (printed[2]!.json as { items: { id: string }[] }).items;
    expect(sections[2]!.rows.map((row) => row[0])).toEqual(items.map((item) => item.id));

    // 4: --profiles all, both origins named, the groups it printed with their regions.
    expect(sections[3]!.fields['origin']).toBe([demo.region.baseUrl, demo.otherRegion.baseUrl].map(origin).join(', '));
    const groups = (printed[3]!.json as { groups: { key: Record<string, string>; count: number }[] }).groups;
    expect(sections[3]!.rows).toEqual(
      groups.map((group) => [group.key['profile'], group.key['@tenant'], String(group.count)]),
    );
    // It opens with the answer: each question, its window in absolute times, the ranking by name and region.
    const markdown = readFileSync(target, 'utf8');
    const opening = markdown.slice(markdown.indexOf('## The answer'), markdown.indexOf('## 1. '));
    expect(opening.length).toBeGreaterThan(0);
    expect(opening.match(/^\d+\. dpx /gm)).toHaveLength(5);
    expect(opening.match(/^ {3}- window: created\\_timestamp ≥ \d{4}-\d\d-\d\dT[\d:.]+Z$/gm)).toHaveLength(4);
    // 5: the unit given by id is named.
    expect(sections[4]!.fields['unit']).toBe('Bluth Media');
    const ids = (printed[4]!.json as { items: { id: string }[] }).items.map((item) => item.id);
    expect(sections[4]!.rows.map((row) => row[0])).toEqual(ids);
    const top = groups[0]!;
    expect(opening).toContain(`- ${top.key['@tenant']} (${top.key['profile']}): ${top.count}`);
    const usWorst = (printed[1]!.json as { rows: { ou_name: string; total: number }[] }).rows[1]!;
    expect(opening).toContain(`- ${usWorst.ou_name} (${demo.otherRegion.name}): ${usWorst.total}`);
    // Beside the questions as typed, no unit id where a name is known.
    const details = opening.split('\n').filter((line) => line.startsWith('   - '));
    expect(details.join('\n')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(details).toContain(`   - asked of: Bluth Media in ${demo.otherRegion.name}`);
    expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
  });

  it('dpx case shows each command whole, piped or on a terminal, and every origin a command over several asked', async () => {
    const summary = JSON.parse((await dpx(['case', file, '-o', 'json'])).stdout) as {
      commands: { command: string; origins: string[] }[];
    };
    const origins = [demo.region.baseUrl, demo.otherRegion.baseUrl].map((url) => new URL(url).origin);
    expect(summary.commands[3]!.origins).toEqual(origins);
    const piped = await dpx(['case', file], { env: { COLUMNS: '60' } });
    const terminal = await dpx(['case', file], { stdoutTTY: true, columns: 60 });
    for (const run of [piped, terminal]) {
      expect(run.code, run.stderr).toBe(0);
      for (const command of summary.commands) expect(run.stdout).toContain(command.command);
      expect(run.stdout).toContain(`(asked ${origins.join(', ')})`);
    }
    // Piped, a command ends its row; on a terminal it has a line of its own.
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(2 + summary.commands.length);
    const lines = terminal.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2 + 2 * summary.commands.length);
    expect(lines[3]!.trim()).toBe(summary.commands[0]!.command);
  });

  it('a command the case cannot answer is one plain line; the other sections are whole; exit 1', async () => {
    const summary = JSON.parse((await dpx(['case', file, '-o', 'json'])).stdout) as { commands: { page: string }[] };
    const page = summary.commands[2]!.page;
    // The case without the answers of its third command's list.
    const damaged = join(dir, 'without-third.har');
    const lines = readFileSync(file, 'utf8').split('\n');
    const kept = lines.filter((line) => !(line.includes(`"pageref":"${page}"`) && line.includes('/tasks')));
    expect(kept.length).toBeLessThan(lines.length);
    writeFileSync(damaged, kept.join('\n'), { mode: 0o600 });
    const target = join(dir, 'damaged.md');
    const run = await dpx(['report', damaged, '-o', target]);
    expect(run.code).toBe(1);
    const sections = sectionsOf(readFileSync(target, 'utf8'));
    expect(sections).toHaveLength(5);
    const [third] = sections[2]!.text.split('\n').filter((line) => line.startsWith('**Not answered'));
    expect(third).toMatch(/^\*\*Not answered from the case:\*\* [^\n]*is not in this case$/);
    expect(sections[2]!.text).not.toContain('hint:');
    expect(sections[2]!.text).not.toMatch(/and \d+ more;/);
    for (const index of [0, 1, 3, 4]) {
      expect(sections[index]!.text).not.toContain('Not answered');
      expect(sections[index]!.rows.length).toBeGreaterThan(0);
    }
    expect(run.stderr).toMatch(/^warning: command 3: .*is not in this case$/m);
    expect(run.stderr).not.toContain('hint:');
  });
});
