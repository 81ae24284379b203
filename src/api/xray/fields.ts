// Which fields the records of a list have, so an x-ray knows which lists could refer to a record. The
// record schemas dpx ships are the spec's: a hint, not the truth. They are taken alone on a control plane
// of the spec's vendor; on another vendor's, whose records may carry fields the spec does not (a
// `primary_entity` on its tasks), the fields come from one small page of the list joined with the
// schema's, and so does any page read for other reasons (inbound.ts: a type field's values). What a page
// taught is kept for the session, so a second x-ray does not ask again.
import type { Catalog, Resource } from '../hal/catalog.js';
import { findVersion } from '../hal/catalog.js';
import { findListOperation } from '../hal/operation.js';
import { listRequest, readPage } from '../session/pages.js';
import { scalarPaths } from '../hal/records.js';
import { knownRecordFields } from '../hal/schemas.js';
import type { OuChoice, PreparedRequest, Session } from '../session/session.js';

/** The vendor of the spec the shipped record schemas come from (`application/api.service.…`). */
export const SPEC_VENDOR = 'service';

/** Records read to learn a list's fields: enough to meet optional fields and a few type values. */
export const LEARNING_PAGE_SIZE = 20;

export interface ListFields {
  resource: string;
  version: string;
  /** Dotted paths of scalar fields. */
  fields: string[];
  /** `schema+page`: the schema's fields joined with those of the list's own records. */
  source: 'schema' | 'page' | 'schema+page';
  /** The records of the page the fields were learned from (none when a schema said). */
  sample: Record<string, unknown>[];
}

/**
 * The lists of the index an x-ray can ask: every resource whose default version has a top-level list
 * operation. A list under a parent record needs the parent's id, which a filter on another record's id
 * cannot give it.
 */
export function listResources(catalog: Catalog): Resource[] {
  return catalog.resources.filter((resource) => {
    const version = findVersion(resource, undefined);
    const list = version && findListOperation(version);
    return list !== undefined && list.pathVariables.length === 0;
  });
}

const learned = new WeakMap<Session, Map<string, ListFields>>();

/** The fields known without a request: a shipped schema on the spec's vendor, or a page this session already read. */
export function knownListFields(session: Session, resource: Resource, ou: OuChoice): ListFields | undefined {
  const version = resource.defaultVersion;
  const fields = session.vendor === SPEC_VENDOR ? knownRecordFields(resource.name, version) : undefined;
  if (fields) return { resource: resource.name, version, fields, source: 'schema', sample: [] };
  return learned.get(session)?.get(cacheKey(session, resource, ou));
}

/** The list's fields with those of `sample` (records of its own) joined in. */
export function withSample(list: ListFields, sample: Record<string, unknown>[]): ListFields {
  const fields = [...new Set([...list.fields, ...scalarPaths(sample)])];
  return { ...list, fields, source: list.source === 'page' ? 'page' : 'schema+page', sample };
}

/** Reads one small page of the list and keeps what it taught. `send` is the caller's, so it can count and bound it. */
export async function learnListFields(
  session: Session,
  resource: Resource,
  ou: OuChoice,
  send: (request: PreparedRequest) => Promise<{ body: unknown; url: string }>,
): Promise<ListFields> {
  const request = await listRequest(session, {
    resource: resource.name,
    version: resource.defaultVersion,
    pageSize: LEARNING_PAGE_SIZE,
    ou,
  });
  const response = await send(request);
  const page = readPage(response);
  const schema = knownRecordFields(resource.name, resource.defaultVersion);
  const fields = withSample(
    {
      resource: resource.name,
      version: resource.defaultVersion,
      fields: schema ?? [],
      source: schema ? 'schema' : 'page',
      sample: [],
    },
    page.items,
  );
  const perSession = learned.get(session) ?? new Map<string, ListFields>();
  learned.set(session, perSession);
  perSession.set(cacheKey(session, resource, ou), fields);
  return fields;
}

/** A list's records can differ between units (optional fields), so what a page taught is kept per unit. */
function cacheKey(session: Session, resource: Resource, ou: OuChoice): string {
  return `${resource.name}\n${resource.defaultVersion}\n${ou === undefined ? (session.ou ?? '') : (ou ?? '')}`;
}
