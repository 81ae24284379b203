import { pathOf, type ResourceDef, type VersionDef } from './catalog.js';
import type { StoredRecord } from './store.js';

export interface HalLink {
  href: string;
  type?: string;
}

/** A path template split at its `{field}` variables: literal text at even places, field names at odd. */
type SplitTemplate = string[];

/**
 * How one version of a resource presents its records, worked out once per version rather than once per
 * record: a page of a hundred records would otherwise split every dotted name and parse every link
 * template a hundred times. Each record is still presented anew on every request, as a server would.
 */
interface Presenter {
  fields: { path: string[]; from: string; timestamp: boolean }[];
  /** The record's own read path, split at its id variable; undefined when the version has no read. */
  self: SplitTemplate | undefined;
  links: { rel: string; type?: string; when: [string, unknown[]][]; href: SplitTemplate }[];
}

const presenters = new WeakMap<VersionDef, Presenter>();

function splitTemplate(template: string): SplitTemplate {
  return template.split(/\{([^}?]+)\}/);
}

function presenter(resource: ResourceDef, version: VersionDef): Presenter {
  let made = presenters.get(version);
  if (made === undefined) {
    const read = Object.values(version.operations).find((op) => op.behaviour === 'read');
    const readPath = read && pathOf(read.href);
    const idVariable = `{${resource.id_variable}}`;
    made = {
      fields: Object.entries(version.fields).map(([name, field]) => ({
        path: name.split('.'),
        from: field.from ?? name,
        timestamp: field.type === 'timestamp',
      })),
      // Only the first `{id}` is the record's own: the path is read as a string replace would.
      self: readPath === undefined ? undefined : splitAtFirst(readPath, idVariable),
      links: Object.entries(version.links).map(([rel, link]) => ({
        rel,
        ...(link.type ? { type: link.type } : {}),
        when: Object.entries(link.when ?? {}),
        href: splitTemplate(link.href),
      })),
    };
    presenters.set(version, made);
  }
  return made;
}

function splitAtFirst(text: string, separator: string): SplitTemplate {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), '', text.slice(at + separator.length)];
}

function formatValue(value: unknown, timestamp: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (timestamp && typeof value === 'number') return new Date(value).toISOString();
  return value;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const part = path[i]!;
    const child = node[part];
    if (typeof child === 'object' && child !== null) node = child as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[path[last]!] = value;
}

/** A split template with its fields filled from the record; undefined when a field is empty, so the link is left out. */
function fill(template: SplitTemplate, record: StoredRecord): string | undefined {
  let href = template[0]!;
  for (let i = 1; i < template.length; i += 2) {
    const value = record[template[i]!];
    if (value === undefined || value === null || value === '') return undefined;
    href += encodeURIComponent(String(value)) + template[i + 1]!;
  }
  return href;
}

/** The path of a record's own read operation, e.g. `/tasks/<id>`. */
export function selfPath(resource: ResourceDef, version: VersionDef, record: StoredRecord): string | undefined {
  const { self } = presenter(resource, version);
  if (self === undefined) return undefined;
  return self.length === 1 ? self[0] : `${self[0]}${encodeURIComponent(record.id)}${self[2]}`;
}

/** A stored record as one version of its resource presents it, with HAL `_links`. */
export function present(resource: ResourceDef, version: VersionDef, record: StoredRecord): Record<string, unknown> {
  const shape = presenter(resource, version);
  const shaped: Record<string, unknown> = {};
  for (const field of shape.fields) setPath(shaped, field.path, formatValue(record[field.from], field.timestamp));
  const links: Record<string, HalLink> = {};
  const self = selfPath(resource, version, record);
  if (self) links['self'] = { href: self };
  for (const link of shape.links) {
    if (!link.when.every(([field, values]) => values.includes(record[field]))) continue;
    const href = fill(link.href, record);
    if (href) links[link.rel] = link.type ? { href, type: link.type } : { href };
  }
  shaped['_links'] = links;
  return shaped;
}
