// What points at the x-ray's record: the lists whose fields can name it, each asked with a filter on
// that field, and the records they answer with turned into nodes and edges towards the root. The walk
// (run.ts) hands down what these lookups may touch as a port, so they know nothing else of it.
import { findResource, type Catalog, type Resource } from '../hal/catalog.js';
import { ApiError, messageOf, toDpxError, type DpxError } from '../errors.js';
import { listRequest, readPage } from '../session/pages.js';
import type { ApiResponse } from '../wire/response.js';
import type { PreparedRequest, Session } from '../session/session.js';
import { knownListFields, learnListFields, listResources, type ListFields } from './fields.js';
import { nodeKey, type XrayEdge, type XrayGraph, type XrayNode } from './graph.js';
import { inboundCandidates, refersTo, type InboundCandidate } from './inbound.js';
import { readUrl, recordNode, selfUrl } from './nodes.js';
import type { InboundGroup, XrayCost, XrayEvent, XrayNote, XrayOptions } from './types.js';

/** What of the walk the lookups use. */
export interface LookupPort {
  session: Session;
  graph: XrayGraph;
  cost: XrayCost;
  ou: XrayOptions['ou'];
  pageSize: number;
  signal: AbortSignal;
  rootKey(): string;
  send(request: PreparedRequest): Promise<ApiResponse>;
  note(kind: XrayNote['kind'], text: string): void;
  emit(event: XrayEvent): void;
  emitNode(node: XrayNode): void;
  connect(edge: Omit<XrayEdge, 'cycle'>): void;
}

export class InboundLookups {
  /** One group per candidate list, in the order the candidates were found. */
  readonly groups: InboundGroup[] = [];
  private readonly records = new Map<string, { resource: string; record: Record<string, unknown> }>();

  constructor(private readonly port: LookupPort) {}

  /** The records that refer to the root, in the groups' order: what the timeline is made of. */
  referringRecords(): { key: string; resource: string; record: Record<string, unknown> }[] {
    return this.groups.flatMap((group) => group.keys.flatMap((key) => {
      const found = this.records.get(key);
      return found ? [{ key, ...found }] : [];
    }));
  }

  async search(catalog: Catalog, target: Resource, id: string | number): Promise<void> {
    const lists = await Promise.all(listResources(catalog).map((list) => this.fieldsOf(list)));
    const candidates = inboundCandidates(catalog, target, id, lists.filter((list): list is ListFields => list !== undefined));
    await Promise.all(candidates.map((candidate, index) => this.query(catalog, candidate, index, target, id)));
  }

  private async fieldsOf(list: Resource): Promise<ListFields | undefined> {
    const known = knownListFields(this.port.session, list, this.port.ou);
    if (known) return known;
    this.port.cost.fieldPages += 1;
    try {
      return await learnListFields(this.port.session, list, this.port.ou, (request) => this.port.send(request));
    } catch (error) {
      if (this.port.signal.aborted) throw error;
      this.port.note('fields-unknown', `${list.name}: fields not learned, so not searched for references: ${messageOf(error)}`);
      return undefined;
    }
  }

  private async query(catalog: Catalog, candidate: InboundCandidate, index: number, target: Resource, id: string | number): Promise<void> {
    const group: InboundGroup = { candidate, keys: [] };
    this.groups[index] = group;
    const where = `${candidate.resource} by ${candidate.via}`;
    try {
      const request = await listRequest(this.port.session, { resource: candidate.resource, version: candidate.version, filter: JSON.stringify(candidate.filter), pageSize: this.port.pageSize, ou: this.port.ou });
      group.url = request.url;
      this.port.cost.inboundQueries += 1;
      const response = await this.port.send(request);
      const page = readPage(response);
      const referring = page.items.filter((record) => refersTo(record, candidate, target, id));
      if (referring.length < page.items.length) {
        this.refuse(group, `${where}: the server did not apply the filter (${page.items.length - referring.length} of ${page.items.length} records on the page do not refer to this record)`);
      } else {
        if (page.totalCount !== undefined) group.total = page.totalCount;
        const list = findResource(catalog, candidate.resource);
        for (const record of referring) this.referredBy(group, record, list);
      }
    } catch (error) {
      if (this.port.signal.aborted) throw error;
      if (error instanceof ApiError && error.status === 400) {
        this.refuse(group, `${where}: the server refused the filter: ${error.message}`);
      } else {
        this.failedCandidate(group, toDpxError(error));
      }
    }
    this.port.emit({ kind: 'inbound', group: { ...group, keys: [...group.keys] } });
  }

  /** A record on a candidate's page: a node of its own unless the walk already has it, and an edge to the root. */
  private referredBy(group: InboundGroup, record: Record<string, unknown>, list: Resource | undefined): void {
    const { candidate } = group;
    const url = selfUrl(record, this.port.session.baseUrl) ?? (list && readUrl(list, candidate.version, record, this.port.session.baseUrl));
    const key = url === undefined ? `${nodeKey(group.url!)}#${group.keys.length}` : (this.port.graph.find(url)?.key ?? nodeKey(url));
    if (key === this.port.rootKey()) return;
    group.keys.push(key);
    this.records.set(key, { resource: candidate.resource, record });
    if (!this.port.graph.nodes.has(key)) {
      const node = recordNode(key, url, candidate.resource, candidate.version, 1, record);
      node.state = 'listed';
      this.port.graph.add(node);
      this.port.emitNode(node);
    }
    this.port.connect({ from: key, to: this.port.rootKey(), rel: candidate.rel, direction: 'in', via: candidate.via });
  }

  /** A candidate whose query failed (not refused): a node that shows the error, so no source is lost unseen. */
  private failedCandidate(group: InboundGroup, failure: DpxError): void {
    const { candidate } = group;
    group.error = failure.message;
    const key = nodeKey(group.url ?? `${this.port.session.baseUrl}#${candidate.resource}:${candidate.via}`);
    const node: XrayNode = { key, resource: candidate.resource, version: candidate.version, label: `${candidate.resource} by ${candidate.via}`, depth: 1, state: 'failed', error: failure.message, hint: failure.hint };
    if (group.url) node.url = group.url;
    this.port.graph.add(node);
    this.port.emitNode(node);
    group.keys.push(key);
    this.port.connect({ from: key, to: this.port.rootKey(), rel: candidate.rel, direction: 'in', via: candidate.via });
  }

  private refuse(group: InboundGroup, reason: string): void {
    group.refused = reason;
    this.port.note('candidate-refused', reason);
  }
}
