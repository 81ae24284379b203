// Replaying a trail: its GET and HEAD requests sent again to the current control plane (another unit,
// profile or day), each answer compared with the recorded one. Writes are listed as skipped and never
// sent, whatever the session allows.
//
// Like is replayed with like: a recorded URL is moved from the case's base URL onto the session's, and
// asked in its recorded unit (unless the replay is told another on purpose) with its recorded Accept
// (the version asked for then); the token and timeouts are the session's own. A request recorded
// several times (a watched list) is replayed once, against its last recorded answer; a 304 only
// confirmed the answer before it. Nothing recorded to authenticate is ever sent: recorded headers are
// not replayed, a URL's user and password were dropped when the case was read, and a URL that still
// carries a recorded credential is skipped; so is a URL outside the base path (`..` is resolved first).

import { diffResponses, type ResponseDiff } from './diff.js';
import { ApiError, messageOf } from '../errors.js';
import { recordedUnit, type RecordedExchange, type RecordedTrail } from './har.js';
import { redactText } from '../security/redact.js';
import { isWriteMethod } from '../security/safety.js';
import type { Session } from '../session/session.js';
import { isUnder, normalisedUrl, rebase } from '../urls.js';

export interface ReplayRequest {
  method: string;
  /** The URL moved onto the session's base URL. */
  url: string;
  recordedUrl: string;
  /** The recorded Accept, kept; undefined when none was recorded. */
  accept?: string;
  /** The unit it was recorded in; undefined: none. */
  unit?: string;
  /** The last recorded answer to this request. */
  then: RecordedExchange;
}

export interface SkippedRequest {
  method: string;
  url: string;
  reason: string;
}

export interface ReplayPlan {
  requests: ReplayRequest[];
  skipped: SkippedRequest[];
}

export interface ReplayResult extends ResponseDiff {
  request: ReplayRequest;
  /** Why no answer came now (refused, unreachable); the status is then 0. */
  error?: string;
  /** Why the bodies were not compared (only the statuses were): the case holds none for this request. */
  notCompared?: string;
}

/** Statuses whose answers carry no body: nothing is missing from the case when it has none. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const REPLAYED_METHODS = new Set(['GET', 'HEAD']);

/** What a replay onto `baseUrl` would send, in the order first recorded, and what it leaves out and why. */
export function planReplay(trail: RecordedTrail, baseUrl: string): ReplayPlan {
  const planned = new Map<
    string,
    { request: Omit<ReplayRequest, 'then'>; answered?: RecordedExchange; last: RecordedExchange }
  >();
  const skipped: SkippedRequest[] = [];
  for (const exchange of trail.exchanges) {
    const url = rebase(exchange.url, trail.baseUrl, baseUrl);
    if (url === undefined || !isUnder(normalisedUrl(url), baseUrl)) {
      skipped.push({
        method: exchange.method,
        url: exchange.url,
        reason: `not below the case's base URL ${trail.baseUrl}: never sent by replay`,
      });
      continue;
    }
    if (trail.credentials.length > 0 && redactText(url, trail.credentials) !== url) {
      skipped.push({
        method: exchange.method,
        url: redactText(url, trail.credentials),
        reason: 'its URL carries a recorded credential: never sent by replay',
      });
      continue;
    }
    if (!REPLAYED_METHODS.has(exchange.method)) {
      const reason = isWriteMethod(exchange.method)
        ? 'a write: never sent by replay'
        : `${exchange.method} is not replayed (only GET and HEAD)`;
      skipped.push({ method: exchange.method, url, reason });
      continue;
    }
    const accept = exchange.requestHeaders['accept'];
    const unit = recordedUnit(trail, exchange);
    const key = `${exchange.method} ${normalisedUrl(url)}\n${accept ?? ''}\n${unit ?? ''}`;
    const entry = planned.get(key) ?? {
      request: {
        method: exchange.method,
        url,
        recordedUrl: exchange.url,
        ...(accept === undefined ? {} : { accept }),
        ...(unit === undefined ? {} : { unit }),
      },
      last: exchange,
    };
    entry.last = exchange;
    if (exchange.status >= 100 && exchange.status !== 304) entry.answered = exchange;
    planned.set(key, entry);
  }
  const requests: ReplayRequest[] = [];
  for (const { request, answered, last } of planned.values()) {
    if (answered) requests.push({ ...request, then: answered });
    else
      skipped.push({
        method: request.method,
        url: request.url,
        reason:
          last.status === 304
            ? 'only a 304 was recorded: nothing to compare with'
            : `no answer was recorded${last.error ? ` (${last.error})` : ''}`,
      });
  }
  return { requests, skipped };
}

export interface ReplayOptions {
  signal?: AbortSignal;
  /** Every request in this unit (null: in none) instead of its recorded one: a replay elsewhere on purpose. */
  unit?: string | null;
}

/** Sends each planned request in turn and yields its comparison as it arrives. */
export async function* replayTrail(
  session: Session,
  trail: RecordedTrail,
  options: ReplayOptions = {},
): AsyncGenerator<ReplayResult> {
  // The index names the vendor, and with it the unit header; a failure here shows again as the replayed index's own status.
  await session.catalog().catch(() => undefined);
  const { requests } = planReplay(trail, session.baseUrl);
  for (const request of requests) {
    options.signal?.throwIfAborted();
    yield await replayOne(session, trail, request, options);
  }
}

async function replayOne(
  session: Session,
  trail: RecordedTrail,
  request: ReplayRequest,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const { signal } = options;
  const headers: Record<string, string> = {};
  if (request.accept !== undefined) headers['accept'] = request.accept;
  const unit = options.unit === undefined ? request.unit : (options.unit ?? undefined);
  if (unit) headers[session.ouHeader.toLowerCase()] = unit;
  const text = await trail.text(request.then);
  // A browser leaves large or binary bodies out: then there is nothing to compare the answer with.
  const bodiless = text === undefined && request.method !== 'HEAD' && !NULL_BODY_STATUSES.has(request.then.status);
  const then = { status: request.then.status, body: parsed(text) };
  let now: { status: number; body: unknown };
  let error: string | undefined;
  try {
    const response = await session.send(
      { method: request.method, url: request.url, headers, resource: '', version: '', operationId: '' },
      { reload: true, ...(signal ? { signal } : {}) },
    );
    now = { status: response.status, body: response.body };
  } catch (thrown) {
    if (signal?.aborted) throw thrown;
    now = { status: thrown instanceof ApiError ? thrown.status : 0, body: undefined };
    if (!(thrown instanceof ApiError)) error = messageOf(thrown);
  }
  const diff = diffResponses(then, bodiless ? { status: now.status, body: undefined } : now, {
    then: trail.baseUrl,
    now: session.baseUrl,
  });
  return {
    ...diff,
    request,
    ...(error === undefined ? {} : { error }),
    ...(bodiless ? { notCompared: 'no body recorded' } : {}),
  };
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
