// An x-ray printed three ways: an indented tree for a person (status words coloured by meaning), the
// JSON document of the issue for programs, and Graphviz dot for a picture. Every text that came from the
// server goes through oneLine first: a record's name must not carry escape sequences to the terminal.
import { unsearchableText, type XrayEdge, type XrayNode, type XrayResult } from '../../api/xray/xray.js';
import { cellWidth, oneLine, pad } from '../../text/cells.js';
import { paint, statusTone, TONE_COLOURS, type ColourName } from '../../text/colour.js';

/**
 * `{"root", "nodes": [{key, resource, id, label, status, url, error}], "edges": [{from, to, rel, direction,
 * via}], "unsearchable": [{list, field, reason, code, message}], "cut", "requests"}`: `unsearchable` names
 * the lists that refused (or ignored) every form of the filter, `cut` the record cap when it left links
 * unfollowed (else null).
 */
export function xrayDocument(result: XrayResult): object {
  return {
    root: result.root,
    nodes: result.nodes.map((node) => ({
      key: node.key,
      resource: node.resource ?? null,
      id: node.id ?? null,
      label: node.label,
      status: node.status ?? null,
      url: node.url ?? null,
      error: node.error ?? null,
    })),
    edges: result.edges.map((edge) => ({
      from: edge.from,
      to: edge.to,
      rel: edge.rel,
      direction: edge.direction,
      via: edge.via,
    })),
    unsearchable: result.inbound.flatMap((group) => {
      const found = group.unsearchable;
      return found
        ? [
            {
              list: found.list,
              field: found.field,
              via: group.candidate.via,
              reason: found.reason,
              code: found.code === '' ? null : found.code,
              message: found.message,
            },
          ]
        : [];
    }),
    cut: result.cut ? { max_records: result.cut.maxNodes, links_not_followed: result.cut.linksNotFollowed } : null,
    requests: result.requests,
  };
}

export function xrayTree(result: XrayResult, options: { colour: boolean; depth: number; inbound: boolean }): string {
  const nodes = new Map(result.nodes.map((node) => [node.key, node]));
  const root = nodes.get(result.root)!;
  const lines: string[] = [nodeLine(root, options.colour)];

  const out = result.edges.filter((edge) => edge.direction === 'out');
  // A record sits under the edge the walk first reached it by (its shortest path); every other edge to it is a line saying so.
  const treeEdges = new Set<XrayEdge>();
  const reached = new Set<string>([root.key]);
  for (const edge of out) {
    if (reached.has(edge.to)) continue;
    reached.add(edge.to);
    treeEdges.add(edge);
  }
  const branch = (from: string, prefix: string): void => {
    const edges = out.filter((edge) => edge.from === from);
    edges.forEach((edge, index) => {
      const last = index === edges.length - 1;
      const target = nodes.get(edge.to);
      if (!target) return;
      const lead = `${prefix}${last ? '└─ ' : '├─ '}${oneLine(edge.rel)} → `;
      if (!treeEdges.has(edge)) {
        const mark = edge.cycle ? '↺ cycle' : '(elsewhere in this tree)';
        lines.push(
          `${lead}${oneLine(target.resource ?? '')}  ${oneLine(target.label)}  ${paint(mark, 'muted', options.colour)}`,
        );
        return;
      }
      lines.push(`${lead}${nodeLine(target, options.colour)}`);
      branch(edge.to, `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  lines.push('', `Links (depth ${options.depth})`);
  if (out.some((edge) => edge.from === root.key)) branch(root.key, '');
  else lines.push('  none');
  if (result.cut) {
    const { maxNodes, linksNotFollowed } = result.cut;
    lines.push(
      paint(
        `cut: ${linksNotFollowed} ${linksNotFollowed === 1 ? 'link was' : 'links were'} not followed: ` +
          `the x-ray holds ${maxNodes} records at most (a partial answer)`,
        'bad',
        options.colour,
      ),
    );
  }

  if (options.inbound) {
    lines.push('', 'Referred to by');
    const groups = result.inbound.filter((group) => group.unsearchable === undefined);
    const unsearchable = result.inbound.flatMap((group) => group.unsearchable ?? []);
    if (groups.length === 0 && unsearchable.length === 0) lines.push('  nothing found that could refer to it');
    groups.forEach((group, index) => {
      const last = index === groups.length - 1 && unsearchable.length === 0;
      const shown = group.error === undefined ? group.keys.length : 0;
      const count =
        group.error !== undefined
          ? paint(`error: ${oneLine(group.error)}`, 'bad', options.colour)
          : group.total !== undefined
            ? `${group.total}${group.total > shown ? `, first ${shown} shown` : ''}`
            : shown === 0
              ? '0'
              : `${shown} on the first page (the list sends no total_count)`;
      lines.push(
        `${last ? '└─ ' : '├─ '}${oneLine(group.candidate.resource)} by ${oneLine(group.candidate.via)}: ${count}`,
      );
      if (group.error !== undefined) return;
      group.keys.forEach((key, row) => {
        const node = nodes.get(key);
        if (node)
          lines.push(
            `${last ? '   ' : '│  '}${row === group.keys.length - 1 ? '└─ ' : '├─ '}${nodeLine(node, options.colour)}`,
          );
      });
    });
    // A list that cannot be searched is said to be so: an empty section must mean that nothing refers.
    unsearchable.forEach((entry, index) => {
      lines.push(
        `${index === unsearchable.length - 1 ? '└─ ' : '├─ '}${paint(oneLine(unsearchableText(entry)), 'busy', options.colour)}`,
      );
    });

    lines.push('', 'History (newest first)');
    if (result.timeline.length === 0) {
      lines.push('  no referring record carries a timestamp');
    } else {
      const used = (part: 'when' | 'who' | 'what' | 'outcome') =>
        oneLine([...new Set(result.timeline.flatMap((entry) => entry.fields[part] ?? []))].join(', ')) || '—';
      lines.push(
        `  fields read: when ← ${used('when')}; who ← ${used('who')}; what ← ${used('what')}; outcome ← ${used('outcome')}`,
      );
      const rows = result.timeline.map((entry) =>
        [entry.when, entry.who ?? '—', entry.what ?? '—', entry.outcome ?? '—'].map(oneLine),
      );
      const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => cellWidth(row[column]!))));
      for (const [index, row] of rows.entries()) {
        const outcome = row[3]!;
        const entry = result.timeline[index]!;
        lines.push(
          `  ${row
            .slice(0, 3)
            .map((cell, column) => pad(cell, widths[column]!))
            .join(
              '  ',
            )}  ${paint(outcome, statusTone(outcome), options.colour)}  ${paint(oneLine(entry.resource), 'muted', options.colour)}`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function nodeLine(node: XrayNode, colour: boolean): string {
  const parts = [oneLine(node.resource ?? '?'), oneLine(node.label)];
  if (node.status) parts.push(paint(oneLine(node.status), statusTone(node.status), colour));
  if (node.id && node.id !== node.label) parts.push(paint(oneLine(node.id), 'muted', colour));
  if (node.error) parts.push(paint(`error: ${oneLine(node.error)}`, 'bad', colour));
  return parts.join('  ');
}

const DOT_COLOURS: Record<ColourName, string> = {
  red: 'red3',
  green: 'green4',
  yellow: 'darkgoldenrod',
  blue: 'blue3',
  magenta: 'magenta3',
  cyan: 'cyan4',
  gray: 'gray50',
};

/** Graphviz: records as boxes coloured by status, links as solid arrows, inbound references dashed, cycles dotted. */
export function xrayDot(result: XrayResult): string {
  const ids = new Map(result.nodes.map((node, index) => [node.key, `n${index}`]));
  const lines = [
    'digraph xray {',
    '  rankdir=LR;',
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  for (const node of result.nodes) {
    const label = [
      node.resource ?? '?',
      node.label,
      node.status,
      node.error ? `error: ${node.error}` : undefined,
    ].filter((part): part is string => part !== undefined);
    const colour = node.error ? 'red' : node.status ? TONE_COLOURS[statusTone(node.status)] : undefined;
    const attributes = [`label=${dotString(label.map((part) => oneLine(part)).join('\n'))}`];
    if (colour) attributes.push(`color=${DOT_COLOURS[colour]}`);
    if (node.key === result.root) attributes.push('penwidth=2');
    if (node.url) attributes.push(`tooltip=${dotString(oneLine(node.url))}`);
    lines.push(`  ${ids.get(node.key)} [${attributes.join(', ')}];`);
  }
  for (const edge of result.edges) {
    const from = ids.get(edge.from);
    const to = ids.get(edge.to);
    if (from && to) lines.push(`  ${from} -> ${to} [${edgeAttributes(edge).join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function edgeAttributes(edge: XrayEdge): string[] {
  const attributes = [`label=${dotString(oneLine(edge.rel))}`];
  if (edge.direction === 'in')
    attributes.push('style=dashed', `tooltip=${dotString(oneLine(`found by filtering on ${edge.via}`))}`);
  else if (edge.cycle) attributes.push('style=dotted', `color=${DOT_COLOURS.gray}`);
  return attributes;
}

/** A dot double-quoted string: backslash and quote escaped, line breaks as \n. */
function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
