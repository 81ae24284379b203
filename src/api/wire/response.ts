// Reading an answer: its body (read within its size limit by the transport) parsed as JSON when it
// says it is JSON, with the nesting depth checked once, so that no reader after it has to survive a
// hostile depth.
import { ProtocolError } from '../errors.js';
import { summariseBody } from './failure.js';
import { isJsonMediaType } from '../media.js';
import { readListBody, type SentRecords } from './list-body.js';
import type { WireAnswer } from './transport.js';

export interface ApiResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: unknown;
  text: string;
  /** The body's bytes as they came off the wire (see WireAnswer). */
  bytes?: Uint8Array;
  /** A list envelope's records as sent, when they were asked for (SendOptions.recordsAsSent) and read in one pass. */
  records?: SentRecords;
  url: string;
  method: string;
  durationMs: number;
  contentType: string;
  /** The server answered 304 to a revalidation: this is the answer it confirmed, unchanged. */
  notModified?: boolean;
}

/** An answer as it came off the wire, before its body is parsed, with where and how fast it came. */
export interface RawResponse extends WireAnswer {
  contentType: string;
  url: string;
  durationMs: number;
}

/** Deepest nesting of objects and arrays read from a body; real records stay within a dozen or so. */
export const MAX_JSON_DEPTH = 256;

/**
 * An answer as the caller gets it: its body parsed when it is JSON. A success that is not JSON, or
 * nests past MAX_JSON_DEPTH, is a ProtocolError; an error status whose body cannot be read keeps only
 * its text, for the error to be built from. With `recordsAsSent`, a success that is a list envelope is
 * read from its bytes in one pass (list-body.ts), its records left unparsed until read; a body that pass
 * does not vouch for is read as any other.
 */
export function interpretResponse(raw: RawResponse, method: string, recordsAsSent = false): ApiResponse {
  const ok = raw.status >= 200 && raw.status < 300;
  const looksJson = raw.contentType === '' || isJsonMediaType(raw.contentType);
  if (recordsAsSent && ok && looksJson && raw.bytes !== undefined) {
    const read = readListBody(raw.bytes, MAX_JSON_DEPTH);
    if (read !== undefined) return new OnePassResponse(raw, method, read.body, read.records);
  }
  let body: unknown;
  if (raw.text.trim() !== '') {
    if (looksJson) {
      try {
        body = JSON.parse(raw.text);
      } catch (error) {
        if (ok) {
          throw new ProtocolError(
            `the body of ${method} ${raw.url} is not valid JSON`,
            "the server or a proxy sent something other than the API's JSON",
            { cause: error },
          );
        }
      }
      // Checked once here so that no reader after it (output formats, the record tree, redaction) has
      // to survive a depth that overflows the stack of anything recursive, JSON.stringify included.
      if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
        if (ok) {
          throw new ProtocolError(
            `the response to ${method} ${raw.url} nests deeper than ${MAX_JSON_DEPTH} levels`,
            'no record of this API needs that depth; to see the body as sent, run the request with curl (`dpx call … --dry-run` prints the command)',
          );
        }
        // An error status still reads as an API error; only its body goes unread, as when it is not JSON.
        body = undefined;
      }
    } else if (ok) {
      throw new ProtocolError(
        `expected JSON from ${method} ${raw.url}, got ${summariseBody(raw.text, raw.contentType)}`,
        'a proxy or login page may sit in front of the API; check the base URL',
      );
    }
  }
  return {
    status: raw.status,
    statusText: raw.statusText,
    headers: raw.headers,
    body,
    text: raw.text,
    bytes: raw.bytes,
    url: raw.url,
    method,
    durationMs: raw.durationMs,
    contentType: raw.contentType,
  };
}

/**
 * An answer read before without its records as sent (one the session kept), with them: read from its
 * bytes, its body left as it was parsed then.
 */
export function withRecordsAsSent(response: ApiResponse): ApiResponse {
  if (response.records !== undefined || response.bytes === undefined) return response;
  const read = readListBody(response.bytes, MAX_JSON_DEPTH);
  return read === undefined ? response : { ...response, records: read.records };
}

/**
 * An answer as it came off the wire, its text decoded from it only when something reads it (a trail, the
 * request log, an error), so that a page read from its bytes is never decoded otherwise. A class, not a
 * getter in an object literal: one of those made per answer kept answers alive past the young generation
 * (and its scope, the request and its socket). Copied by spreading, it loses its text: copy `text` along
 * (kept-answers.ts does).
 */
export class RawAnswer implements RawResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly size: number;
  readonly bytes: Uint8Array | undefined;
  readonly #answer: WireAnswer;

  constructor(
    answer: WireAnswer,
    readonly contentType: string,
    readonly url: string,
    readonly durationMs: number,
  ) {
    this.#answer = answer;
    this.status = answer.status;
    this.statusText = answer.statusText;
    this.headers = answer.headers;
    this.size = answer.size;
    this.bytes = answer.bytes;
  }

  get text(): string {
    return this.#answer.text;
  }
}

/** An answer read in one pass: the envelope parsed, its records as sent, its text still not decoded. */
class OnePassResponse extends RawAnswer implements ApiResponse {
  constructor(
    raw: RawResponse,
    readonly method: string,
    readonly body: unknown,
    readonly records: SentRecords,
  ) {
    super(raw, raw.contentType, raw.url, raw.durationMs);
  }
}

/**
 * Whether a parsed JSON value nests objects and arrays more than `limit` deep (a scalar body is depth
 * 0, `{}` depth 1). Iterative, so that the check itself survives any depth; it stops at the first
 * container past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const containers: object[] = [value];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(container)) {
      for (const child of container) {
        if (typeof child === 'object' && child !== null) {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in container) {
        const child = (container as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
