// Resource + operation id (+ version) + variables → a request ready to send. The token is not part of
// a prepared request: the session adds it when sending, so a prepared request can be shown or logged.
import {
  findResource,
  findVersion,
  type Catalog,
  type Operation,
  type Resource,
  type ResourceVersion,
} from './catalog.js';
import { didYouMean } from './did-you-mean.js';
import { UsageError } from '../errors.js';
import { vendorMediaType } from '../media.js';
import { resolveHref } from './links.js';
import { appendQuery, expandTemplate } from './template.js';

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  resource: string;
  version: string;
  operationId: string;
  /** The organizational unit the request is scoped to (its header is among `headers`); undefined: none. */
  ou?: string;
}

/** Which unit a request is made in: undefined for the session's current one, null for none, else that unit's id. */
export type OuChoice = string | null | undefined;

export interface RequestTarget {
  resource: string;
  operationId: string;
  version?: string;
  variables?: Record<string, string>;
  query?: Record<string, string>;
  body?: string;
  ou?: OuChoice;
}

/** What the session knows that a request needs besides the catalog. */
export interface RequestContext {
  baseUrl: string;
  vendor: string;
  ou?: string;
  ouHeader: string;
}

const PAGE_SIZE_NAMES = ['limit', 'page_size', 'per_page', 'size'];
const PAGE_NAMES = ['start', 'page', 'page_number'];
const FILTER_NAMES = ['filter', 'q', 'where'];
const SORT_NAMES = ['sort', 'sort_by', 'order_by', 'orderby'];

/** Whether an id reads as a list (`list_users`, `listWidgets`). */
function idSaysList(operation: Operation): boolean {
  return operation.id.toLowerCase().startsWith('list');
}

/** Whether the operation's template takes a page size or a page: it reads a collection a page at a time. */
function takesPaging(operation: Operation): boolean {
  return operation.queryVariables.some(
    (name) => PAGE_SIZE_NAMES.includes(name.toLowerCase()) || PAGE_NAMES.includes(name.toLowerCase()),
  );
}

/**
 * Whether a GET reads a collection: its id says list, or its template pages. A collection under a parent
 * (`/groups/{group_id}/backups{?limit,start}`) is a list too; its path variables name the parent.
 */
export function isListOperation(operation: Operation): boolean {
  return operation.method === 'GET' && (idSaysList(operation) || takesPaging(operation));
}

/** The version's list operations: top-level collections first, then those under a parent, each in index order. */
export function listOperations(version: ResourceVersion): Operation[] {
  const lists = version.operations.filter(isListOperation);
  return [
    ...lists.filter((operation) => operation.pathVariables.length === 0),
    ...lists.filter((operation) => operation.pathVariables.length > 0),
  ];
}

/**
 * A resource's list operation. With the names of the variables the caller has values for, the list under a
 * parent whose path variables they fill (the one filling most); otherwise a top-level one: a GET whose id
 * starts with `list`, else one whose template pages, else the first GET with no path variable; and when the
 * resource has none of those, its first list under a parent.
 */
export function findListOperation(version: ResourceVersion, variables: readonly string[] = []): Operation | undefined {
  const lists = listOperations(version);
  if (variables.length > 0) {
    const filled = lists
      .filter(
        (operation) =>
          operation.pathVariables.length > 0 && operation.pathVariables.every((name) => variables.includes(name)),
      )
      .sort((a, b) => b.pathVariables.length - a.pathVariables.length);
    if (filled[0]) return filled[0];
  }
  const plain = version.operations.filter(
    (operation) => operation.method === 'GET' && operation.pathVariables.length === 0,
  );
  return plain.find(idSaysList) ?? plain.find(takesPaging) ?? plain[0] ?? lists[0];
}

/**
 * The read operation of a resource version (the given one, else the default): a GET whose only path
 * variable addresses one record — not a list under a parent (`/groups/{group_id}/backups`), whose one
 * variable names the parent.
 */
export function findReadOperation(
  resource: Resource,
  version?: string,
): { version: string; operation: Operation } | undefined {
  const found = findVersion(resource, version);
  const operation = found?.operations.find(
    (candidate) => candidate.method === 'GET' && candidate.pathVariables.length === 1 && !isListOperation(candidate),
  );
  return found && operation ? { version: found.version, operation } : undefined;
}

/** The query parameter names an operation uses for page size, page and filter. */
export function pagingParameters(operation: Operation): { pageSize: string; page: string; filter: string } {
  const pick = (aliases: string[]): string | undefined => {
    const lower = operation.queryVariables.map((name) => name.toLowerCase());
    const index = lower.findIndex((name) => aliases.includes(name));
    return index === -1 ? undefined : operation.queryVariables[index];
  };
  return {
    pageSize: pick(PAGE_SIZE_NAMES) ?? PAGE_SIZE_NAMES[0]!,
    page: pick(PAGE_NAMES) ?? PAGE_NAMES[0]!,
    filter: pick(FILTER_NAMES) ?? FILTER_NAMES[0]!,
  };
}

/**
 * The query parameter an operation sorts by, only when its href template declares one: a list that names
 * none is not sorted by the server. Its value is the field, after a `-` when descending.
 */
export function sortParameter(operation: Operation): string | undefined {
  return operation.queryVariables.find((name) => SORT_NAMES.includes(name.toLowerCase()));
}

/** The value of a sort parameter: `field`, or `-field` descending. */
export function sortValue(sort: { field: string; descending: boolean }): string {
  return `${sort.descending ? '-' : ''}${sort.field}`;
}

export interface ResolvedOperation {
  resource: Resource;
  version: ResourceVersion;
  operation: Operation;
}

/** Finds resource and version by name (the default version when none is given), or a UsageError that lists what does exist. */
export function resolveVersion(
  catalog: Catalog,
  target: { resource: string; version?: string },
): { resource: Resource; version: ResourceVersion } {
  const resource = findResource(catalog, target.resource);
  if (!resource) {
    throw new UsageError(`unknown resource: ${target.resource}`, unknownResourceHint(catalog, target.resource));
  }
  const version = findVersion(resource, target.version);
  if (!version) {
    throw new UsageError(
      `${resource.name} has no version ${target.version ?? ''}`.trimEnd(),
      `supported versions: ${resource.versions.map((v) => v.version).join(', ')}`,
    );
  }
  return { resource, version };
}

/** Finds resource, version and operation by name, or a UsageError that lists what does exist. */
export function resolveOperation(
  catalog: Catalog,
  target: { resource: string; version?: string; operationId?: string; variables?: Record<string, string> },
): ResolvedOperation {
  const { resource, version } = resolveVersion(catalog, target);
  if (target.operationId === undefined) {
    const list = findListOperation(version, Object.keys(target.variables ?? {}));
    if (!list)
      throw new UsageError(`${resource.name} ${version.version} has no list operation`, operationsHint(version));
    return { resource, version, operation: list };
  }
  const operation = version.operations.find((candidate) => candidate.id === target.operationId);
  if (!operation) {
    throw new UsageError(
      `${resource.name} ${version.version} has no operation ${target.operationId}`,
      operationsHint(version, target.operationId),
    );
  }
  return { resource, version, operation };
}

export function resolveRequest(catalog: Catalog, target: RequestTarget, context: RequestContext): PreparedRequest {
  return requestFor(resolveOperation(catalog, target), target, context);
}

/** The request of an operation already resolved (`dpx call` resolves it once, to read its schema first). */
export function requestFor(
  { resource, version, operation }: ResolvedOperation,
  target: RequestTarget,
  context: RequestContext,
): PreparedRequest {
  const variables = target.variables ?? {};
  const query = target.query ?? {};

  const missing = operation.pathVariables.filter((name) => variables[name] === undefined || variables[name] === '');
  if (missing.length > 0) {
    throw new UsageError(
      `${operation.id} needs ${missing.length === 1 ? 'the variable' : 'the variables'} ${missing.join(', ')}`,
      `give ${missing.map((name) => `--var ${name}=…`).join(' ')}`,
    );
  }
  const known = new Set([...operation.pathVariables, ...operation.queryVariables]);
  const unknown = Object.keys(variables).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `${operation.id} has no variable ${unknown.join(', ')}`,
      known.size > 0
        ? `its template takes: ${[...known].join(', ')}`
        : 'its href takes no variables; use --query for query parameters',
    );
  }

  const templateValues: Record<string, string> = { ...variables };
  const extraQuery: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (operation.queryVariables.includes(name)) templateValues[name] = value;
    else extraQuery[name] = value;
  }
  const expanded = operation.templated
    ? expandTemplate(operation.href, templateValues, operationLabel(resource, version, operation))
    : operation.href;
  const url = appendQuery(resolveHref(context.baseUrl, expanded), extraQuery);

  const ou = chosenOu(context, target.ou);
  const prepared: PreparedRequest = {
    method: operation.method,
    url,
    headers: requestHeaders(context, resource.name, version.version, target.body !== undefined, ou),
    resource: resource.name,
    version: version.version,
    operationId: operation.id,
  };
  if (target.body !== undefined) prepared.body = target.body;
  if (ou !== undefined) prepared.ou = ou;
  return prepared;
}

/** The unit a request goes to: the one asked for, none when null is asked for, else the session's. */
export function chosenOu(context: RequestContext, choice: OuChoice): string | undefined {
  if (choice === null) return undefined;
  return (choice ?? context.ou) || undefined;
}

/** Accept for the resource's version, the OU header when the request has a unit, Content-Type when a body goes along. */
export function requestHeaders(
  context: RequestContext,
  resource: string,
  version: string,
  hasBody: boolean,
  ou: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { accept: vendorMediaType(context.vendor, resource, version) };
  if (ou) headers[context.ouHeader.toLowerCase()] = ou;
  if (hasBody) headers['content-type'] = 'application/json';
  return headers;
}

/** An operation as an error names it: `the index's operation list_users of users v2`. */
export function operationLabel(resource: Resource, version: ResourceVersion, operation: Operation): string {
  return `the index's operation ${operation.id} of ${resource.name} ${version.version}`;
}

/** What a version offers; with the id typed, the closest ones first ("did you mean …"). */
export function operationsHint(version: ResourceVersion, typed?: string): string {
  const ids = version.operations.map((operation) => operation.id);
  if (ids.length === 0) return 'this version lists no operations';
  return typed === undefined
    ? `operations: ${ids.join(', ')}`
    : didYouMean(typed, ids, `operations: ${ids.join(', ')}`);
}

/** The closest resource names to one the index does not have, then every name it does. */
export function unknownResourceHint(catalog: Catalog, typed: string): string {
  const names = catalog.resources.map((resource) => resource.name);
  return didYouMean(typed, names, `the index lists: ${names.join(', ') || '(nothing)'}`);
}
