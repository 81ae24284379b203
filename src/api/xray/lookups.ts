// What points at the x-ray's record: the lists whose fields can name it, each asked with a filter on
// that field, and the records they answer with turned into nodes and edges towards the root. The filter
// is sent in the form the list is known to read, else the operator form and then the bare one
// (filters.ts); a list that refuses every form is named as not searchable, never left silently empty.
// The walk (run.ts) hands down what these lookups may touch as a port, so they know nothing else of it.
import { findResource, type Catalog, type Resource } from '../hal/catalog.js';
import { ApiError, messageOf, toDpxError, type DpxError } from '../errors.js';
import { listRequest, readPage } from '../session/pages.js';
import { scalarPaths } from '../hal/records.js';
import { firstPageAtLargest, recallLargestPages, type Send } from '../session/page-size.js';
import type { ApiResponse } from '../wire/response.js';
import type { PreparedRequest, Session } from '../session/session.js';
import { hintedListFields, learnedListFields, learnListFields, listResources, type ListFields } from './fields.js';
import { FilterKnowledge, type FilterStore, filterIn } from './filters.js';
import { nodeKey, type XrayEdge, type XrayGraph, type XrayNode } from './graph.js';
import {
  inboundCandidates,
  pairTypeFields,
  refersTo,
  typeFieldNamesResources,
  typeFieldValues,
  type InboundCandidate,
} from './inbound.js';
import { attemptsOf, type FailedForm, ignoredText, namesId } from './attempts.js';
import { readUrl, recordNode, selfUrl } from './nodes.js';
import type { InboundGroup, Unsearchable, XrayCost, XrayEvent, XrayNote, XrayOptions } from './types.js';

/** What of the walk the lookups use. */
export interface LookupPort {
  session: Session;
  graph: XrayGraph;
  cost: XrayCost;
  ou: XrayOptions['ou'];
  /** Records asked for per inbound query; undefined: the largest page the list takes. */
  pageSize?: number;
  signal: AbortSignal;
  /** Where what the lists taught about filters is kept between runs, if anywhere. */
  filterStore?: FilterStore;
  rootKey(): string;
  send(request: PreparedRequest): Promise<ApiResponse>;
  note(kind: XrayNote['kind'], text: string): void;
  emit(event: XrayEvent): void;
  emitNode(node: XrayNode): void;
  connect(edge: Omit<XrayEdge, 'cycle'>): void;
}

export class InboundLookups {
  /** The groups of each list, by the list's place in the index: each list's candidates start as soon as its own fields are known. */
  private readonly byList: InboundGroup[][] = [];
  private readonly records = new Map<string, { resource: string; record: Record<string, unknown> }>();

  constructor(private readonly port: LookupPort) {}

  /** One group per candidate list, in the order of the lists in the index and of their fields. */
  get groups(): InboundGroup[] {
    return this.byList.flatMap((groups) => groups ?? []).filter((group) => group !== undefined);
  }

  /** The records that refer to the root, in the groups' order: what the timeline is made of. */
  referringRecords(): { key: string; resource: string; record: Record<string, unknown> }[] {
    return this.groups.flatMap((group) =>
      group.keys.flatMap((key) => {
        const found = this.records.get(key);
        return found ? [{ key, ...found }] : [];
      }),
    );
  }

  /**
   * Starts reading what earlier runs kept (the lists' filters, their largest pages: files), so that the
   * queries do not wait for a disk once the id is known: they are meant to leave with the root's request.
   */
  prepare(): void {
    void FilterKnowledge.of(this.port.session, this.port.filterStore);
    recallLargestPages(this.port.session);
  }

  async search(catalog: Catalog, target: Resource, id: string | number): Promise<void> {
    const knowledge = await FilterKnowledge.of(this.port.session, this.port.filterStore);
    try {
      await Promise.all(
        listResources(catalog).map((resource, listIndex) => {
          const groups: InboundGroup[] = [];
          this.byList[listIndex] = groups;
          return this.searchList(catalog, resource, groups, target, id, knowledge);
        }),
      );
    } finally {
      await knowledge.save();
    }
  }

  /**
   * One list's candidates, from its fields: those a page of its own records taught (this session, or an
   * earlier run through the store), else those of its schema on the spec's vendor, asked at once, and
   * then those the page about to be read adds (each candidate asked once).
   */
  private async searchList(
    catalog: Catalog,
    resource: Resource,
    groups: InboundGroup[],
    target: Resource,
    id: string | number,
    knowledge: FilterKnowledge,
  ): Promise<void> {
    const asked = new Set<string>();
    const ask = async (list: ListFields): Promise<void> => {
      judgeTypeFields(catalog, list, knowledge);
      const candidates = inboundCandidates(catalog, target, id, [list], (of, field) =>
        knowledge.typeField(listKey(of), field),
      ).filter((candidate) => !asked.has(candidate.via));
      for (const candidate of candidates) asked.add(candidate.via);
      await Promise.all(candidates.map((candidate) => this.query(catalog, candidate, groups, target, id, knowledge)));
    };
    const { session, ou } = this.port;
    const learned = learnedListFields(session, resource, ou);
    if (learned) return ask(learned);
    const seen = knowledge.fieldsSeen(listKey({ resource: resource.name, version: resource.defaultVersion }));
    const hinted = hintedListFields(session, resource, seen);
    if (seen && hinted) return ask(hinted);
    await Promise.all([
      hinted && ask(hinted),
      this.sample(resource, hinted, knowledge).then((sampled) => sampled && ask(sampled)),
    ]);
  }

  /** One small page of the list's own records: its fields joined with the schema's, kept for the session and the store. */
  private async sample(
    list: Resource,
    hinted: ListFields | undefined,
    knowledge: FilterKnowledge,
  ): Promise<ListFields | undefined> {
    try {
      const learned = await learnListFields(this.port.session, list, this.port.ou, (request) => {
        this.port.cost.fieldPages += 1;
        return this.port.send(request);
      });
      // An empty page says nothing of the records to come: the next run reads one again.
      if (learned.sample.length > 0) knowledge.sawFields(listKey(learned), scalarPaths(learned.sample));
      return learned;
    } catch (error) {
      if (this.port.signal.aborted) throw error;
      this.port.note(
        'fields-unknown',
        hinted
          ? `${list.name}: its records could not be read, so only the fields its schema names were searched: ${messageOf(error)}`
          : `${list.name}: fields not learned, so not searched for references: ${messageOf(error)}`,
      );
      return undefined;
    }
  }

  private async query(
    catalog: Catalog,
    candidate: InboundCandidate,
    groups: InboundGroup[],
    target: Resource,
    id: string | number,
    knowledge: FilterKnowledge,
  ): Promise<void> {
    const group: InboundGroup = { candidate, keys: [] };
    groups.push(group);
    const list = listKey(candidate);
    const tried: string[] = [];
    let refusedPair: FailedForm | undefined;
    const outcomes: { field: string; failed: FailedForm[]; remembered?: boolean }[] = [];
    for (const attempt of attemptsOf(candidate, id)) {
      const remembered = knowledge.refusal(list, attempt.remembered);
      if (remembered) {
        tried.push(`${attempt.fields.join('+')} (refused before)`);
        const { code, message } = remembered.refusal;
        outcomes.push({
          field: remembered.field,
          failed: [{ form: 'operator', reason: 'refused', code, message }],
          remembered: true,
        });
        continue;
      }
      const forms = knowledge.formsFor(list);
      tried.push(`${attempt.fields.join('+')} (${forms.join(', ')})`);
      const failed: FailedForm[] = [];
      for (const form of forms) {
        try {
          const query = {
            resource: candidate.resource,
            version: candidate.version,
            filter: JSON.stringify(filterIn(form, attempt.filter)),
            ou: this.port.ou,
          };
          const counted: Send = (request) => {
            group.url = request.url;
            this.port.cost.inboundQueries += 1;
            return this.port.send(request);
          };
          // At the largest page the list takes (learned by the first query to the list), unless a page size was given.
          const response =
            this.port.pageSize === undefined
              ? (await firstPageAtLargest(this.port.session, query, counted, this.port.signal)).response
              : await counted(await listRequest(this.port.session, { ...query, pageSize: this.port.pageSize }));
          const page = readPage(response);
          // Asked by the id alone, a record of another kind may share the id: its type, not the filter, tells.
          const named = page.items.filter((record) =>
            attempt.typeChecked ? namesId(record, candidate, id) : refersTo(record, candidate, target, id),
          );
          if (named.length < page.items.length) {
            failed.push({
              form,
              reason: 'ignored',
              code: '',
              message: ignoredText(page.items.length - named.length, page.items.length),
            });
            continue;
          }
          const referring = named.filter((record) => refersTo(record, candidate, target, id));
          knowledge.accepted(list, form, attempt.fields);
          if (refusedPair && candidate.typeField)
            knowledge.refused(list, candidate.typeField, refusedPair.code, refusedPair.message);
          group.form = form;
          const total = attempt.typeChecked ? (page.links.has('next') ? undefined : referring.length) : page.totalCount;
          if (total !== undefined) group.total = total;
          const resource = findResource(catalog, candidate.resource);
          for (const record of referring) this.referredBy(group, record, resource);
          this.port.emit({ kind: 'inbound', group: copy(group) });
          return;
        } catch (error) {
          if (this.port.signal.aborted) throw error;
          if (error instanceof ApiError && (error.status === 400 || error.status === 422)) {
            const entry = error.errors[0];
            failed.push({ form, reason: 'refused', code: entry?.code ?? '', message: entry?.message || error.message });
            continue;
          }
          this.failedCandidate(group, toDpxError(error));
          this.port.emit({ kind: 'inbound', group: copy(group) });
          return;
        }
      }
      // Every form of this filter was refused or ignored. The field named is the one the list is not known to accept.
      const unknown = attempt.fields.filter((field) => !knowledge.isAccepted(list, field));
      outcomes.push({ field: unknown.length === 1 ? unknown[0]! : candidate.via, failed });
      if (attempt.fields.length > 1) refusedPair = failed.find((each) => each.reason === 'refused');
    }
    // Each filter refused is remembered under its field; the list is named by the candidate's own filter.
    for (const outcome of outcomes) {
      const refusal = outcome.failed.find((attempt) => attempt.reason === 'refused');
      if (refusal && !outcome.remembered) knowledge.refused(list, outcome.field, refusal.code, refusal.message);
    }
    const field = outcomes[0]!.field;
    const remembered = outcomes.every((outcome) => outcome.remembered);
    const failed = outcomes.flatMap((outcome) => outcome.failed);
    const reason = failed.find((attempt) => attempt.reason === 'refused') ?? failed[0]!;
    this.unsearchable(group, {
      list: candidate.resource,
      field,
      reason: reason.reason,
      code: reason.code,
      message: reason.message,
      tried,
      ...(remembered ? { remembered } : {}),
    });
  }

  /** A record on a candidate's page: a node of its own unless the walk already has it, and an edge to the root. */
  private referredBy(group: InboundGroup, record: Record<string, unknown>, list: Resource | undefined): void {
    const { candidate } = group;
    const url =
      selfUrl(record, this.port.session.baseUrl) ??
      (list && readUrl(list, candidate.version, record, this.port.session.baseUrl));
    const key =
      url === undefined
        ? `${nodeKey(group.url!)}#${group.keys.length}`
        : (this.port.graph.find(url)?.key ?? nodeKey(url));
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
    const node: XrayNode = {
      key,
      resource: candidate.resource,
      version: candidate.version,
      label: `${candidate.resource} by ${candidate.via}`,
      depth: 1,
      state: 'failed',
      error: failure.message,
      hint: failure.hint,
    };
    if (group.url) node.url = group.url;
    this.port.graph.add(node);
    this.port.emitNode(node);
    group.keys.push(key);
    this.port.connect({ from: key, to: this.port.rootKey(), rel: candidate.rel, direction: 'in', via: candidate.via });
  }

  private unsearchable(group: InboundGroup, unsearchable: Unsearchable): void {
    group.unsearchable = unsearchable;
    this.port.note(
      'unsearchable',
      `${unsearchableText(unsearchable)}: ${unsearchable.message}${unsearchable.remembered ? ' (remembered from an earlier answer; asked again after a day)' : ''}${unsearchable.tried?.length ? `; tried: ${unsearchable.tried.join(', ')}` : ''}`,
    );
    this.port.emit({ kind: 'inbound', group: copy(group) });
  }
}

/** `not searchable: \`audit-logs\` refused a filter on \`primary_entity.type\` (\`40013\`)` */
export function unsearchableText(unsearchable: Unsearchable): string {
  const what = `not searchable: \`${unsearchable.list}\``;
  if (unsearchable.reason === 'ignored')
    return `${what} ignored a filter on \`${unsearchable.field}\` (it answered with records that do not refer to this one)`;
  return `${what} refused a filter on \`${unsearchable.field}\` (${unsearchable.code ? `\`${unsearchable.code}\`` : 'no error code'})`;
}

/**
 * Whether each `…type` field of a possible pair names resources, judged by its values: those on the
 * list's sample page, else the schema's enum. Kept with the filter knowledge, so a later x-ray need not
 * judge again; undecided while neither gives values.
 */
function judgeTypeFields(catalog: Catalog, list: ListFields, knowledge: FilterKnowledge): void {
  const key = listKey(list);
  for (const field of pairTypeFields(catalog, list)) {
    if (knowledge.typeField(key, field) !== undefined) continue;
    const verdict = typeFieldNamesResources(catalog, typeFieldValues(list, field));
    if (verdict !== undefined) knowledge.setTypeField(key, field, verdict);
  }
}

function listKey(list: { resource: string; version: string }): string {
  return `${list.resource} ${list.version}`;
}

function copy(group: InboundGroup): InboundGroup {
  return { ...group, keys: [...group.keys] };
}
