// Which resource a link points at, learned from the index: the link's path is matched against each
// operation's href template. A followed link then asks for that resource's media type, not the
// media type of the record it was found in.
import type { Catalog } from '../api/catalog.js';

export interface Route {
  resource: string;
  version: string;
}

function pathPattern(href: string): RegExp {
  const path = href.replace(/\{[?&#][^}]*\}/g, '').split('?')[0] ?? '';
  const escaped = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped.replace(/\/$/, '')}/?$`);
}

/** The resource (at its default version) whose operation href matches `url`'s path; the most literal match wins. */
export function routeFor(catalog: Catalog, url: string, base: string): Route | undefined {
  let path: string;
  try {
    const target = new URL(url, base);
    const basePath = new URL(base).pathname.replace(/\/$/, '');
    path = target.pathname.startsWith(basePath) ? target.pathname.slice(basePath.length) || '/' : target.pathname;
  } catch {
    return undefined;
  }
  let best: { route: Route; literal: number } | undefined;
  for (const resource of catalog.resources) {
    for (const version of resource.versions) {
      for (const operation of version.operations) {
        if (operation.method !== 'GET' || !pathPattern(operation.href).test(path)) continue;
        const literal = operation.href.replace(/\{[^}]*\}/g, '').length;
        if (!best || literal > best.literal) best = { route: { resource: resource.name, version: resource.defaultVersion }, literal };
      }
    }
  }
  return best?.route;
}
