// `dpx report`: the ticket's three-command case, recorded over HTTP against the 40-tenant demo, written
// as HTML and as Markdown, and read back with an HTML parser: each command with its time, origin, unit
// and command line, its answer's numbers as the command printed them, the x-ray as Graphviz's SVG,
// nothing that fetches from elsewhere, and no token.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import {
  attr,
  elements,
  externalReferences,
  fragment,
  htmlDocument,
  textOf,
  type Element,
} from '../../helpers/html.js';
import { recordTicketCase, type RecordedCase } from '../../helpers/report-case.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
let recorded: RecordedCase;

beforeAll(async () => {
  recorded = await recordTicketCase(demo);
});

const cells = (row: Element) => [...elements(row, 'th'), ...elements(row, 'td')].map((cell) => textOf(cell).trim());
const bodyRows = (table: Element) => elements(elements(table, 'tbody')[0]!, 'tr').map(cells);

describe('dpx report CASE -o report.html', () => {
  it('writes each command with its answer, rebuilt from the case with no network and no token', async () => {
    const target = join(recorded.dir, 'report.html');
    // The token and base URL still exported, as after the walkthrough: the case is all it asks.
    const { code, stderr } = await dpx(['report', recorded.file, '-o', target], {
      env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal },
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('report: 3 commands');
    const html = readFileSync(target, 'utf8');
    for (const token of recorded.tokens) expect(html).not.toContain(token);
    expect(tokensShown(recorded.tokens)).toEqual([]);
    const document = htmlDocument(html);
    expect(elements(document, 'script')).toEqual([]);
    expect(externalReferences(document)).toEqual([]);
    expect(
      attr(
        elements(document, 'meta').find((meta) => attr(meta, 'http-equiv') === 'Content-Security-Policy')!,
        'content',
      ),
    ).toContain("default-src 'none'");

    const sections = elements(document, 'section');
    expect(sections.map((section) => attr(section, 'data-command'))).toEqual(['count', 'list', 'xray']);
    const summary = JSON.parse((await dpx(['case', recorded.file, '-o', 'json'])).stdout) as {
      commands: { started: string; origin: string; command: string }[];
    };
    for (const [index, section] of sections.entries()) {
      const command = summary.commands[index]!;
      expect(attr(elements(section, 'time')[0]!, 'datetime')).toBe(command.started);
      const facts = Object.fromEntries(
        elements(section, 'dt').map((dt, at) => [textOf(dt), textOf(elements(section, 'dd')[at]!)]),
      );
      expect(facts['origin']).toBe(new URL(demo.region.baseUrl).origin);
      expect(facts['unit']).toMatch(/units|none/);
      expect(textOf(elements(section, 'code')[0]!)).toBe(command.command);
      expect(command.command).toContain(recorded.argv[index]!.slice(0, 2).join(' '));
    }

    // The count: one row per unit, the numbers the command printed when it was recorded.
    const matrix = elements(sections[0]!, 'table')[0]!;
    expect(attr(matrix, 'data-kind')).toBe('matrix');
    expect(cells(elements(matrix, 'thead')[0]!)).toEqual(['unit', ...recorded.count.columns, 'total']);
    const rows = bodyRows(matrix);
    expect(rows).toHaveLength(recorded.count.rows.length);
    expect(recorded.count.rows.length).toBeGreaterThan(30);
    for (const [index, row] of recorded.count.rows.entries()) {
      expect(rows[index]).toEqual([
        row.ou_name,
        ...recorded.count.columns.map((column) => row.counts[column]!.toLocaleString('en-US')),
        row.total.toLocaleString('en-US'),
      ]);
    }

    // The groups add up to the failed restores the count's top row holds.
    const groups = elements(sections[1]!, 'table')[0]!;
    expect(attr(groups, 'data-kind')).toBe('groups');
    expect(bodyRows(groups)).toEqual(
      recorded.groups.groups.map((group) => [group.key['error_code'], group.count.toLocaleString('en-US')]),
    );
    expect(recorded.groups.records).toBe(recorded.count.rows[0]!.counts['failed']);

    // The x-ray: Graphviz's SVG, a box per record and an arrow per edge, the root's name in it.
    const svg = elements(sections[2]!, 'svg')[0]!;
    const groupsOf = (kind: string) => elements(svg, 'g').filter((g) => attr(g, 'class') === kind);
    expect(groupsOf('node')).toHaveLength(recorded.xray.nodes.length);
    expect(groupsOf('edge')).toHaveLength(recorded.xray.edges.length);
    expect(textOf(svg)).toContain(recorded.xray.nodes[0]!.label);
    expect(bodyRows(elements(sections[2]!, 'table')[0]!).map((row) => row[1])).toEqual(
      recorded.xray.nodes.map((node) => node.label),
    );
  });

  it('writes Markdown with the same tables, the commands in code blocks and the picture as an SVG file', async () => {
    const target = join(recorded.dir, 'ticket.md');
    const { code, stderr } = await dpx(['report', recorded.file, '-o', target]);
    expect(code, stderr).toBe(0);
    const markdown = readFileSync(target, 'utf8');
    for (const token of recorded.tokens) expect(markdown).not.toContain(token);
    expect(markdown).toMatch(/```sh\ndpx --trail \S+ count tasks --by status/);
    const top = recorded.count.rows[1]!;
    const cells = recorded.count.columns.map((column) => top.counts[column]!.toLocaleString('en-US'));
    expect(markdown).toContain(
      `| &nbsp;&nbsp;${top.ou_name} | ${cells.join(' | ')} | ${top.total.toLocaleString('en-US')} |`,
    );
    for (const group of recorded.groups.groups)
      expect(markdown).toContain(`| ${group.key['error_code']!.replace(/_/g, '\\_')} | ${group.count} |`);
    expect(markdown).toContain('](ticket-3.svg)');
    const picture = join(recorded.dir, 'ticket-3.svg');
    expect(existsSync(picture)).toBe(true);
    const svg = readFileSync(picture, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    const parsed = fragment(svg);
    expect(elements(parsed, 'g').filter((g) => attr(g, 'class') === 'node')).toHaveLength(recorded.xray.nodes.length);
    expect(externalReferences(parsed)).toEqual([]);
  });

  it('needs a file whose extension names its format', async () => {
    const none = await dpx(['report', recorded.file]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('-o FILE');
    const other = await dpx(['report', recorded.file, '-o', join(recorded.dir, 'report.pdf')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('.html or .md');
  });
});

describe('a report written days after the case, with the control plane gone', () => {
  it("reads `--since yesterday` as it was when recorded, not against today's clock, and asks nothing", async () => {
    await demo.handle.close();
    vi.useFakeTimers({ now: Date.now() + 2 * 24 * 3600_000, toFake: ['Date'] });
    try {
      const target = join(recorded.dir, 'later.html');
      // Pointed at the closed control plane: a request would fail the report.
      const { code, stderr } = await dpx(['report', recorded.file, '-o', target], {
        env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal },
      });
      expect(code, stderr).toBe(0);
      const matrix = elements(elements(htmlDocument(readFileSync(target, 'utf8')), 'section')[0]!, 'table')[0]!;
      expect(bodyRows(matrix)[0]!.at(-1)).toBe(recorded.count.rows[0]!.total.toLocaleString('en-US'));
    } finally {
      vi.useRealTimers();
    }
  });
});
