// An x-ray as the lines of a foldable tree: the record, what its links reach (each record under the
// link the walk first reached it by, other links to it marked), then the lists that refer to it, each
// with its referring records.
import { unsearchableText, type InboundGroup, type XrayEdge, type XrayNode } from '../../../api/xray/xray.js';

export type XrayLine =
  | { kind: 'heading'; text: string }
  /** A record; `fold` is set when it has records under it, `mark` when this is not its place in the tree. */
  | { kind: 'node'; key: string; depth: number; rel?: string; fold?: string; mark?: string }
  | { kind: 'group'; fold: string; group: InboundGroup };

export interface XrayView {
  root?: string;
  nodes: Record<string, XrayNode>;
  edges: XrayEdge[];
  inbound: InboundGroup[];
  collapsed: ReadonlySet<string>;
  depth: number;
}

export function xrayLines(view: XrayView): XrayLine[] {
  const { root, nodes, edges, inbound, collapsed } = view;
  if (!root || !nodes[root]) return [];
  const lines: XrayLine[] = [{ kind: 'node', key: root, depth: 0 }];
  const out = edges.filter((edge) => edge.direction === 'out');
  const placed = new Set<XrayEdge>();
  const reached = new Set([root]);
  for (const edge of out) {
    if (reached.has(edge.to)) continue;
    reached.add(edge.to);
    placed.add(edge);
  }
  const branch = (from: string, depth: number): void => {
    for (const edge of out.filter((candidate) => candidate.from === from)) {
      if (!nodes[edge.to]) continue;
      if (!placed.has(edge)) {
        lines.push({
          kind: 'node',
          key: edge.to,
          depth,
          rel: edge.rel,
          mark: edge.cycle ? '↺ cycle' : 'elsewhere in this tree',
        });
        continue;
      }
      const hasChildren = out.some((child) => child.from === edge.to);
      lines.push({ kind: 'node', key: edge.to, depth, rel: edge.rel, ...(hasChildren ? { fold: edge.to } : {}) });
      if (hasChildren && !collapsed.has(edge.to)) branch(edge.to, depth + 1);
    }
  };
  lines.push({ kind: 'heading', text: `links (depth ${view.depth})` });
  branch(root, 1);
  const groups = inbound.filter((group) => group.unsearchable === undefined);
  lines.push({
    kind: 'heading',
    text:
      groups.length > 0 || inbound.some((group) => group.unsearchable)
        ? 'referred to by'
        : 'referred to by: nothing found yet that could refer to it',
  });
  for (const group of groups) {
    const fold = `in:${group.candidate.resource}:${group.candidate.via}`;
    lines.push({ kind: 'group', fold, group });
    if (!collapsed.has(fold)) for (const key of group.keys) if (nodes[key]) lines.push({ kind: 'node', key, depth: 2 });
  }
  // A list that cannot be searched is said to be so, not left out as if nothing in it referred.
  for (const group of inbound)
    if (group.unsearchable) lines.push({ kind: 'heading', text: `  ${unsearchableText(group.unsearchable)}` });
  return lines;
}
