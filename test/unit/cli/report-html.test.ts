// A report's writers given text a hostile server or a careless case could hold: markup, quotes,
// Markdown's own characters, control characters. In HTML it stays text (escaped, never markup) and in
// the SVG Graphviz lays out; in Markdown it cannot become a link, a table's edge or the end of a code block.
import { describe, expect, it } from 'vitest';
import type { XrayResult } from '../../../src/api/xray/xray.js';
import { xrayDot } from '../../../src/cli/format/xray.js';
import { reportHtml } from '../../../src/cli/commands/report/html.js';
import { reportMarkdown } from '../../../src/cli/commands/report/markdown.js';
import { svgOf } from '../../../src/cli/commands/report/picture.js';
import type { Report } from '../../../src/cli/commands/report/sections.js';
import { attr, elements, externalReferences, htmlDocument, textOf } from '../../helpers/html.js';

const HOSTILE = '<script>alert(1)</script><img src=http://evil.example/x.png>"\'&\x1b[2J';

const graph: XrayResult = {
  root: 'http://h/a/1',
  nodes: [
    {
      key: 'http://h/a/1',
      resource: 'alphas',
      id: '1',
      label: HOSTILE,
      status: 'failed',
      depth: 0,
      state: 'loaded',
      url: 'http://h/a/1"><script>x</script>',
    },
    { key: 'http://h/b/2', resource: 'betas', id: '2', label: 'two', depth: 1, state: 'loaded', url: 'http://h/b/2' },
  ],
  edges: [
    { from: 'http://h/a/1', to: 'http://h/b/2', rel: 'beta', direction: 'out', via: '_links.beta', cycle: false },
  ],
  inbound: [],
  timeline: [],
  notes: [],
  requests: 2,
  cost: { records: 2, fieldPages: 0, inboundQueries: 0 },
};

async function hostileReport(): Promise<Report> {
  return {
    source: `case${HOSTILE}.har`,
    creator: 'dpx 0.1.0',
    baseUrl: 'http://h',
    requests: 3,
    sections: [
      {
        number: 1,
        commandLine: `dpx xray alphas 1 --filter '${HOSTILE}' \`\`\`\n\`\`\``,
        word: 'xray',
        startedAt: '2026-11-25T10:00:00.000Z',
        profile: HOSTILE,
        origin: 'http://h',
        unit: HOSTILE,
        requests: 3,
        records: 2,
        tables: [
          {
            kind: 'list',
            columns: ['name', 'n'],
            numeric: [false, true],
            rows: [{ cells: [`${HOSTILE} | [link](http://evil.example)`, '7'] }],
          },
        ],
        svg: await svgOf(xrayDot(graph)),
        notes: [HOSTILE],
      },
    ],
  };
}

describe('the report as HTML', () => {
  it('keeps case text as text, in the page and in the picture', async () => {
    const document = htmlDocument(reportHtml(await hostileReport()));
    expect(elements(document, 'script')).toEqual([]);
    expect(elements(document, 'img')).toEqual([]);
    expect(externalReferences(document)).toEqual([]);
    const cell = elements(document, 'td')[0]!;
    expect(textOf(cell)).toBe(
      '<script>alert(1)</script><img src=http://evil.example/x.png>"\'&␛[2J | [link](http://evil.example)',
    );
    const svg = elements(document, 'svg')[0]!;
    expect(elements(svg, 'g').filter((g) => attr(g, 'class') === 'node')).toHaveLength(2);
    expect(textOf(svg)).toContain('<script>alert(1)</script>');
    expect(textOf(document)).not.toContain('\x1b');
  });
});

describe('the report as Markdown', () => {
  it('escapes what Markdown would read, fences commands past their backticks, and names the picture', async () => {
    const { markdown, pictures } = reportMarkdown(await hostileReport(), 'ticket');
    expect([...pictures.keys()]).toEqual(['ticket-1.svg']);
    // Outside code blocks, where a Markdown viewer reads markup and links.
    const prose = markdown.replace(/(`{3,})[a-z]*\n[\s\S]*?\n\1\n/g, '');
    expect(prose).not.toMatch(/<script|<img|(?<!\\)\]\(http/);
    expect(markdown).not.toContain('\x1b');
    // The command's block is fenced by four backticks, so its own three cannot close it.
    expect(markdown).toContain("````sh\ndpx xray alphas 1 --filter '<script>");
    const row = markdown.split('\n').find((line) => line.includes('link'))!;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(4);
  });
});
