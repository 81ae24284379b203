import resourcesJson from '../../fixtures/demo/resources.json' with { type: 'json' };

/** The demo's resource catalog: fixtures/demo/resources.json, read once, as typed data. */

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'string[]';

export interface FieldDef {
  /** The stored record's field this one is read from; the field's own (dotted) name when absent. */
  from?: string;
  type: FieldType;
  nullable?: boolean;
}

export interface LinkDef {
  /** Path template whose `{variables}` are stored field names; the link is left out when one is empty. */
  href: string;
  /** HTTP method of an action link. */
  type?: string;
  /** Show the link only while each named stored field holds one of the listed values. */
  when?: Record<string, unknown[]>;
}

export interface OperationDef {
  type: string;
  href: string;
  /** Name of the engine behaviour that carries the operation out. */
  behaviour: string;
  /** Stored fields a `set_fields` behaviour writes. */
  set?: Record<string, unknown>;
  /**
   * A list of the records under one record of another resource: the href names that record by the parent's
   * id variable, and `field` is the stored field of each listed record that holds the parent's id.
   */
  parent?: { resource: string; field: string };
}

export interface VersionDef {
  fields: Record<string, FieldDef>;
  links: Record<string, LinkDef>;
  operations: Record<string, OperationDef>;
}

export interface ResourceDef {
  id_variable: string;
  /** Stored field that places a record in an organizational unit; null when the resource is not scoped. */
  scope_field: string | null;
  supported_versions: string[];
  /** False leaves total_count and total_pages_count out of list envelopes, as the spec's tasks list does. */
  envelope_counts?: boolean;
  /** Stored fields written on create, unless the body sets them. */
  defaults?: Record<string, unknown>;
  /** Stored fields that hold the id of a record of another resource, checked on create and update. */
  references?: Record<string, string>;
  /** Stored fields no two records may share. */
  unique?: string[];
  versions: Record<string, VersionDef>;
}

export const resources = resourcesJson as unknown as Record<string, ResourceDef>;

export function resourceDef(name: string): ResourceDef {
  const def = resources[name];
  if (!def) throw new Error(`no resource named ${name} in fixtures/demo/resources.json`);
  return def;
}

export function versionDef(resource: string, version: string): VersionDef {
  const def = resourceDef(resource).versions[version];
  if (!def) throw new Error(`resource ${resource} has no version ${version}`);
  return def;
}

/** Version strings `vN`, newest (highest N) first. */
export function newestFirst(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)));
}

/** The path of an href without its RFC 6570 query part (`/users{?limit}` → `/users`). */
export function pathOf(href: string): string {
  return href.replace(/\{\?[^}]*\}$/, '');
}

export interface IndexOperation {
  href: string;
  type: string;
  templated: boolean;
}

/** The discovery index as served at GET /. */
export function discoveryIndex(plainListHrefs: boolean): Record<string, Record<string, unknown>> {
  const index: Record<string, Record<string, unknown>> = {};
  for (const [name, def] of Object.entries(resources)) {
    const entry: Record<string, unknown> = { supported_versions: def.supported_versions };
    for (const version of def.supported_versions) {
      const operations: Record<string, IndexOperation> = {};
      for (const [id, op] of Object.entries(versionDef(name, version).operations)) {
        const href = plainListHrefs && op.behaviour === 'list' ? pathOf(op.href) : op.href;
        operations[id] = { href, type: op.type, templated: href.includes('{') };
      }
      entry[version] = operations;
    }
    index[name] = entry;
  }
  return index;
}

export interface RouteMatch {
  resource: string;
  /** The operation of this path and method in each version that has one. */
  operations: Map<string, { id: string; def: OperationDef }>;
  variables: Record<string, string>;
}

interface Route {
  resource: string;
  method: string;
  pattern: RegExp;
  variableNames: string[];
  operations: Map<string, { id: string; def: OperationDef }>;
}

function compileRoutes(): Route[] {
  const routes = new Map<string, Route>();
  for (const [resource, def] of Object.entries(resources)) {
    for (const [version, versionDefinition] of Object.entries(def.versions)) {
      for (const [id, op] of Object.entries(versionDefinition.operations)) {
        const path = pathOf(op.href);
        const method = op.type.toUpperCase();
        const key = `${method} ${path}`;
        let route = routes.get(key);
        if (!route) {
          const variableNames: string[] = [];
          const source = path
            .split(/(\{[^}]+\})/)
            .map((part) => {
              const variable = /^\{([^}]+)\}$/.exec(part);
              if (!variable?.[1]) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
              variableNames.push(variable[1]);
              return '([^/]+)';
            })
            .join('');
          route = { resource, method, pattern: new RegExp(`^${source}/?$`), variableNames, operations: new Map() };
          routes.set(key, route);
        }
        route.operations.set(version, { id, def: op });
      }
    }
  }
  return [...routes.values()];
}

const routes = compileRoutes();

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route for a path: `pathExists` when any operation has this path; `match` when one also has the method. */
export function matchRoute(
  method: string,
  path: string,
): { pathExists: boolean; allowed: string[]; match?: RouteMatch } {
  const allowed: string[] = [];
  let match: RouteMatch | undefined;
  for (const route of routes) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    allowed.push(route.method);
    if (route.method !== method) continue;
    const variables: Record<string, string> = {};
    route.variableNames.forEach((name, i) => {
      variables[name] = safeDecode(found[i + 1] ?? '');
    });
    match = { resource: route.resource, operations: route.operations, variables };
  }
  return { pathExists: allowed.length > 0, allowed, ...(match ? { match } : {}) };
}
