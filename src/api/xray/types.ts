// What an x-ray is asked and what it answers: its options, its target, its events as they are learned
// and its whole result.
import type { DpxError } from '../errors.js';
import type { OuChoice } from '../session/session.js';
import type { XrayEdge, XrayNode } from './graph.js';
import type { TimelineEntry } from './history.js';
import type { InboundCandidate } from './inbound.js';

export const DEFAULT_DEPTH = 2;
export const DEFAULT_INBOUND_PAGE_SIZE = 10;
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_MAX_NODES = 500;

export interface XrayOptions {
  /** Links followed from the root (default 2); 0 reads the root alone. */
  depth?: number;
  /** Look for lists that refer to the record (default true). */
  inbound?: boolean;
  /** Records asked for per inbound candidate (default 10); total_count says how many there are. */
  inboundPageSize?: number;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  /** Records the outbound walk creates at most (default 500); links past it are counted, not followed. */
  maxNodes?: number;
  /** The unit every request is made in: undefined for the session's current one, null for none, else that unit (the one the record was read in). */
  ou?: OuChoice;
  signal?: AbortSignal;
}

/** The record to x-ray: by resource and id (read first), or a record already in hand (no request for it). */
export type XrayTarget =
  | { resource: string; version?: string; id: string }
  | { resource: string; version?: string; record: Record<string, unknown>; url?: string };

export interface InboundGroup {
  candidate: InboundCandidate;
  /** The filtered query's URL. */
  url?: string;
  /** The list's total_count for the filter, when the server sent one. */
  total?: number;
  /** The referring records on the page, as node keys. */
  keys: string[];
  /** Why the candidate was dropped quietly: the server refused the filter (400), or did not apply it. */
  refused?: string;
  /** The query failed otherwise; the candidate's node carries the error. */
  error?: string;
}

export interface XrayNote {
  kind: 'link-skipped' | 'beyond-depth' | 'node-cap' | 'fields-unknown' | 'candidate-refused';
  text: string;
}

export interface XrayCost {
  /** Records read: the root when it was not given, and each distinct record the links reached. */
  records: number;
  /** Lists whose fields were learned from a page (no schema known, not learned before in this session). */
  fieldPages: number;
  /** Filtered queries, one per inbound candidate. */
  inboundQueries: number;
}

export type XrayEvent =
  /** A node appeared, or one already sent changed (same key): a copy, safe to keep. */
  | { kind: 'node'; node: XrayNode }
  | { kind: 'edge'; edge: XrayEdge }
  /** One inbound candidate answered (or was dropped). */
  | { kind: 'inbound'; group: InboundGroup }
  | { kind: 'note'; note: XrayNote }
  /** Once every inbound candidate has answered. */
  | { kind: 'timeline'; entries: TimelineEntry[] };

export interface XrayResult {
  root: string;
  /** The root, the outbound walk's records in breadth-first order, then the inbound ones by candidate. */
  nodes: XrayNode[];
  /** Outbound edges in walk order, then inbound ones by candidate. */
  edges: XrayEdge[];
  inbound: InboundGroup[];
  timeline: TimelineEntry[];
  notes: XrayNote[];
  /** Requests this x-ray sent: cost.records + cost.fieldPages + cost.inboundQueries. */
  requests: number;
  cost: XrayCost;
}
