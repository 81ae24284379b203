// One attempt of a request on the wire: a slot of the control plane's limiter, a timeout, the way out
// (request-chain.ts) with the body read within its limit, the exchange recorded, a 429 noted for the
// whole plane, and a network failure turned into a TransportError (or a retry after a connection reset).
import { Cancellable } from './cancellable.js';
import { CancelledError, DpxError, messageOf, TransportError } from '../errors.js';
import type { Exchange, ExchangeRequest, ExchangeResponse } from '../exchange.js';
import type { RequestLimiter, Release } from './limiter.js';
import type { RequestChain } from './request-chain.js';
import { RawAnswer, type RawResponse } from './response.js';
import type { WireAnswer } from './transport.js';
import { isConnectionReset, isRetryableMethod, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry.js';
import { currentPriority } from './priority.js';
import { monotonicMs } from './clock.js';
import { describeNetworkError, type NetworkTarget, networkHint } from './network-words.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const EXCHANGE_BODY_LIMIT = 1024 * 1024;

/** One try at sending a request: `attempt` counts the tries so far, for the backoff. */
export interface Attempt {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  /** Its place in the limiter's queue (see SendOptions.priority). */
  priority?: number | undefined;
  attempt: number;
}

export interface WireOptions {
  origin: string;
  chain: RequestChain;
  limiter: RequestLimiter;
  retryPolicy: RetryPolicy;
  /** Whether attempts take a slot of the limiter: a transport that answers from a trail sends nothing to pace. */
  paced: boolean;
  /** The run's interruption: once aborted, no attempt starts and those in flight are cancelled. */
  stop?: AbortSignal;
  timeoutMs?: number;
  /** Largest response body read; a bigger one is a ProtocolError. */
  maxBodyBytes?: number;
  /** The session's counters: requests sent (every attempt) and the last latency. */
  stats: { requests: number; lastLatencyMs: number | undefined };
  emit: (exchange: Exchange) => void;
}

export class Wire {
  constructor(private readonly options: WireOptions) {}

  /** One attempt: a response (any status), a retry request after a connection reset, or a thrown DpxError. */
  async attempt(sending: Attempt): Promise<RawResponse | { retry: number }> {
    // A transport that answers from a trail sends nothing to any control plane: there is nothing to pace.
    const release = this.options.paced ? await this.slot(sending) : () => undefined;
    try {
      // A slot can come free after the run was interrupted: the request it was waiting for is not sent.
      if (this.options.stop?.aborted)
        throw new CancelledError(
          `not sent: ${sending.method} ${sending.url}`,
          'the run was interrupted; nothing more is sent',
        );
      return await this.attemptInSlot(sending);
    } finally {
      release();
    }
  }

  /** A slot of the plane's limiter; waiting for it is cancelled with the request. */
  private async slot({ method, url, signal, priority }: Attempt): Promise<Release> {
    try {
      return await this.options.limiter.acquire(signal, priority ?? currentPriority());
    } catch (error) {
      throw new CancelledError(`cancelled: ${method} ${url}`, 'the request was cancelled before it was sent', {
        cause: error,
      });
    }
  }

  private async attemptInSlot({
    method,
    url,
    headers,
    body,
    signal,
    attempt,
  }: Attempt): Promise<RawResponse | { retry: number }> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // The timer is cleared as soon as the attempt ends: AbortSignal.timeout would keep it (and what it
    // holds) alive for the whole timeout, which a fan-out of thousands of requests pays for in collections.
    const cancellable = new Cancellable();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      cancellable.cancel(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => cancellable.cancel(signal?.reason instanceof Error ? signal.reason : new Error('cancelled'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const stop = this.options.stop;
    const onStop = () => cancellable.cancel(new Error('interrupted'));
    stop?.addEventListener('abort', onStop, { once: true });
    const startedAt = new Date();
    const started = monotonicMs();
    const outgoing: ExchangeRequest = { method, url, headers: { ...headers } };
    if (body !== undefined) outgoing.body = body;
    const exchange: Exchange = { startedAt, durationMs: 0, request: outgoing };
    this.options.stats.requests += 1;
    try {
      const answer = await this.options.chain.send(outgoing, {
        cancellable,
        maxBodyBytes: this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      });
      const { status, headers: responseHeaders } = answer;
      const contentType = responseHeaders['content-type'] ?? '';
      const durationMs = monotonicMs() - started;
      // Noted before the slot is given back, so that no request queued behind this one starts meanwhile.
      if (this.options.paced)
        this.options.limiter.noteAnswer(
          { status, latencyMs: durationMs, headers: responseHeaders },
          status === 429 ? this.pauseAfter429(responseHeaders['retry-after']) : undefined,
        );
      this.options.stats.lastLatencyMs = durationMs;
      exchange.durationMs = durationMs;
      exchange.response = new ExchangedAnswer(answer, contentType);
      this.options.emit(exchange);
      return new RawAnswer(answer, contentType, url, durationMs);
    } catch (error) {
      exchange.durationMs = monotonicMs() - started;
      if (!exchange.response) {
        exchange.error = messageOf(error);
        this.options.emit(exchange);
      }
      if (error instanceof DpxError) throw error;
      if (signal?.aborted || stop?.aborted)
        throw new CancelledError(`cancelled: ${method} ${url}`, 'the request was cancelled before it finished', {
          cause: error,
        });
      if (timedOut) {
        throw new TransportError(
          `no answer from ${this.options.origin} within ${describeTimeout(timeoutMs)}`,
          'the control plane is slow or unreachable; try again, or raise --timeout',
          { cause: error },
        );
      }
      if (isRetryableMethod(method) && isConnectionReset(error)) {
        const wait = retryDelayMs(this.options.retryPolicy, attempt, undefined);
        if (wait !== undefined) return { retry: wait };
      }
      const problem = describeNetworkError(error, targetOf(this.options.origin));
      throw new TransportError(`could not reach ${this.options.origin}: ${problem}`, networkHint(error), {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      stop?.removeEventListener('abort', onStop);
    }
  }

  /**
   * How long a 429 pauses the whole plane: its Retry-After, when it is one the retry policy would wait
   * for. A longer one fails the request at once (see retryDelayMs), and pausing everything else for it
   * would only hold back answers that fail just as fast.
   */
  private pauseAfter429(retryAfter: string | undefined): number | undefined {
    const seconds = parseRetryAfter(retryAfter);
    if (seconds === undefined) return undefined;
    const ms = seconds * 1000;
    return ms <= this.options.retryPolicy.maxDelayMs ? ms : undefined;
  }
}

// The answer's text is read from it when someone reads it (a trail, the request log), so that a page read
// from its bytes is never decoded otherwise. A class, not getters in an object literal: one of those made per
// answer kept answers alive past the young generation (and its scope, the request and its socket).

class ExchangedAnswer implements ExchangeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Record<string, string>;
  readonly size: number;
  readonly #answer: WireAnswer;

  constructor(
    answer: WireAnswer,
    readonly contentType: string,
  ) {
    this.#answer = answer;
    this.status = answer.status;
    this.statusText = answer.statusText;
    this.headers = answer.headers;
    this.size = answer.size;
  }

  get body(): string {
    const { text } = this.#answer;
    return text.length > EXCHANGE_BODY_LIMIT ? text.slice(0, EXCHANGE_BODY_LIMIT) : text;
  }

  get bodyTruncated(): boolean {
    return this.#answer.text.length > EXCHANGE_BODY_LIMIT;
  }
}

/** "0.7 s", "30 s"; a timeout shorter than a tenth of a second in ms, where it would read "0 s". */
function describeTimeout(ms: number): string {
  return ms < 100 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** The host and port an origin names, its scheme's default port when it names none. */
function targetOf(origin: string): NetworkTarget | undefined {
  try {
    const url = new URL(origin);
    return { host: url.hostname, port: url.port || (url.protocol === 'https:' ? '443' : '80') };
  } catch {
    return undefined;
  }
}
