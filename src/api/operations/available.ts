// The operations the index offers for one resource version, and how far the current record fills them;
// with a record, also the operations of other resources that name the record's id (a backup's restore).
import { findResource, findVersion, type Catalog, type Operation } from '../hal/catalog.js';
import { isObject } from '../json.js';
import { bodySchemaFor } from '../hal/schemas.js';
import { bodyPropertyNames } from './body.js';
import { prefillFromRecord, recordIdValues } from './prefill.js';

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
    return { ...offered, fillsFromRecord: record !== undefined && operation.pathVariables.length > 0 && offered.missing.length === 0 };
  });
  return [...byMethod(own), ...byMethod(relatedOperations(catalog, resource.name, record, bodySchemaOf))];
}

/** An operation as offered to the user, with the path variables the prefill leaves to be typed. */
function offer(operation: Operation, resource: string, version: string, prefill: Record<string, string>): AvailableOperation {
  const missing = operation.pathVariables.filter((name) => prefill[name] === undefined);
  return { operation, resource, version, method: operation.method, id: operation.id, href: operation.href, prefill, missing, fillsFromRecord: false };
}

/**
 * Operations of the other resources' default versions whose variables or body properties are named
 * `<x>_id` after the record's resource: the index has no links between resources, so names are the evidence.
 */
function relatedOperations(catalog: Catalog, resourceName: string, record: Record<string, unknown> | undefined, bodySchemaOf: BodySchemaLookup): AvailableOperation[] {
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
