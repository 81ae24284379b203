// Which forward proxy, if any, a control plane is reached through, as curl decides it:
// - a proxy given on purpose (--proxy, a profile's `proxy`) wins over the environment; an empty one
//   means none at all;
// - else the environment's: https_proxy / HTTPS_PROXY for an https control plane, http_proxy /
//   HTTP_PROXY for an http one, all_proxy / ALL_PROXY for either, the lower-case form first;
// - NO_PROXY (or no_proxy) sends matching hosts around any of them, read as curl reads it (no-proxy.ts):
//   names and their domains, addresses and CIDR ranges, split on commas.
// A proxy URL without a scheme is an http one, as in curl. This module only chooses: the proxy client
// (proxied.ts) is loaded only when a proxy is chosen, so that a run without one pays nothing for it.

import { bypassed } from './no-proxy.js';

/** The environment's proxy variables, by their name as found. */
export type ProxyEnvironment = Record<string, string>;

export const PROXY_VARIABLES = [
  'https_proxy',
  'HTTPS_PROXY',
  'http_proxy',
  'HTTP_PROXY',
  'all_proxy',
  'ALL_PROXY',
  'no_proxy',
  'NO_PROXY',
] as const;

export interface ProxyChoice {
  /** --proxy or the profile's: '' for no proxy at all. */
  proxy?: string;
  /** The proxy variables of the environment dpx was started in. */
  environment?: ProxyEnvironment;
}

/** The proxy URL for `origin` (`https://host:port`), or undefined to connect directly. */
export function proxyFor(origin: string, choice: ProxyChoice): string | undefined {
  const env = choice.environment ?? {};
  const target = new URL(origin);
  const scheme = target.protocol.slice(0, -1);
  const chosen =
    choice.proxy ?? firstSet(env, `${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, 'all_proxy', 'ALL_PROXY');
  if (chosen === undefined || chosen.trim() === '') return undefined;
  const port = Number(target.port) || (scheme === 'https' ? 443 : 80);
  if (bypassed(target.hostname, port, firstSet(env, 'no_proxy', 'NO_PROXY') ?? '')) return undefined;
  const proxy = chosen.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

function firstSet(env: ProxyEnvironment, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** A proxy URL as it may be shown: scheme, host and port, never its user or password. */
export function shownProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(a proxy URL that cannot be read)';
  }
}
