// Organizational units, found generically: the index's resource whose name says it holds units, and its
// records read as { id, name, parent, a few words of context }, loaded as a tree. A parent comes from a
// field named like parent_id / parentId / parent, or from a link whose rel says parent.
import type { Catalog, Resource } from '../hal/catalog.js';
import { resolve } from 'ketting/dist/util/uri.js';
import { recordLinks } from '../hal/links.js';
import { findListOperation, findReadOperation } from '../hal/operation.js';
import { listRequest, walkPages } from '../session/pages.js';
import type { Session } from '../session/session.js';
import { recordId, recordName } from '../hal/records.js';

export interface OrgUnit {
  id: string;
  name: string;
  detail: string;
  /** The parent unit's id, when the record names one. */
  parent?: string;
  /** Depth in the tree (0 for a root) and number of direct children, once the tree is built. */
  depth: number;
  children: number;
}

const UNIT_RESOURCE = /organi[sz]ational|(^|[-_])ous?($|[-_])|tenants?$/i;
const PARENT_FIELD = /^parent([_-]?(ou|unit|org(ani[sz]ational)?[_-]?unit))?([_-]?id)?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text.trim());
}

/** The resource that holds organizational units, when the index offers one listable without a parent. */
export function findUnitResource(catalog: Catalog): Resource | undefined {
  return catalog.resources.find(
    (r) => UNIT_RESOURCE.test(r.name) && r.versions.some((v) => findListOperation(v)?.pathVariables.length === 0),
  );
}

/** A record as a unit, when it has an id. */
export function toUnit(record: Record<string, unknown>): OrgUnit | undefined {
  const id = recordId(record);
  if (id === undefined) return undefined;
  const named = recordName(record);
  const nameField = named?.field;
  const name = named?.name ?? id;
  const parentField = Object.keys(record).find((k) => PARENT_FIELD.test(k));
  const parent = parentField ? idOf(record[parentField]) : parentFromLinks(record);
  const detail = Object.entries(record)
    .filter(
      ([k, v]) =>
        k !== 'id' &&
        k !== nameField &&
        k !== parentField &&
        !k.startsWith('_') &&
        typeof v === 'string' &&
        v.length <= 60 &&
        !isUuid(v) &&
        !/\d{4}-\d{2}-\d{2}T/.test(v),
    )
    .slice(0, 2)
    .map(([, v]) => String(v))
    .join(' · ');
  return { id, name, detail, depth: 0, children: 0, ...(parent ? { parent } : {}) };
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object') return idOf((value as Record<string, unknown>)['id']);
  return undefined;
}

/** The last path segment of a `parent` link: the parent's id in any REST layout. */
function parentFromLinks(record: Record<string, unknown>): string | undefined {
  const link = recordLinks(record).find((l) => /^_?parent/i.test(l.rel) && !l.templated);
  if (!link) return undefined;
  try {
    const segment = new URL(resolve(link), 'http://unit.invalid/').pathname.split('/').filter(Boolean).pop();
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Whether any unit names a parent among the others: then the units form a tree worth drawing. */
export function isTree(units: OrgUnit[]): boolean {
  const ids = new Set(units.map((u) => u.id));
  return units.some((u) => u.parent !== undefined && ids.has(u.parent));
}

/**
 * The units in tree order (each parent before its children, siblings by name), with their depth and
 * how many children each has. A unit whose parent is not among them is a root; a cycle is cut.
 */
export function unitTree(units: OrgUnit[]): OrgUnit[] {
  const byId = new Map(units.map((u) => [u.id, u]));
  const children = new Map<string, OrgUnit[]>();
  const roots: OrgUnit[] = [];
  for (const unit of units) {
    if (unit.parent !== undefined && unit.parent !== unit.id && byId.has(unit.parent)) {
      children.set(unit.parent, [...(children.get(unit.parent) ?? []), unit]);
    } else roots.push(unit);
  }
  const byName = (a: OrgUnit, b: OrgUnit) => a.name.localeCompare(b.name);
  const ordered: OrgUnit[] = [];
  const seen = new Set<string>();
  const visit = (unit: OrgUnit, depth: number): void => {
    if (seen.has(unit.id)) return;
    seen.add(unit.id);
    const kids = (children.get(unit.id) ?? []).sort(byName);
    ordered.push({ ...unit, depth, children: kids.length });
    for (const kid of kids) visit(kid, depth + 1);
  };
  for (const root of roots.sort(byName)) visit(root, 0);
  // Units only reachable through a cycle have no root; they are listed at the top level.
  for (const unit of units) if (!seen.has(unit.id)) visit(unit, 0);
  return ordered;
}

/**
 * Every unit the token can see, whatever the session's current OU, in tree order when the records name
 * their parents; undefined when the index offers no unit list. Every page is read: a tree of thousands
 * of units is counted whole (the walk's page guard still ends paging that never ends).
 */
export async function loadUnits(
  session: Session,
  options: { signal?: AbortSignal } = {},
): Promise<OrgUnit[] | undefined> {
  const resource = findUnitResource(await session.catalog());
  if (!resource) return undefined;
  const request = await listRequest(session, { resource: resource.name, pageSize: 100, ou: null });
  const units: OrgUnit[] = [];
  for await (const page of walkPages(session, request, options.signal ? { signal: options.signal } : {})) {
    for (const record of page.items) {
      const unit = toUnit(record);
      if (unit) units.push(unit);
    }
  }
  return isTree(units) ? unitTree(units) : units;
}

/**
 * The cycles among the units' parents, each as the ids around it (`u-a → u-b → u-a` is [u-a, u-b]),
 * starting from the one that comes first in `units`. A unit that is its own parent is a cycle of one.
 */
export function parentCycles(units: readonly OrgUnit[]): string[][] {
  const parentOf = new Map(units.map((unit) => [unit.id, unit.parent]));
  const state = new Map<string, 'walking' | 'done'>();
  const cycles: string[][] = [];
  for (const unit of units) {
    const path: string[] = [];
    let id: string | undefined = unit.id;
    while (id !== undefined && parentOf.has(id) && state.get(id) === undefined) {
      state.set(id, 'walking');
      path.push(id);
      id = parentOf.get(id);
    }
    if (id !== undefined && state.get(id) === 'walking') cycles.push(path.slice(path.indexOf(id)));
    for (const seen of path) state.set(seen, 'done');
  }
  return cycles;
}

/** The name of one unit, read through the unit resource's read operation (one request); undefined when it cannot be read. */
export async function readUnitName(session: Session, id: string): Promise<string | undefined> {
  try {
    const catalog = await session.catalog();
    const resource = findUnitResource(catalog);
    const read = resource && findReadOperation(resource);
    if (!resource || !read) return undefined;
    const request = await session.prepare({
      resource: resource.name,
      version: read.version,
      operationId: read.operation.id,
      variables: { [read.operation.pathVariables[0]!]: id },
      ou: null,
    });
    const response = await session.send(request);
    const record = response.body;
    return record && typeof record === 'object' && !Array.isArray(record)
      ? recordName(record as Record<string, unknown>)?.name
      : undefined;
  } catch {
    return undefined;
  }
}
