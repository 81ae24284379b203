// The operations the index offers for one resource version, and how far the current record fills them;
// with a record, also the operations of other resources that name the record's id (a backup's restore).
import { findResource, findVersion, type Catalog, type Operation } from '../hal/catalog.js';
import { isObject } from '../json.js';
import { bodySchemaFor } from '../hal/schemas.js';
import { bodyPropertyNames } from './body.js';
import { prefillFromRecord, recordIdValues } from './prefill.js';
import { normaliseRel, recordLinks } from '../hal/links.js';
import { expandTemplate } from '../hal/template.js';

export interface AvailableOperation {
  operation: Operation;
  /** The resource and version the operation belongs to: the open one, or another for a related operation. */
  resource: string;
  version: string;
  method: string;
  id: string;
  href: string;
  /** Values the record supplies, by variable name (path and query). */
  prefill: Record<string, string>;
  /** Path variables still without a value. */
  missing: string[];
  /** True when a record was given, the operation has path variables, and the record fills all of them. */
  fillsFromRecord: boolean;
  /** Set for an operation of another resource: the variables and body properties the record's id fills. */
  related?: string[];
  /**
   * Set when the record's `_links` offer actions and leave this one out: the server says it does not
   * apply now (`disable` on a user already disabled). The operation is still offered, marked, with why.
   */
  leftOut?: string;
}

/** Where an operation's body schema comes from; by default the schemas dpx ships. */
export type BodySchemaLookup = (resource: string, version: string, operationId: string) => object | undefined;

/** Read operations first, then writes; within each, the index's order. */
const METHOD_RANK: Record<string, number> = { GET: 0, HEAD: 1, POST: 2, PUT: 3, PATCH: 4, DELETE: 5 };

function byMethod(operations: AvailableOperation[]): AvailableOperation[] {
  const rank = (method: string): number => METHOD_RANK[method] ?? 6;
  return operations
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry.method) - rank(b.entry.method) || a.index - b.index)
    .map(({ entry }) => entry);
}

export function operationsFor(
  catalog: Catalog,
  resourceName: string,
  version: string | undefined,
  record?: Record<string, unknown>,
  bodySchemaOf: BodySchemaLookup = bodySchemaFor,
): AvailableOperation[] {
  const resource = findResource(catalog, resourceName);
  const found = resource && findVersion(resource, version);
  if (!resource || !found) return [];
  const own = found.operations.map((operation) => {
    const prefill = prefillFromRecord(operation, record, resource.name);
    const offered = offer(operation, resource.name, found.version, prefill);
    const fills = record !== undefined && operation.pathVariables.length > 0 && offered.missing.length === 0;
    const leftOut = fills && record ? leftOutByLinks(operation, prefill, record) : undefined;
    return { ...offered, fillsFromRecord: fills, ...(leftOut ? { leftOut } : {}) };
  });
  return [...byMethod(own), ...byMethod(relatedOperations(catalog, resource.name, record, bodySchemaOf))];
}

/** An operation as offered to the user, with the path variables the prefill leaves to be typed. */
function offer(
  operation: Operation,
  resource: string,
  version: string,
  prefill: Record<string, string>,
): AvailableOperation {
  const missing = operation.pathVariables.filter((name) => prefill[name] === undefined);
  return {
    operation,
    resource,
    version,
    method: operation.method,
    id: operation.id,
    href: operation.href,
    prefill,
    missing,
    fillsFromRecord: false,
  };
}

/**
 * Operations of the other resources' default versions whose variables or body properties are named
 * `<x>_id` after the record's resource: the index has no links between resources, so names are the evidence.
 */
function relatedOperations(
  catalog: Catalog,
  resourceName: string,
  record: Record<string, unknown> | undefined,
  bodySchemaOf: BodySchemaLookup,
): AvailableOperation[] {
  if (!record) return [];
  const related: AvailableOperation[] = [];
  for (const other of catalog.resources) {
    const found = findVersion(other, other.defaultVersion);
    if (other.name === resourceName || !found) continue;
    for (const operation of found.operations) {
      const schema = bodySchemaOf(other.name, found.version, operation.id);
      const bodyNames = isObject(schema) ? bodyPropertyNames(schema) : [];
      const prefill = recordIdValues([...operation.pathVariables, ...operation.queryVariables], record, resourceName);
      const filled = [...Object.keys(prefill), ...Object.keys(recordIdValues(bodyNames, record, resourceName))];
      if (filled.length === 0) continue;
      const offered = offer(operation, other.name, found.version, prefill);
      related.push({ ...offered, fillsFromRecord: offered.missing.length === 0, related: [...new Set(filled)] });
    }
  }
  return related;
}

/** A URL's path without a trailing slash, or undefined when the href is not a URL or path. */
function pathOf(href: string): string | undefined {
  try {
    return new URL(href, 'http://base.invalid').pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/**
 * Why a record's `_links` leave an operation out, when they do. Only a record whose links offer actions
 * (a link with a method other than GET) says anything; then an operation on a path under the record's
 * self link (`/<things>/7/disable`) that no link names is left out. Operations on the record's own address
 * (update, delete) are not judged: a self link stands for them.
 */
function leftOutByLinks(
  operation: Operation,
  prefill: Record<string, string>,
  record: Record<string, unknown>,
): string | undefined {
  if (operation.method === 'GET' || operation.method === 'HEAD') return undefined;
  const links = recordLinks(record);
  const actions = links.filter(
    (link) => link.method !== undefined && !['GET', 'HEAD'].includes(link.method.toUpperCase()),
  );
  const self = links.find((link) => normaliseRel(link.rel) === 'self');
  const selfPath = self && pathOf(self.href);
  if (actions.length === 0 || !selfPath) return undefined;
  let path: string | undefined;
  try {
    path = pathOf(expandTemplate(operation.href.replace(/\{[?&][^}]*\}/g, ''), prefill));
  } catch {
    return undefined;
  }
  if (!path) return undefined;
  // The index's hrefs and the server's links may differ by the base URL's path prefix: compare tails.
  const same = (a: string, b: string) => a === b || a.endsWith(b) || b.endsWith(a);
  const parent = path.slice(0, path.lastIndexOf('/'));
  if (parent === '' || same(path, selfPath) || !same(parent, selfPath)) return undefined;
  const offered = links.some((link) => {
    const linkPath = pathOf(link.href);
    return (
      linkPath !== undefined &&
      linkPath !== '' &&
      same(linkPath, path) &&
      (link.method === undefined || link.method.toUpperCase() === operation.method)
    );
  });
  if (offered) return undefined;
  const names = actions.map((link) => normaliseRel(link.rel)).join(', ');
  return `the record's _links leave it out (they offer ${names}): the server says it does not apply now`;
}
