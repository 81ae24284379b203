// The answers a session keeps for a while: the freshness window (a GET asked again soon is answered
// from memory) and the last answer with an ETag to each recent GET (asked again with If-None-Match, a
// 304 confirms it). Both are keyed by what makes two GETs the same: URL, Accept and unit.
import type { ApiResponse } from '../wire/response.js';
import { FreshnessCache } from './freshness.js';

const DEFAULT_FRESHNESS_MS = 30_000;
/** Answers kept with their ETags for revalidation: what a screen polls, not the history of a walk. */
export const VALIDATOR_CAPACITY = 32;
/** What the freshness window, and apart the answers kept for revalidation, hold at most: bytes of bodies (as text and as sent). */
const FRESHNESS_BUDGET = 2 * 1024 * 1024;

/** An answer's weight in memory: its body as text and its bytes (the parsed body weighs about as much). */
function weigh(response: ApiResponse): number {
  return response.text.length + (response.bytes?.byteLength ?? 0);
}

export interface Validator {
  etag: string;
  response: ApiResponse;
}

export class KeptAnswers {
  private readonly fresh: FreshnessCache<ApiResponse>;
  private readonly validators = new FreshnessCache<Validator>(Number.POSITIVE_INFINITY, VALIDATOR_CAPACITY, undefined, {
    weigh: (validator) => weigh(validator.response),
    budget: FRESHNESS_BUDGET,
  });

  constructor(freshnessMs = DEFAULT_FRESHNESS_MS) {
    this.fresh = new FreshnessCache(freshnessMs, undefined, undefined, { weigh, budget: FRESHNESS_BUDGET });
  }

  /** The key of a GET; undefined for any other method, whose answers are never kept. */
  static keyOf(method: string, url: string, headers: Record<string, string>, ouHeader: string): string | undefined {
    return method === 'GET' ? `${url}\n${headers['accept'] ?? ''}\n${headers[ouHeader] ?? ''}` : undefined;
  }

  recent(key: string): ApiResponse | undefined {
    return this.fresh.get(key);
  }

  validator(key: string): Validator | undefined {
    return this.validators.get(key);
  }

  /** A 304 to a conditional request: the kept answer is current again. */
  confirm(key: string, validator: Validator, durationMs: number): ApiResponse {
    // `text` named: an answer read in one pass decodes it in a getter, which spreading leaves behind.
    const confirmed: ApiResponse = {
      ...validator.response,
      text: validator.response.text,
      durationMs,
      notModified: true,
    };
    this.fresh.set(key, confirmed);
    return confirmed;
  }

  /** A 2xx answer to a GET; its ETag is kept only for the URL asked for, not one redirected to. */
  keep(key: string, response: ApiResponse, etag: string | undefined): void {
    this.fresh.set(key, response);
    if (etag) this.validators.set(key, { etag, response });
  }

  /** After a write, nothing read before it can be trusted as fresh. */
  forget(): void {
    this.fresh.clear();
  }
}
