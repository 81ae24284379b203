// Replaying a trail: its GET and HEAD requests sent again to the current control plane (another unit,
// profile or day), each answer compared with the recorded one. Writes are listed as skipped and never
// sent, whatever the session allows.
//
// A recorded URL is moved from the trail's base URL onto the session's; the recorded Accept is kept
// (the version asked for then); everything else is the session's own (token, unit, timeouts). A
// request recorded several times (a watched list) is replayed once, against its last recorded answer;
// a 304 only confirmed the answer before it.

import { diffResponses, type ResponseDiff } from './diff.js';
import { ApiError, messageOf } from '../errors.js';
import type { RecordedExchange, RecordedTrail } from './har.js';
import { isWriteMethod } from '../security/safety.js';
import type { Session } from '../session/session.js';
import { normalisedUrl, rebase } from '../urls.js';

export interface ReplayRequest {
  method: string;
  /** The URL moved onto the session's base URL. */
  url: string;
  recordedUrl: string;
  /** The recorded Accept, kept; undefined when none was recorded. */
  accept?: string;
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
}

const REPLAYED_METHODS = new Set(['GET', 'HEAD']);

/** What a replay onto `baseUrl` would send, in the order first recorded, and what it leaves out and why. */
export function planReplay(trail: RecordedTrail, baseUrl: string): ReplayPlan {
  const planned = new Map<string, { request: Omit<ReplayRequest, 'then'>; answered?: RecordedExchange; last: RecordedExchange }>();
  const skipped: SkippedRequest[] = [];
  for (const exchange of trail.exchanges) {
    const url = rebase(exchange.url, trail.baseUrl, baseUrl) ?? exchange.url;
    if (!REPLAYED_METHODS.has(exchange.method)) {
      const reason = isWriteMethod(exchange.method) ? 'a write: never sent by replay' : `${exchange.method} is not replayed (only GET and HEAD)`;
      skipped.push({ method: exchange.method, url, reason });
      continue;
    }
    const accept = exchange.requestHeaders['accept'];
    const key = `${exchange.method} ${normalisedUrl(url)}\n${accept ?? ''}\n${exchange.requestHeaders[trail.ouHeader] ?? ''}`;
    const entry = planned.get(key) ?? { request: { method: exchange.method, url, recordedUrl: exchange.url, ...(accept === undefined ? {} : { accept }) }, last: exchange };
    entry.last = exchange;
    if (exchange.status >= 100 && exchange.status !== 304) entry.answered = exchange;
    planned.set(key, entry);
  }
  const requests: ReplayRequest[] = [];
  for (const { request, answered, last } of planned.values()) {
    if (answered) requests.push({ ...request, then: answered });
    else skipped.push({ method: request.method, url: request.url, reason: last.status === 304 ? 'only a 304 was recorded: nothing to compare with' : `no answer was recorded${last.error ? ` (${last.error})` : ''}` });
  }
  return { requests, skipped };
}

/** Sends each planned request in turn and yields its comparison as it arrives. */
export async function* replayTrail(session: Session, trail: RecordedTrail, options: { signal?: AbortSignal } = {}): AsyncGenerator<ReplayResult> {
  // The index names the vendor, and with it the unit header; a failure here shows again as the replayed index's own status.
  await session.catalog().catch(() => undefined);
  const { requests } = planReplay(trail, session.baseUrl);
  for (const request of requests) {
    options.signal?.throwIfAborted();
    yield await replayOne(session, trail, request, options.signal);
  }
}

async function replayOne(session: Session, trail: RecordedTrail, request: ReplayRequest, signal: AbortSignal | undefined): Promise<ReplayResult> {
  const headers: Record<string, string> = {};
  if (request.accept !== undefined) headers['accept'] = request.accept;
  if (session.ou) headers[session.ouHeader.toLowerCase()] = session.ou;
  const then = { status: request.then.status, body: parsed(request.then.text) };
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
  const diff = diffResponses(then, now, { then: trail.baseUrl, now: session.baseUrl });
  return { ...diff, request, ...(error === undefined ? {} : { error }) };
}

function parsed(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
