// The operations the index offers for one resource version, and how far the current record fills them.
import { findResource, findVersion, type Catalog, type Operation } from '../catalog.js';
import { prefillFromRecord } from './prefill.js';

export interface AvailableOperation {
  operation: Operation;
  method: string;
  id: string;
  href: string;
  /** Values the record supplies, by variable name (path and query). */
  prefill: Record<string, string>;
  /** Path variables still without a value. */
  missing: string[];
  /** True when a record was given, the operation has path variables, and the record fills all of them. */
  fillsFromRecord: boolean;
}

/** Read operations first, then writes; within each, the index's order. */
const METHOD_RANK: Record<string, number> = { GET: 0, HEAD: 1, POST: 2, PUT: 3, PATCH: 4, DELETE: 5 };

export function operationsFor(
  catalog: Catalog,
  resourceName: string,
  version: string | undefined,
  record?: Record<string, unknown>,
): AvailableOperation[] {
  const resource = findResource(catalog, resourceName);
  const found = resource && findVersion(resource, version);
  if (!resource || !found) return [];
  const available = found.operations.map((operation): AvailableOperation => {
    const prefill = prefillFromRecord({ path: operation.pathVariables, query: operation.queryVariables }, record, resource.name);
    const missing = operation.pathVariables.filter((name) => prefill[name] === undefined);
    return {
      operation,
      method: operation.method,
      id: operation.id,
      href: operation.href,
      prefill,
      missing,
      fillsFromRecord: record !== undefined && operation.pathVariables.length > 0 && missing.length === 0,
    };
  });
  const rank = (method: string): number => METHOD_RANK[method] ?? 6;
  return available
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry.method) - rank(b.entry.method) || a.index - b.index)
    .map(({ entry }) => entry);
}
