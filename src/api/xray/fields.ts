// Which fields the records of a list have, so an x-ray knows which lists could refer to a record. The
// record schemas dpx ships are the spec's: a hint, not the truth. A server may give its records fields the
// spec does not (a `primary_entity` on its tasks), on the spec's vendor as on another. So a list's fields
// are its schema's joined with those of one small page of its own records, read once per list and session
// (and not again while the filter store keeps what an earlier run saw: filters.ts). Before that page is
// in, the schema alone is trusted on the spec's vendor, so that the queries it allows need not wait.
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
  /** The records of the page the fields were learned from (none when a schema or an earlier run said). */
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
/** Pages being read, so that two x-rays of one session at once read a list's page once. */
const reading = new WeakMap<Session, Map<string, Promise<ListFields>>>();

/** The fields a page of the list's own records taught this session, if one was read. */
export function learnedListFields(session: Session, resource: Resource, ou: OuChoice): ListFields | undefined {
  return learned.get(session)?.get(cacheKey(session, resource, ou));
}

/**
 * The fields known without a request: the schema (trusted alone on the spec's vendor only) joined with
 * the fields an earlier run saw on the list's records (`seen`, from the filter store); undefined when
 * neither says anything.
 */
export function hintedListFields(
  session: Session,
  resource: Resource,
  seen: readonly string[] | undefined,
): ListFields | undefined {
  const version = resource.defaultVersion;
  const schema = knownRecordFields(resource.name, version);
  if (seen === undefined) {
    if (session.vendor !== SPEC_VENDOR || !schema) return undefined;
    return { resource: resource.name, version, fields: schema, source: 'schema', sample: [] };
  }
  const fields = [...new Set([...(schema ?? []), ...seen])];
  return { resource: resource.name, version, fields, source: schema ? 'schema+page' : 'page', sample: [] };
}

/**
 * Reads one small page of the list, joins its records' fields with the schema's and keeps them for the
 * session. `send` is the caller's, so it can count and bound it; it is not called when another x-ray of
 * the session is reading the same page and gets it.
 */
export async function learnListFields(
  session: Session,
  resource: Resource,
  ou: OuChoice,
  send: (request: PreparedRequest) => Promise<{ body: unknown; url: string }>,
): Promise<ListFields> {
  const key = cacheKey(session, resource, ou);
  const inFlight = reading.get(session) ?? new Map<string, Promise<ListFields>>();
  reading.set(session, inFlight);
  const other = await inFlight.get(key)?.catch(() => undefined);
  if (other) return other;
  const pending = readListFields(session, resource, ou, send);
  inFlight.set(key, pending);
  try {
    const fields = await pending;
    const perSession = learned.get(session) ?? new Map<string, ListFields>();
    learned.set(session, perSession);
    perSession.set(key, fields);
    return fields;
  } finally {
    if (inFlight.get(key) === pending) inFlight.delete(key);
  }
}

async function readListFields(
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
  const sample = readPage(await send(request)).items;
  const schema = knownRecordFields(resource.name, resource.defaultVersion);
  return {
    resource: resource.name,
    version: resource.defaultVersion,
    fields: [...new Set([...(schema ?? []), ...scalarPaths(sample)])],
    source: schema ? 'schema+page' : 'page',
    sample,
  };
}

/** A list's records can differ between units (optional fields), so what a page taught is kept per unit. */
function cacheKey(session: Session, resource: Resource, ou: OuChoice): string {
  return `${resource.name}\n${resource.defaultVersion}\n${ou === undefined ? (session.ou ?? '') : (ou ?? '')}`;
}
