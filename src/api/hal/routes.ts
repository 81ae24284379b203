// Which resource a link points at, learned from the index: the link's path is matched against each
// operation's href template. A followed link then asks for that resource's media type, not the
// media type of the record it was found in, and a 202's Location finds the resource of its task.
import type { Catalog, Operation } from './catalog.js';

export interface Route {
  resource: string;
  version: string;
  /** The GET operation whose href template the path fits. */
  operation: Operation;
}

function pathPattern(href: string): RegExp {
  const path = href.replace(/\{[?&#][^}]*\}/g, '').split('?')[0] ?? '';
  const escaped = path
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  const literal = escaped.replace(/\/$/, '');
  // Anchored at the end only: a base URL's own path prefix (`/api/v2`) may come before the href.
  return literal === '' ? /^\/?$/ : new RegExp(`${literal}/?$`);
}

/** The resource (at its default version) whose GET operation href matches `url`'s path; the most literal match wins. */
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
        if (!best || literal > best.literal) best = { route: { resource: resource.name, version: resource.defaultVersion, operation }, literal };
      }
    }
  }
  return best?.route;
}
