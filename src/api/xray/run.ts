// The x-ray's walk: the root read, its links followed breadth first, the inbound candidates queried,
// each answer turned into nodes and edges and sent on as an event as it arrives.
import type { Catalog, Resource, ResourceVersion } from '../hal/catalog.js';
import { CancelledError, ProtocolError, toDpxError, UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { parseVendorMediaType } from '../media.js';
import { findReadOperation, operationsHint, resolveVersion } from '../hal/operation.js';
import { isListEnvelope, readPage } from '../session/pages.js';
import { routeFor } from '../hal/routes.js';
import type { ApiResponse } from '../wire/response.js';
import type { PreparedRequest, Session } from '../session/session.js';
import { Bounded } from '../bounded.js';
import { nodeKey, XrayGraph, type XrayEdge, type XrayNode } from './graph.js';
import { timeline, type TimelineEntry } from './history.js';
import { InboundLookups } from './lookups.js';
import { linkTargets } from './outbound.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_DEPTH,
  DEFAULT_MAX_NODES,
  type XrayCost,
  type XrayEvent,
  type XrayNote,
  type XrayOptions,
  type XrayResult,
  type XrayTarget,
} from './types.js';
import { originOf, recordNode, selfUrl } from './nodes.js';

/** One x-ray from start to result: what it has read, what it owes, and the events it has sent. */
export class XrayRun {
  private readonly graph = new XrayGraph();
  private readonly pool: Bounded;
  private readonly controller = new AbortController();
  private readonly cost: XrayCost = { records: 0, fieldPages: 0, inboundQueries: 0 };
  private readonly notes: XrayNote[] = [];
  /** Nodes the outbound walk reached, in order; a record met only on an inbound page is not one of them. */
  private readonly outbound = new Set<string>();
  private readonly lookups: InboundLookups;
  private readonly depth: number;
  private readonly maxNodes: number;
  private rootKey = '';
  private sent = 0;
  /** Links the record cap left unfollowed. */
  private linksCut = 0;

  constructor(
    private readonly session: Session,
    private readonly options: XrayOptions,
    private readonly emit: (event: XrayEvent) => void,
  ) {
    this.pool = new Bounded(options.concurrency ?? DEFAULT_CONCURRENCY);
    this.depth = options.depth ?? DEFAULT_DEPTH;
    this.maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
    this.lookups = new InboundLookups({
      session,
      graph: this.graph,
      cost: this.cost,
      ou: options.ou,
      ...(options.inboundPageSize === undefined ? {} : { pageSize: options.inboundPageSize }),
      signal: this.controller.signal,
      ...(options.filterStore === undefined ? {} : { filterStore: options.filterStore }),
      rootKey: () => this.rootKey,
      send: (request) => this.send(request),
      note: (kind, text) => this.note(kind, text),
      emit,
      emitNode: (node) => this.emitNode(node),
      connect: (edge) => this.connect(edge),
    });
    const outer = options.signal;
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', () => this.controller.abort(outer.reason), { once: true });
  }

  stop(): void {
    this.controller.abort();
  }

  async start(target: XrayTarget): Promise<XrayResult> {
    if (this.options.inbound !== false) this.lookups.prepare();
    const catalog = await this.session.catalog();
    const { resource, version: resolved } = resolveVersion(catalog, target);
    const version = resolved.version;

    let root: XrayNode;
    let id: string | number;
    let read: PreparedRequest | undefined;
    if ('record' in target) {
      const raw = target.record['id'];
      if (typeof raw !== 'string' && typeof raw !== 'number')
        throw new UsageError('the record has no id', 'an x-ray starts from a record with an id field');
      id = raw;
      const url =
        target.url ??
        selfUrl(target.record, this.session.baseUrl) ??
        (await this.readRequest(resource, resolved, String(raw))).url;
      root = recordNode(nodeKey(url), url, resource.name, version, 0, target.record);
    } else {
      id = target.id;
      read = await this.readRequest(resource, resolved, target.id);
      root = {
        key: nodeKey(read.url),
        url: read.url,
        resource: resource.name,
        version,
        id: target.id,
        label: target.id,
        depth: 0,
        state: 'pending',
      };
    }
    this.rootKey = root.key;
    this.addOutbound(root);

    const inbound = this.options.inbound === false ? Promise.resolve() : this.lookups.search(catalog, resource, id);
    // The inbound queries need only the id, so they start with the root's own request, not after it.
    inbound.catch(() => undefined);
    try {
      if (read) await this.readRoot(root, read);
      await this.walk(catalog, root);
      await inbound;
    } catch (error) {
      this.controller.abort();
      throw error;
    }
    const entries = timeline(this.lookups.referringRecords());
    if (this.options.inbound !== false) this.emit({ kind: 'timeline', entries });
    return this.result(entries);
  }

  private async readRequest(resource: Resource, version: ResourceVersion, id: string): Promise<PreparedRequest> {
    const read = findReadOperation(resource, version.version);
    if (!read)
      throw new UsageError(
        `${resource.name} ${version.version} has no operation that reads one record by id`,
        operationsHint(version),
      );
    return this.session.prepare({
      resource: resource.name,
      version: version.version,
      operationId: read.operation.id,
      variables: { [read.operation.pathVariables[0]!]: id },
      ou: this.options.ou,
    });
  }

  /** The root must be read for anything else to mean something: its failure is the x-ray's. */
  private async readRoot(root: XrayNode, request: PreparedRequest): Promise<void> {
    this.cost.records += 1;
    const response = await this.send(request);
    if (!isObject(response.body) || isListEnvelope(response.body)) {
      throw new ProtocolError(
        `the answer from ${response.url} is not one record`,
        'the read operation of this resource answered with something else',
      );
    }
    this.loaded(root, response, response.body);
  }

  /** Breadth first, level by level: a record's depth is its shortest distance, whatever answers first. */
  private async walk(catalog: Catalog, root: XrayNode): Promise<void> {
    let level = [root];
    for (let depth = 0; level.length > 0; depth += 1) {
      const next: XrayNode[] = [];
      let beyond = 0;
      let capped = 0;
      for (const node of level) {
        if (node.state !== 'loaded' || !node.record || !node.resource) continue;
        const { targets, skipped } = linkTargets(node.record, node.resource, this.session.baseUrl);
        for (const skip of skipped)
          this.note('link-skipped', `${node.resource} ${node.label}: ${skip.via} not followed: ${skip.reason}`);
        for (const link of targets) {
          const known = this.graph.find(link.url);
          if (known && this.outbound.has(known.key)) {
            this.connect({ from: node.key, to: known.key, rel: link.rel, direction: 'out', via: link.via });
            continue;
          }
          if (depth >= this.depth) {
            beyond += 1;
            continue;
          }
          if (this.outbound.size >= this.maxNodes) {
            capped += 1;
            continue;
          }
          const child = this.linkNode(catalog, link.url, link.rel, node, depth + 1);
          this.addOutbound(child, node.key);
          this.connect({ from: node.key, to: child.key, rel: link.rel, direction: 'out', via: link.via });
          if (child.state === 'pending') next.push(child);
        }
      }
      if (beyond > 0)
        this.note(
          'beyond-depth',
          `${beyond} ${beyond === 1 ? 'link leads' : 'links lead'} past depth ${this.depth}; not followed`,
        );
      if (capped > 0) {
        this.linksCut += capped;
        this.note(
          'node-cap',
          `${capped} ${capped === 1 ? 'link' : 'links'} not followed: the x-ray holds ${this.maxNodes} records at most`,
        );
      }
      await Promise.all(next.map((node) => this.load(node)));
      level = next;
    }
  }

  /** A record a link points at, before it is read; one on another origin is never sent the token. */
  private linkNode(catalog: Catalog, url: string, rel: string, parent: XrayNode, depth: number): XrayNode {
    const route = routeFor(catalog, url, this.session.baseUrl);
    const node: XrayNode = {
      key: nodeKey(url),
      url,
      resource: route?.resource ?? parent.resource!,
      version: route?.version ?? parent.version!,
      label: rel,
      depth,
      state: 'pending',
    };
    const origin = originOf(url);
    if (origin !== this.session.origin) {
      node.state = 'not-followed';
      node.error = `on ${origin ?? 'an unreadable URL'}, not ${this.session.origin}: not followed`;
      node.hint = 'the token is only ever sent to the control plane it was issued for';
    }
    return node;
  }

  private async load(node: XrayNode): Promise<void> {
    try {
      const request = this.session.prepareLink(node.url!, {
        resource: node.resource!,
        version: node.version!,
        ou: this.options.ou,
      });
      this.cost.records += 1;
      const response = await this.send(request);
      const media = parseVendorMediaType(response.contentType);
      if (media) {
        node.resource = media.resource;
        node.version = media.version;
      }
      if (isListEnvelope(response.body)) {
        const page = readPage(response);
        node.count = page.totalCount ?? page.items.length;
        node.label = `${node.count} ${node.resource} (${node.label})`;
        node.state = 'loaded';
        this.emitNode(node);
      } else if (isObject(response.body)) {
        this.loaded(node, response, response.body);
      } else {
        throw new ProtocolError(
          `the answer from ${response.url} is not a JSON object`,
          'the link leads to something other than a record',
        );
      }
    } catch (error) {
      if (this.controller.signal.aborted) throw error;
      const failure = toDpxError(error);
      node.state = 'failed';
      node.error = failure.message;
      node.hint = failure.hint;
      this.emitNode(node);
    }
  }

  private loaded(node: XrayNode, response: ApiResponse, record: Record<string, unknown>): void {
    Object.assign(
      node,
      recordNode(node.key, node.url ?? response.url, node.resource!, node.version!, node.depth, record),
    );
    const self = selfUrl(record, this.session.baseUrl);
    if (self) this.graph.alias(self, node.key);
    this.emitNode(node);
  }

  private addOutbound(node: XrayNode, parent?: string): void {
    this.graph.add(node, parent);
    this.outbound.add(node.key);
    this.emitNode(node);
  }

  private connect(edge: Omit<XrayEdge, 'cycle'>): void {
    this.emit({ kind: 'edge', edge: { ...this.graph.connect(edge) } });
  }

  private emitNode(node: XrayNode): void {
    this.emit({ kind: 'node', node: { ...node } });
  }

  private note(kind: XrayNote['kind'], text: string): void {
    const note = { kind, text };
    this.notes.push(note);
    this.emit({ kind: 'note', note });
  }

  private send(request: PreparedRequest): Promise<ApiResponse> {
    return this.pool.run(() => {
      // A request that waited in the pool past the stop is not sent, and fails as a cancelled one does.
      if (this.controller.signal.aborted)
        throw new CancelledError(
          `cancelled: ${request.method} ${request.url}`,
          'the x-ray was stopped before it was sent',
        );
      this.sent += 1;
      return this.session.send(request, { signal: this.controller.signal });
    });
  }

  private result(entries: TimelineEntry[]): XrayResult {
    const order = new Map<string, number>();
    for (const key of this.outbound) if (!order.has(key)) order.set(key, order.size);
    const groups = this.lookups.groups;
    for (const group of groups) for (const key of group.keys) if (!order.has(key)) order.set(key, order.size);
    const nodes = [...this.graph.nodes.values()].sort(
      (a, b) => (order.get(a.key) ?? Infinity) - (order.get(b.key) ?? Infinity),
    );
    const groupOf = (edge: XrayEdge) =>
      groups.findIndex((group) => group.candidate.via === edge.via && group.keys.includes(edge.from));
    const edges = [
      ...this.graph.edges.filter((edge) => edge.direction === 'out'),
      ...this.graph.edges.filter((edge) => edge.direction === 'in').sort((a, b) => groupOf(a) - groupOf(b)),
    ];
    return {
      root: this.rootKey,
      nodes,
      edges,
      inbound: groups,
      timeline: entries,
      notes: this.notes,
      ...(this.linksCut > 0 ? { cut: { maxNodes: this.maxNodes, linksNotFollowed: this.linksCut } } : {}),
      requests: this.sent,
      cost: { ...this.cost },
    };
  }
}
