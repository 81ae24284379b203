// The proxy client, loaded only when a proxy is in use (transport.ts imports it on first need): the
// agents of https-proxy-agent (a CONNECT tunnel per connection, for an https control plane) and
// http-proxy-agent (requests in absolute form, for an http one), kept alive like the direct ones, so
// that a tunnel carries request after request and there are never more tunnels than requests in flight.
// They send the proxy URL's user and password as Proxy-Authorization; the request dpx records never
// holds that header, and messages name the proxy by scheme, host and port alone.
import type { Agent } from 'node:http';
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { ProxyError, UsageError } from '../errors.js';
import { shownProxy } from './proxy.js';
import { describeNetworkError } from './network-words.js';
import type { Trust } from './trust.js';

/** The agent through `proxy`; an https:// proxy's own certificate is checked against `trust` when given, else Node's. */
export async function proxyAgent(
  proxy: string,
  scheme: 'http' | 'https',
  idleMs: number,
  trust: Trust,
): Promise<Agent> {
  // --proxy and a profile's were checked with the settings; the environment's are checked here.
  let protocol: string | undefined;
  try {
    protocol = new URL(proxy).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(
      `the proxy ${shownProxy(proxy)} is not an http or https proxy URL`,
      'check HTTPS_PROXY, HTTP_PROXY and ALL_PROXY (or give --proxy http://host:port)',
    );
  }
  const options = { keepAlive: true, timeout: idleMs, ...trust };
  return scheme === 'https' ? new HttpsProxyAgent(proxy, options) : new HttpProxyAgent(proxy, options);
}

/**
 * Through a tunnel the TLS connection is made over the proxy's socket, with no host of its own: an
 * https control plane named by its IP address (which cannot be sent as SNI) would be checked against
 * "localhost". Its certificate is checked against the control plane's host, as without a proxy.
 */
export function tunnelledIdentity(url: string): {
  checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined;
} {
  const { protocol, hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  if (protocol !== 'https:' || isIP(host) === 0) return {};
  return { checkServerIdentity: (_host, cert) => checkServerIdentity(host, cert) };
}

/** Failures of the connection to the proxy itself: everything then goes nowhere, so it is the proxy's. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** `error` as the proxy's when it is about reaching the proxy; as it is otherwise (a reset is retried). */
export function proxyUnreachable(proxy: string, url: string, error: Error): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const ended = /proxy connection ended/i.test(error.message);
  if (!ended && (code === undefined || !UNREACHABLE.has(code))) return error;
  return new ProxyError(
    `could not reach the proxy ${shownProxy(proxy)} (on the way to ${originOf(url)}): ${ended ? 'it closed the connection' : describeNetworkError(error)}`,
    "check the proxy's address (--proxy, the profile's proxy, or HTTPS_PROXY / HTTP_PROXY), or list the control plane's host in NO_PROXY to go around it",
    { cause: error },
  );
}

/** The https:// proxy's own certificate was refused: said as the proxy's, not the control plane's. */
export function proxyCertificate(proxy: string, url: string, error: Error): ProxyError {
  return new ProxyError(
    `the proxy ${shownProxy(proxy)}'s TLS certificate is not trusted (on the way to ${originOf(url)}): ${describeNetworkError(error)}`,
    "give the authority that signed the proxy's certificate with --proxy-ca-file (or --ca-file, which covers both the proxy and the control plane)",
    { cause: error },
  );
}

/**
 * The proxy answered the tunnel or the request itself with a refusal: 407, or a 401 with
 * Proxy-Authenticate (as tinyproxy answers a wrong password), asks for credentials.
 */
export function proxyRefusal(proxy: string, url: string, status: number, statusText: string): ProxyError {
  const hint =
    status === 407 || status === 401
      ? 'the proxy asks for credentials: give them in its URL, http://USER:PASSWORD@host:port (they are sent as Proxy-Authorization and never shown)'
      : 'the proxy may not allow this host or port; ask for it to be allowed, or list the host in NO_PROXY to go around the proxy';
  return new ProxyError(
    `the proxy ${shownProxy(proxy)} refused the way to ${originOf(url)}: ${status}${statusText ? ` ${statusText}` : ''}`,
    hint,
  );
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
