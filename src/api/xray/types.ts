// What an x-ray is asked and what it answers: its options, its target, its events as they are learned
// and its whole result.
import type { OuChoice } from '../session/session.js';
import type { XrayEdge, XrayNode } from './graph.js';
import type { TimelineEntry } from './history.js';
import type { FilterForm, FilterStore } from './filters.js';
import type { InboundCandidate } from './inbound.js';

export const DEFAULT_DEPTH = 2;
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_MAX_NODES = 500;

export interface XrayOptions {
  /** Links followed from the root (default 2); 0 reads the root alone. */
  depth?: number;
  /** Look for lists that refer to the record (default true). */
  inbound?: boolean;
  /**
   * Records asked for per inbound candidate; by default the largest page the list takes (learned once per
   * list and session, session/page-size.ts). total_count says how many there are.
   */
  inboundPageSize?: number;
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  /** Records the outbound walk creates at most (default 500); links past it are counted, not followed. */
  maxNodes?: number;
  /** The unit every request is made in: undefined for the session's current one, null for none, else that unit (the one the record was read in). */
  ou?: OuChoice;
  /** Where what the lists taught about filters (form, fields, type fields) is kept between runs. */
  filterStore?: FilterStore;
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
  /** The form of filter the list answered in. */
  form?: FilterForm;
  /** The list refused (400) or ignored the filter in every form: it cannot be searched for this record. */
  unsearchable?: Unsearchable;
  /** The query failed otherwise; the candidate's node carries the error. */
  error?: string;
}

/** A list that cannot be searched on a field: shown as such, never as an empty answer. */
export interface Unsearchable {
  list: string;
  /** The field it refused (or the pair, `a_type/a_id`, when it is not known which of the two). */
  field: string;
  /** `refused`: a 400 to every form; `ignored`: answers that did not apply the filter. */
  reason: 'refused' | 'ignored';
  /** The server's error code, as text; empty when it sent none. */
  code: string;
  message: string;
  /** Known from an earlier answer (the cache): not asked this time. */
  remembered?: boolean;
  /** The filters asked, each with its forms: `primary_entity.type+primary_entity.id (operator, bare)`. */
  tried?: string[];
}

export interface XrayNote {
  kind: 'link-skipped' | 'beyond-depth' | 'node-cap' | 'fields-unknown' | 'unsearchable';
  text: string;
}

/** The x-ray's record cap cut the walk: how many links it left unfollowed. */
export interface XrayCut {
  maxNodes: number;
  linksNotFollowed: number;
}

export interface XrayCost {
  /** Records read: the root when it was not given, and each distinct record the links reached. */
  records: number;
  /**
   * Lists read for one small page of their own records (at most 20), whose fields are joined with the
   * schema's: at most one per list the x-ray can ask, and none for a list this session or the cache
   * (a month) already learned.
   */
  fieldPages: number;
  /**
   * Filtered queries: one per inbound candidate, one more for each filter form a list refused, and one
   * more for each list that refused the large page asked first (once per list and session: the refusal
   * names the largest page, and the query is asked again at it).
   */
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
  /** Set when the record cap cut the walk: the answer is partial. */
  cut?: XrayCut;
  /** Requests this x-ray sent: cost.records + cost.fieldPages + cost.inboundQueries. */
  requests: number;
  cost: XrayCost;
}
