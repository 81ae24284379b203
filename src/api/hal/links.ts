// HAL `_links` as a flat list. A link value may be one object or an array of them; `type` carries the
// HTTP method of an action link.
import { isObject } from '../json.js';

export interface Link {
  rel: string;
  href: string;
  templated: boolean;
  method?: string;
  title?: string;
}

/** A relation as dpx compares them: `_next`, `Next` and `next` are one relation. */
export function normaliseRel(rel: string): string {
  return rel.replace(/^_/, '').toLowerCase();
}

// Relations that place a document among pages (and HAL's own `curies`), not links to other records.
const PAGING_RELS = new Set(['self', 'first', 'last', 'next', 'prev', 'previous', 'curies']);

/** Whether a relation is paging or self-reference rather than a link to something else. */
export function isPagingRel(rel: string): boolean {
  return PAGING_RELS.has(normaliseRel(rel));
}

/** The links of one `_links` object; relative hrefs are resolved against `baseUrl` when one is given. */
export function readLinks(links: unknown, baseUrl?: string): Link[] {
  if (!isObject(links)) return [];
  const flat: Link[] = [];
  for (const [rel, value] of Object.entries(links)) {
    for (const entry of Array.isArray(value) ? value : [value]) {
      const link = readLink(rel, entry, baseUrl);
      if (link) flat.push(link);
    }
  }
  return flat;
}

/** A record's `_links`, flattened for display and for following. */
export function recordLinks(record: unknown): Link[] {
  return isObject(record) ? readLinks(record['_links']) : [];
}

function readLink(rel: string, entry: unknown, baseUrl: string | undefined): Link | undefined {
  const href = typeof entry === 'string' ? entry : isObject(entry) && typeof entry['href'] === 'string' ? entry['href'] : undefined;
  if (href === undefined || href === '') return undefined;
  const templated = isObject(entry) && entry['templated'] === true;
  const link: Link = { rel, href: baseUrl && !templated ? resolveAgainst(href, baseUrl) : href, templated };
  if (isObject(entry)) {
    if (typeof entry['type'] === 'string' && /^[a-z]+$/i.test(entry['type'])) link.method = entry['type'].toUpperCase();
    if (typeof entry['title'] === 'string') link.title = entry['title'];
  }
  return link;
}

function resolveAgainst(href: string, baseUrl: string): string {
  try {
    return new URL(href, baseUrl).toString();
  } catch {
    return href;
  }
}
