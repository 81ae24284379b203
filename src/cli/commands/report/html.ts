// A report as one self-contained HTML file: its style inline, its pictures inline SVG, no script, and a
// Content-Security-Policy that lets the page fetch nothing at all. Every text from the case (command
// lines, names, notes) is made inert and then escaped: it is text in the page, never markup.

import { visible } from '../../../api/visible.js';
import { count, when } from '../../format/phrases.js';
import { openingOf } from './answer.js';
import type { Report, ReportSection } from './sections.js';
import type { ReportTable } from './tables.js';

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; color: #1f2328; margin: 2rem auto; max-width: 75rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; } h2 { font-size: 1.15rem; margin: 2.5rem 0 .5rem; border-bottom: 1px solid #d0d7de; padding-bottom: .25rem; }
.meta { color: #59636e; } dl { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: .5rem 0; } dt { color: #59636e; } dd { margin: 0; }
pre { background: #f6f8fa; padding: .6rem .8rem; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .75rem 0; font-variant-numeric: tabular-nums; } caption { caption-side: bottom; text-align: left; color: #59636e; padding-top: .3rem; white-space: nowrap; }
th, td { border-bottom: 1px solid #e5e8eb; padding: .2rem .6rem; text-align: left; white-space: nowrap; } th { background: #f6f8fa; } .num { text-align: right; }
figure { margin: 1rem 0; overflow-x: auto; } figure svg { max-width: 100%; height: auto; } .notes { color: #59636e; font-size: .9em; } .error { color: #b42318; }
`;

export function reportHtml(report: Report): string {
  const title = `Case report: ${report.source}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${text(title)}</h1>
<p class="meta">${text(`${count(report.sections.length, 'command')}, ${count(report.requests, 'request')}, against ${report.baseUrl}; written by ${report.creator || 'an unknown tool'}. Every answer below was rebuilt from the case: nothing was sent.`)}</p>
</header>
${opening(report)}
${report.sections.map(section).join('\n')}
</body>
</html>
`;
}

/** The answer first: each question, its window, and the first of its ranking by name and region. */
function opening(report: Report): string {
  const items = openingOf(report.sections).map((line) => {
    const details = [
      `asked of: ${line.where}`,
      ...(line.window === undefined ? [] : [`window: ${line.window}`]),
      ...(line.error === undefined ? [] : [`not answered from the case: ${line.error}`]),
      ...line.ranking,
      ...(line.summary === undefined ? [] : [line.summary]),
    ];
    return `<li value="${line.number}"><code>${text(line.question)}</code>${details.length > 0 ? `<ul>${details.map((detail) => `<li>${text(detail)}</li>`).join('')}</ul>` : ''}</li>`;
  });
  return `<div id="answer"><h2>The answer</h2><ol>${items.join('\n')}</ol></div>`;
}

function section(part: ReportSection): string {
  return `<section id="command-${part.number}" data-command="${text(part.word ?? '')}">
<h2>${part.number}. ${text(part.word ? `dpx ${part.word}` : 'a page')}</h2>
<dl>
<dt>time</dt><dd><time datetime="${text(part.startedAt)}">${text(when(part.startedAt))}</time></dd>
<dt>profile</dt><dd>${text(part.profile)}</dd>
<dt>origin</dt><dd>${text(part.origin)}</dd>
<dt>unit</dt><dd>${text(part.unit)}</dd>
<dt>recorded</dt><dd>${text(`${count(part.requests, 'request')}, ${count(part.records, 'record')}`)}</dd>
</dl>
<pre><code>${text(part.commandLine)}</code></pre>
${part.error ? `<p class="error">${text(`not answered from the case: ${part.error}`)}</p>` : ''}
${part.svg ? `<figure>${part.svg}<figcaption>${text('the x-ray, laid out by Graphviz: links solid, references found by a filter dashed, cycles dotted')}</figcaption></figure>` : ''}
${part.tables.map(table).join('\n')}
${part.notes.length > 0 ? `<pre class="notes">${text(part.notes.join('\n'))}</pre>` : ''}
</section>`;
}

function table(data: ReportTable): string {
  const head = data.columns
    .map((column, index) => `<th${data.numeric[index] ? ' class="num"' : ''} scope="col">${text(column)}</th>`)
    .join('');
  const rows = data.rows
    .map(
      (row) =>
        `<tr>${row.cells
          .map((cell, index) => {
            const indent =
              index === data.columns.indexOf('unit') && row.depth
                ? ` style="padding-left:${0.6 + 1.2 * row.depth}rem"`
                : '';
            return `<td${data.numeric[index] ? ' class="num"' : ''}${indent}>${text(cell)}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table data-kind="${data.kind}">
${data.caption ? `<caption>${text(data.caption)}</caption>\n` : ''}<thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

/** Case text as page text: controls made visible, then the five characters HTML reads as markup escaped. */
function text(value: string): string {
  return visible(value, { lines: true }).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
