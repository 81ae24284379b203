// What an x-ray finds: records as nodes keyed by their URL, and the references between them as edges
// that always point from the referring record to the referred one; `direction` says how dpx found the
// reference (a link the record carries, or a filter on another list).
import { normalisedUrl } from '../urls.js';

export type NodeState =
  /** Asked for, no answer yet. */
  | 'pending'
  /** Read with a request of its own. */
  | 'loaded'
  /** Came on a page of another list: no request of its own. */
  | 'listed'
  /** Its request failed; `error` says why. */
  | 'failed'
  /** Known by its URL only: dpx would not send the request (another origin). */
  | 'not-followed';

export interface XrayNode {
  /** The record's URL, normalised (no fragment, query parameters in name order). */
  key: string;
  resource?: string;
  version?: string;
  id?: string;
  label: string;
  /** The record's status word, when it has one. */
  status?: string;
  url?: string;
  error?: string;
  hint?: string;
  /** Links from the root to here; inbound records sit at 1. */
  depth: number;
  state: NodeState;
  record?: Record<string, unknown>;
  /** A link that led to a list: how many records the list holds (its total_count, else its page). */
  count?: number;
}

export interface XrayEdge {
  from: string;
  to: string;
  /** The link relation (`backup`), or for an inbound reference the stem of its field (`backup` for backup_id). */
  rel: string;
  direction: 'out' | 'in';
  /** Where the reference sits in the referring record: `_links.backup`, `_links.items[2]`, `backup_id`, `target_type/target_id`. */
  via: string;
  /** The edge leads back to a record on the path from the root to `from`. */
  cycle: boolean;
}

/** A URL as the x-ray compares them: absolute, without a fragment, query parameters in name order. */
export const nodeKey = normalisedUrl;

export class XrayGraph {
  readonly nodes = new Map<string, XrayNode>();
  readonly edges: XrayEdge[] = [];
  /** The first node each node was reached from: the tree the outbound walk drew. */
  private readonly parents = new Map<string, string>();
  /** Other URLs of a known node (its self link, when it differs from the URL it was reached by). */
  private readonly aliases = new Map<string, string>();

  /** The node a URL belongs to, by its key or an alias. */
  find(url: string): XrayNode | undefined {
    const key = nodeKey(url);
    return this.nodes.get(this.aliases.get(key) ?? key);
  }

  add(node: XrayNode, parent?: string): XrayNode {
    this.nodes.set(node.key, node);
    if (parent !== undefined) this.parents.set(node.key, parent);
    return node;
  }

  alias(url: string, key: string): void {
    const alias = nodeKey(url);
    if (alias !== key && !this.nodes.has(alias)) this.aliases.set(alias, key);
  }

  connect(edge: Omit<XrayEdge, 'cycle'>): XrayEdge {
    const made: XrayEdge = { ...edge, cycle: edge.direction === 'out' && this.leadsBack(edge.from, edge.to) };
    this.edges.push(made);
    return made;
  }

  /** Whether `to` is `from` or one of the records the walk passed through to reach `from`. */
  private leadsBack(from: string, to: string): boolean {
    for (let at: string | undefined = from; at !== undefined; at = this.parents.get(at)) {
      if (at === to) return true;
    }
    return false;
  }
}
