// Which resource a link points at, learned from the index: the link's path is matched against each
// operation's href template. A followed link then asks for that resource's media type, not the
// media type of the record it was found in, and a 202's Location finds the resource of its task.
import type { Catalog, Operation } from './catalog.js';
import { templateParts } from './template.js';

export interface Route {
  resource: string;
  version: string;
  /** The GET operation whose href template the path fits. */
  operation: Operation;
}

const QUERY_OR_FRAGMENT = new Set(['?', '&', '#']);

type PathMatcher = { pattern: RegExp; literal: number } | undefined;
const matchers = new WeakMap<Operation, PathMatcher>();

/**
 * The path an operation's href matches, and how many of its characters are literal; undefined for a
 * malformed template, which matches nothing. Query and fragment expressions are left out, and the path
 * ends at a literal `?`; every other expression matches one path segment. Worked out once per operation.
 */
function pathPattern(operation: Operation): PathMatcher {
  if (!matchers.has(operation)) matchers.set(operation, matcherOf(operation));
  return matchers.get(operation);
}

function matcherOf(operation: Operation): PathMatcher {
  const parts = operation.templated ? templateParts(operation.href) : [{ literal: operation.href }];
  if (!parts) return undefined;
  let escaped = '';
  for (const part of parts) {
    if ('operator' in part) {
      if (!QUERY_OR_FRAGMENT.has(part.operator)) escaped += '[^/]+';
      continue;
    }
    const end = part.literal.indexOf('?');
    escaped += (end === -1 ? part.literal : part.literal.slice(0, end)).replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    if (end !== -1) break;
  }
  const path = escaped.replace(/\/$/, '');
  const literal = parts.reduce((sum, part) => sum + ('literal' in part ? part.literal.length : 0), 0);
  // Anchored at the end only: a base URL's own path prefix (`/api/v2`) may come before the href.
  return { pattern: path === '' ? /^\/?$/ : new RegExp(`${path}/?$`), literal };
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
        const matcher = operation.method === 'GET' ? pathPattern(operation) : undefined;
        if (!matcher?.pattern.test(path)) continue;
        if (!best || matcher.literal > best.literal)
          best = {
            route: { resource: resource.name, version: resource.defaultVersion, operation },
            literal: matcher.literal,
          };
      }
    }
  }
  return best?.route;
}
