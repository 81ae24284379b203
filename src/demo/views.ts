import { pathOf, type ResourceDef, type VersionDef } from './catalog.js';
import type { StoredRecord } from './store.js';

export interface HalLink {
  href: string;
  type?: string;
}

function formatValue(value: unknown, type: string): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'timestamp' && typeof value === 'number') return new Date(value).toISOString();
  return value;
}

function setDotted(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const child = node[part];
    if (typeof child === 'object' && child !== null) node = child as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[parts[parts.length - 1] ?? dotted] = value;
}

/** Expands `{field}` from stored fields; undefined when a field is empty, so the link is left out. */
export function expandPath(template: string, record: StoredRecord): string | undefined {
  let missing = false;
  const href = template.replace(/\{([^}?]+)\}/g, (_, name: string) => {
    const value = record[name];
    if (value === undefined || value === null || value === '') missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? undefined : href;
}

/** The path of a record's own read operation, e.g. `/tasks/<id>`. */
export function selfPath(resource: ResourceDef, version: VersionDef, record: StoredRecord): string | undefined {
  const read = Object.values(version.operations).find((op) => op.behaviour === 'read');
  if (!read) return undefined;
  return pathOf(read.href).replace(`{${resource.id_variable}}`, encodeURIComponent(record.id));
}

/** A stored record as one version of its resource presents it, with HAL `_links`. */
export function present(resource: ResourceDef, version: VersionDef, record: StoredRecord): Record<string, unknown> {
  const shaped: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(version.fields)) {
    setDotted(shaped, name, formatValue(record[field.from ?? name], field.type));
  }
  const links: Record<string, HalLink> = {};
  const self = selfPath(resource, version, record);
  if (self) links['self'] = { href: self };
  for (const [rel, link] of Object.entries(version.links)) {
    if (link.when && !Object.entries(link.when).every(([field, values]) => values.includes(record[field]))) continue;
    const href = expandPath(link.href, record);
    if (href) links[rel] = link.type ? { href, type: link.type } : { href };
  }
  shaped['_links'] = links;
  return shaped;
}
