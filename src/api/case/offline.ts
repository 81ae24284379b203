// Answers a session's requests from a recorded case instead of the network: the last step of a
// request's way out (request-chain.ts), so paging, errors, the origin guard and the trail of what was
// asked behave as they do online. Nothing is ever sent; a request the case does not hold fails with
// NotInTrailError, which says in words what the case holds for that resource (holdings.ts).
//
// A recorded answer matches a request by method, URL (query parameters in any order), organizational
// unit (the value of the unit header, or its absence) and Accept. Accept matches, best first: the same
// Accept; an answer whose Content-Type is the vendor media type asked for (a browser sends its own
// Accept, the server still answers with the version's type); a generic Accept (application/json,
// */*) for a generic one. Among equally good answers the latest recorded wins; a 304 confirms the
// answer before it and is never itself an answer. A body is read from the case when it is asked for.
// A list's first page the case holds only at another page size is answered at that size, and the
// session is told which (other-page-size.ts): the explorer and the CLI ask at sizes of their own.

import { DpxError } from '../errors.js';
import { recordedUnit, type RecordedExchange, type RecordedTrail } from './har.js';
import { describeRequest, holdingsFor } from './holdings.js';
import { parseVendorMediaType } from '../media.js';
import type { Transport, WireAnswer } from '../wire/transport.js';
import { normalisedUrl } from '../urls.js';
import { FirstPages } from './other-page-size.js';

/** The request was not recorded, so offline there is no answer to give; nothing was sent. */
export class NotInTrailError extends DpxError {
  constructor(message: string, hint: string) {
    super('transport', message, hint);
    this.name = 'NotInTrailError';
  }
}

/** Statuses whose responses carry no body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/** Recorded headers that describe the wire, not the body dpx reads back. */
const WIRE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);
/** Recorded headers that authenticate: masked when read, and not given back at all. */
const CREDENTIAL_HEADERS = new Set([
  'set-cookie',
  'cookie',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
]);

export function trailTransport(trail: RecordedTrail): Transport {
  const byRequest = new Map<string, RecordedExchange[]>();
  for (const exchange of trail.exchanges) {
    if (exchange.status < 200 || exchange.status === 304) continue;
    const key = requestKey(exchange.method, exchange.url);
    const list = byRequest.get(key) ?? [];
    list.push(exchange);
    byRequest.set(key, list);
  }
  let firstPages: FirstPages | undefined;
  const told = new Set<string>();
  return async (request, context) => {
    const method = request.method.toUpperCase();
    const unit = request.headers[context.ouHeader] || undefined;
    const inUnit = (exchange: RecordedExchange) => recordedUnit({ ouHeader: context.ouHeader }, exchange) === unit;
    const accept = request.headers['accept'] ?? '';
    let answer = bestMatch((byRequest.get(requestKey(method, request.url)) ?? []).filter(inUnit), accept);
    if (!answer && method === 'GET') {
      firstPages ??= new FirstPages(trail);
      const pages = firstPages.pagesOf(request.url).filter(({ exchange }) => inUnit(exchange));
      const largest = pages
        .filter(({ exchange }) => bestMatch([exchange], accept) !== undefined)
        .sort((a, b) => Number(b.size ?? 0) - Number(a.size ?? 0))[0];
      if (largest) {
        answer = largest.exchange;
        const asked = describeRequest(trail, method, request.url, request.headers['accept'], unit).text;
        if (!told.has(asked)) {
          told.add(asked);
          context.warn?.(
            `offline: ${asked} is shown from the page the case holds at ${largest.size === undefined ? "the server's default page size" : `page size ${largest.size}`}`,
          );
        }
      }
    }
    if (!answer) {
      const asked = describeRequest(trail, method, request.url, request.headers['accept'], unit);
      throw new NotInTrailError(
        `${asked.text} is not in this case`,
        `${holdingsFor(trail, asked.resource, context.ouHeader)}; ask for one of those, or without --offline`,
      );
    }
    const text = await trail.text(answer);
    if (text === undefined && method !== 'HEAD' && !NULL_BODY_STATUSES.has(answer.status)) {
      const asked = describeRequest(trail, method, request.url, request.headers['accept'], unit);
      throw new NotInTrailError(
        `${asked.text} is not in this case whole: ${answer.truncated ? 'only the start of its answer was recorded' : 'its answer was recorded without a body'}`,
        'record with bodies, or ask the control plane itself without --offline',
      );
    }
    return recordedResponse(answer, method, text);
  };
}

function requestKey(method: string, url: string): string {
  return `${method} ${normalisedUrl(url)}`;
}

function bestMatch(candidates: RecordedExchange[], accept: string): RecordedExchange | undefined {
  let best: { exchange: RecordedExchange; rank: number } | undefined;
  for (const exchange of candidates) {
    const rank = acceptRank(exchange, accept);
    if (rank !== undefined && (!best || rank <= best.rank)) best = { exchange, rank };
  }
  return best?.exchange;
}

/** 0 the same Accept, 1 the media type asked for answered, 2 generic for generic; undefined: no match. */
function acceptRank(exchange: RecordedExchange, accept: string): number | undefined {
  const recorded = exchange.requestHeaders['accept'] ?? '';
  if (recorded.trim() === accept.trim()) return 0;
  const asked = parseVendorMediaType(accept);
  if (asked) {
    const answered = parseVendorMediaType(exchange.contentType);
    const same =
      answered &&
      answered.vendor === asked.vendor &&
      answered.resource === asked.resource &&
      answered.version === asked.version;
    return same ? 1 : undefined;
  }
  return parseVendorMediaType(recorded) ? undefined : 2;
}

function recordedResponse(exchange: RecordedExchange, method: string, body: string | undefined): WireAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    if (!WIRE_HEADERS.has(name) && !CREDENTIAL_HEADERS.has(name)) headers[name] = value;
  }
  if (headers['content-type'] === undefined && exchange.contentType !== '')
    headers['content-type'] = exchange.contentType;
  const text = method === 'HEAD' || NULL_BODY_STATUSES.has(exchange.status) ? '' : (body ?? '');
  return { status: exchange.status, statusText: exchange.statusText, headers, text, size: Buffer.byteLength(text) };
}
