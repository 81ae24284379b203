// What a session checks before anything leaves: its base URL is an http(s) URL, and a request goes only
// to the session's own origin, and writes only when writes are on. A refusal says why, in the exchange the
// session records for it (refusedExchange), and carries the error the caller gets.
import { SafetyError, UsageError, type DpxError } from '../errors.js';
import type { Exchange } from '../exchange.js';
import type { PreparedRequest } from '../hal/operation.js';
import type { WritesLock } from '../security/safety.js';
import { writeRefusal } from '../security/safety.js';

/** The base URL without a trailing slash, and its origin; anything but an http(s) URL is a usage error. */
export function controlPlaneBase(text: string): { baseUrl: string; origin: string } {
  let base: URL;
  try {
    base = new URL(text);
  } catch {
    throw new UsageError(`not a URL: ${text}`, "give the control plane's base URL, like https://host.example");
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new UsageError(`not an http(s) URL: ${text}`, "give the control plane's base URL, like https://host.example");
  }
  return { baseUrl: `${base.origin}${base.pathname.replace(/\/+$/, '')}`, origin: base.origin };
}

/** The request's URL when it may be sent; else why not (for the recorded exchange) and the error to throw. */
export function sendableUrl(
  url: string,
  method: string,
  session: { origin: string; readOnly: boolean; writesLocked?: WritesLock | undefined },
): { url: string } | { reason: string; error: DpxError } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${url}`, 'a request needs an absolute URL; prepare it through the session');
  }
  if (parsed.origin !== session.origin) {
    return {
      reason: `refused: ${parsed.origin} is not the session's origin`,
      error: new SafetyError(
        `refused to send the token to ${parsed.origin}: this session belongs to ${session.origin}`,
        'a link pointed to another host; the token is only ever sent to the control plane it was issued for',
      ),
    };
  }
  const refusal = writeRefusal(method, session.readOnly || session.writesLocked !== undefined, session.writesLocked);
  if (refusal) return { reason: 'refused: read-only mode', error: refusal };
  return { url: parsed.toString() };
}

/** A request refused before it left, as the session records it: what would have been sent, and why not. */
export function refusedExchange(request: PreparedRequest, reason: string): Exchange {
  const exchange: Exchange = {
    startedAt: new Date(),
    durationMs: 0,
    request: { method: request.method, url: request.url, headers: { ...request.headers } },
    error: reason,
  };
  if (request.body !== undefined) exchange.request.body = request.body;
  return exchange;
}
