// Links as ketting models them: a `Link` (relation, href, the context its href is relative to,
// `templated`, title) in a `Links` set, read from HAL `_links` or from an RFC 8288 `Link` header (ketting's
// parseLink), and resolved by ketting's resolve(). Only those pieces of ketting are imported: its package
// root loads its client, state and OAuth code, and its HAL state factory drops items without a self link.
// A HAL link's `type` is the HTTP method of an action link in this API, kept as `method`.
import { parseLink } from 'ketting/dist/http/util.js';
import { Links, type Link as KettingLink } from 'ketting/dist/link.js';
import { resolve } from 'ketting/dist/util/uri.js';
import { ProtocolError } from '../errors.js';
import { isObject } from '../json.js';
import { expandTemplate } from './template.js';

/** A link: ketting's, with the HTTP method an action link names in HAL's `type`. */
export interface Link extends KettingLink {
  method?: string;
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

/**
 * The links of one HAL `_links` object, relative to `context`: the URL of the document they came in;
 * '' for the base URL, when that is not known. A relation may hold one link object or an array of them.
 */
export function halLinks(raw: unknown, context = ''): Links {
  const links = new Links(context);
  if (!isObject(raw)) return links;
  for (const [rel, value] of Object.entries(raw)) {
    for (const entry of Array.isArray(value) ? value : [value]) {
      const link = halLink(rel, entry, context);
      if (link) links.add(link);
    }
  }
  return links;
}

/** A record's `_links` in order, for display and following; relative to `context` (see halLinks). */
export function recordLinks(record: unknown, context = ''): Link[] {
  return isObject(record) ? halLinks(record['_links'], context).getAll() : [];
}

/** The first link of a relation however spelled (`_self`, `Self`, `self`). */
export function linkOf(links: readonly Link[], rel: string): Link | undefined {
  const wanted = normaliseRel(rel);
  return links.find((link) => normaliseRel(link.rel) === wanted);
}

function halLink(rel: string, entry: unknown, context: string): Link | undefined {
  const href =
    typeof entry === 'string'
      ? entry
      : isObject(entry) && typeof entry['href'] === 'string'
        ? entry['href']
        : undefined;
  if (href === undefined || href === '') return undefined;
  const link: Link = { rel, href, context, templated: isObject(entry) && entry['templated'] === true };
  if (isObject(entry)) {
    if (typeof entry['type'] === 'string' && /^[a-z]+$/i.test(entry['type'])) link.method = entry['type'].toUpperCase();
    if (typeof entry['title'] === 'string') link.title = entry['title'];
  }
  return link;
}

/**
 * The links of an RFC 8288 `Link` header, relative to `context` (the URL of the answer that carried it),
 * by ketting's parseLink. A header that cannot be read gives no links and says why.
 */
export function headerLinks(header: string | undefined, context: string): { links: Links; problem?: string } {
  if (header === undefined || header.trim() === '') return { links: new Links(context) };
  try {
    return { links: parseLink(context, header) };
  } catch (error) {
    return {
      links: new Links(context),
      problem: `its Link header could not be read (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/**
 * An href of the server as an absolute URL, by ketting's resolve() against `context` (the base URL when
 * it is ''). The spec appends paths to {base_url}, so a path from the root (`/things`) under a base
 * with a path prefix (https://host/api) gets that prefix, unless it carries it already. An href that no
 * URL can be made of is the server's fault: a ProtocolError naming it.
 */
export function resolveHref(baseUrl: string, href: string, context = ''): string {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const fromRoot = href.startsWith('/') && !href.startsWith('//');
  const carriesPrefix = href === prefix || href.startsWith(`${prefix}/`) || href.startsWith(`${prefix}?`);
  const placed = prefix && fromRoot && !carriesPrefix ? `${prefix}${href}` : href;
  return resolveLink({ href: placed, context: context || `${base.origin}${prefix}/` }, href);
}

/** Where a link leads: its href against its own context, on the base URL (resolveHref). */
export function linkUrl(link: Link, baseUrl: string): string {
  return resolveHref(baseUrl, link.href, link.context);
}

/** ketting's resolve() of a link against its context; a ProtocolError naming the href when no URL can be made of it. */
function resolveLink(link: Pick<Link, 'href' | 'context'>, shown = link.href): string {
  try {
    return resolve(link.context, link.href);
  } catch (error) {
    throw brokenHref(shown, error);
  }
}

/**
 * The link with its template expanded by `values` when it is templated (a malformed template is refused,
 * naming the link); as it is otherwise: an href not marked templated is used as written, braces and all.
 */
export function expandedLink(link: Link, values: Record<string, string | undefined> = {}): Link {
  if (!link.templated) return link;
  return { ...link, href: expandTemplate(link.href, values, `the link "${link.rel}"`), templated: false };
}

/**
 * A URL the server gave (an index href, a link, a Location header) against `base`, by resolve(). One that
 * no URL can be made of is the server's fault, so a ProtocolError naming it — not the usage error of a
 * user's bad URL.
 */
export function serverUrl(href: string, base?: string): URL {
  try {
    return new URL(base === undefined ? href : resolve(base, href));
  } catch (error) {
    throw brokenHref(href, error);
  }
}

function brokenHref(href: string, cause: unknown): ProtocolError {
  return new ProtocolError(
    `the server gave a link that is not a valid URL: ${JSON.stringify(href)}`,
    "the server's links are broken here; report it to the control plane's owners",
    { cause },
  );
}
