// What a session is set up with (its control plane, token, limits, listeners) and what each request
// may ask of it (reload, revalidate, read once, cancel).
import type { IndexStore } from '../hal/discovery.js';
import type { ExchangeListener } from '../exchange.js';
import type { LimiterStats } from '../wire/limiter.js';
import type { Credential } from '../wire/credential.js';
import type { NetworkOptions } from '../wire/network.js';
import type { Transport } from '../wire/transport.js';
import type { WritesLock } from '../security/safety.js';

export type { NetworkOptions } from '../wire/network.js';

/** A list's largest page as learned: what to ask for, and how many records a full page then holds. */
export interface PageSize {
  ask: number;
  perPage: number;
}

/** A list whose largest page could not be learned: the server's default applies, since `at` (ms since the epoch). */
export interface ServerDefaultPage {
  serverDefault: true;
  at: number;
}

/**
 * Per list (`resource version operation`): its largest page, or the server's default where none could
 * be learned. A null is what earlier versions wrote for the latter, without a date.
 */
export type StoredPageSizes = Record<string, PageSize | ServerDefaultPage | null>;

export interface PageSizeStore {
  read(baseUrl: string): Promise<StoredPageSizes | undefined>;
  write(baseUrl: string, sizes: StoredPageSizes): Promise<void>;
}

export interface SessionOptions {
  baseUrl: string;
  token?: string;
  /** The token had when first needed (a command), asked again once after a 401; `token` wins when both are given. */
  credential?: Credential;
  /** A proxy, certificate authorities; the network with Node's defaults when not given. */
  network?: NetworkOptions;
  ou?: string;
  ouHeader?: string;
  /** The vendor token of the media types, used until the index names one. */
  vendor?: string;
  /** True: `vendor` wins over the one the index's Content-Type names (the user said --vendor). */
  vendorOverride?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  /** Longest single wait between retries; a Retry-After beyond it ends the retries. */
  maxRetryDelayMs?: number;
  /** First backoff step between retries. */
  retryBaseDelayMs?: number;
  readOnly?: boolean;
  /** Why writes stay off whatever turns them on (a locked profile, a view, a trail): said when one is refused. */
  writesLocked?: WritesLock;
  userAgent?: string;
  freshnessMs?: number;
  /** Largest response body read; a bigger one is a ProtocolError. */
  maxBodyBytes?: number;
  /** Requests in flight at once to this control plane (default 8). */
  concurrency?: number;
  /** Requests started per second to this control plane, at most (default 50). */
  ratePerSecond?: number;
  onExchange?: ExchangeListener;
  onWarning?: (message: string) => void;
  /**
   * Once this aborts (the run was interrupted), the session starts no request: every attempt, retry and
   * redirect is refused before it is sent, and those in flight are cancelled.
   */
  stop?: AbortSignal;
  /** The most pages a walk by `next` links reads before it calls the chain endless (see walkPages). */
  pageGuard?: number;
  /** Keeps the discovery index between runs: it is then revalidated with If-None-Match, not fetched anew. */
  indexStore?: IndexStore;
  /** Keeps the largest page of each list between runs (page-size.ts): a run's first guess, checked by its first page. */
  pageSizeStore?: PageSizeStore;
  /**
   * The last step of a request's way out, after the origin guard, User-Agent and the token; the network
   * when not given. Offline, `trailTransport` answers from a trail and nothing is sent.
   */
  transport?: Transport;
}

export interface SendOptions {
  /** Skip the freshness window: ask the server again. */
  reload?: boolean;
  /**
   * Ask the server whether a GET's answer changed (watch polling): with the ETag of the last answer to
   * the same request, If-None-Match goes along, and a 304 gives that last answer back marked
   * `notModified`. Implies `reload`.
   */
  revalidate?: boolean;
  /**
   * The answer is read once (a page of a walk, a count): it is not kept for the freshness window nor for
   * revalidation. Kept, every page of an export would live long enough to be promoted to the old heap,
   * and the collector spent more time on them than the walk did on anything else.
   */
  once?: boolean;
  /**
   * The answer is a list envelope read for its records as sent (an export): its body is read from its
   * bytes in one pass and its records are parsed only when read (ApiResponse.records).
   */
  recordsAsSent?: boolean;
  signal?: AbortSignal;
  /**
   * Where the request waits for a slot of the limiter: before every request of a lower priority, after
   * those of its own (default: the `withPriority` the request was sent within, else 0). The explorer gives
   * the screen in front a higher one than those behind.
   */
  priority?: number;
}

/** What a progress line says about the traffic: requests sent (every attempt), in flight, waiting, 429s. */
export interface TrafficStats extends LimiterStats {
  requests: number;
}
