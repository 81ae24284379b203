// One control plane: its requests through the fetch chain (fetch-chain.ts), the OU header, timeouts, the
// limiter's slots, retries of reads, redirects within the origin, the freshness window, conditional
// requests (If-None-Match), the discovery index, and the mapping of every failure to a DpxError. Bodies
// are read raw (response.ts): dpx uses none of ketting's state cache or HAL parsing, which drop links of
// vendor media types and items without a self link.
import { setTimeout as delay } from 'node:timers/promises';
import packageJson from '../../package.json' with { type: 'json' };
import { findResource, type Catalog } from './catalog.js';
import { catalogFromIndex, DISCOVERY_ACCEPT, type IndexStore, type StoredIndex } from './discovery.js';
import { DpxError, messageOf, ProtocolError, SafetyError, TransportError, UsageError } from './errors.js';
import type { Exchange, ExchangeListener } from './exchange.js';
import { apiErrorFor } from './failure.js';
import { FetchChain } from './fetch-chain.js';
import { FreshnessCache } from './freshness.js';
import { RequestLimiter, type LimiterStats, type Release } from './limiter.js';
import { parseVendorMediaType } from './media.js';
import type { Transport } from './offline.js';
import { chosenOu, requestHeaders, resolveHref, resolveRequest, serverUrl, type OuChoice, type PreparedRequest, type RequestContext, type RequestTarget } from './operation.js';
import { interpretResponse, readBody, type ApiResponse, type RawResponse } from './response.js';
import { DEFAULT_RETRY_POLICY, isConnectionReset, isRetryableMethod, isRetryableStatus, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry.js';
import { isReadMethod, writeRefusal } from './safety.js';
import { expandTemplate } from './template.js';
import { describeToken } from './token.js';

export type { OuChoice, PreparedRequest, RequestTarget } from './operation.js';

export interface SessionOptions {
  baseUrl: string;
  token?: string;
  ou?: string;
  ouHeader?: string;
  vendor?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Longest single wait between retries; a Retry-After beyond it ends the retries. */
  maxRetryDelayMs?: number;
  /** First backoff step between retries. */
  retryBaseDelayMs?: number;
  readOnly?: boolean;
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
  /** Keeps the discovery index between runs: it is then revalidated with If-None-Match, not fetched anew. */
  indexStore?: IndexStore;
  /**
   * The last step of the fetch chain, after the origin guard, the token and the recording of the headers
   * as sent; fetch() when not given. Offline, `trailTransport` answers from a trail and nothing is sent.
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
  signal?: AbortSignal;
}

/** What a progress line says about the traffic: requests sent (every attempt), in flight, waiting, 429s. */
export interface TrafficStats extends LimiterStats {
  requests: number;
}

/** One try at sending a request: `attempt` counts the tries so far, for the backoff. */
interface Attempt {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  attempt: number;
}

const DEFAULT_VENDOR = 'service';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_FRESHNESS_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Answers kept with their ETags for revalidation: what a screen polls, not the history of a walk. */
export const VALIDATOR_CAPACITY = 32;
const EXCHANGE_BODY_LIMIT = 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export class Session {
  readonly baseUrl: string;
  readonly origin: string;
  readOnly: boolean;
  readonly stats: { requests: number; lastLatencyMs: number | undefined } = { requests: 0, lastLatencyMs: undefined };

  private readonly options: SessionOptions;
  private readonly retryPolicy: RetryPolicy;
  private readonly fresh: FreshnessCache<ApiResponse>;
  /** The last answer with an ETag to each recent GET, by the same key as the freshness window. */
  private readonly validators = new FreshnessCache<{ etag: string; response: ApiResponse }>(Number.POSITIVE_INFINITY, VALIDATOR_CAPACITY);
  private readonly chain: FetchChain;
  private readonly limiter: RequestLimiter;
  private learnedVendor: string | undefined;
  private last: Exchange | undefined;
  private currentOu: string | undefined;
  private pendingCatalog: Promise<Catalog> | undefined;
  private knownCatalog: Catalog | undefined;

  constructor(options: SessionOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new UsageError(`not a URL: ${options.baseUrl}`, 'give the control plane\'s base URL, like https://host.example');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new UsageError(`not an http(s) URL: ${options.baseUrl}`, 'give the control plane\'s base URL, like https://host.example');
    }
    this.options = options;
    this.baseUrl = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
    this.origin = base.origin;
    this.readOnly = options.readOnly ?? false;
    this.currentOu = options.ou || undefined;
    this.retryPolicy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    };
    this.fresh = new FreshnessCache(options.freshnessMs ?? DEFAULT_FRESHNESS_MS);
    this.limiter = new RequestLimiter({
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.ratePerSecond === undefined ? {} : { ratePerSecond: options.ratePerSecond }),
    });
    this.chain = new FetchChain({
      origin: this.origin,
      userAgent: options.userAgent ?? `dpx/${packageJson.version}`,
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.transport === undefined ? {} : { transport: options.transport }),
      ouHeader: () => this.ouHeader.toLowerCase(),
      warn: (message) => this.warn(message),
    });
  }

  /** The last request sent (or refused) and what came back, as the session saw them: nothing redacted. */
  get lastExchange(): Exchange | undefined {
    return this.last;
  }

  /** The traffic so far and now: for a progress line. */
  get traffic(): TrafficStats {
    return { requests: this.stats.requests, ...this.limiter.stats };
  }

  get vendor(): string {
    return this.learnedVendor ?? this.options.vendor ?? DEFAULT_VENDOR;
  }

  get ouHeader(): string {
    return this.options.ouHeader ?? `x-${this.vendor}-organizationalunit-context`;
  }

  get ou(): string | undefined {
    return this.currentOu;
  }

  setOu(ou: string | undefined): void {
    this.currentOu = ou || undefined;
  }

  /** The discovery index, fetched once per session unless `reload` is asked for. */
  catalog(options: { reload?: boolean } = {}): Promise<Catalog> {
    if (this.pendingCatalog && !options.reload) return this.pendingCatalog;
    const pending = this.fetchCatalog();
    this.pendingCatalog = pending;
    pending.catch(() => {
      if (this.pendingCatalog === pending) this.pendingCatalog = undefined;
    });
    return pending;
  }

  async prepare(target: RequestTarget): Promise<PreparedRequest> {
    return resolveRequest(await this.catalog(), target, this.requestContext());
  }

  /** A request for a link found in a response: expanded when templated, with the Accept of its resource. */
  prepareLink(
    href: string,
    context: { resource: string; version: string; method?: string; operationId?: string; ou?: OuChoice },
    values: Record<string, string> = {},
  ): PreparedRequest {
    const expanded = href.includes('{') ? expandTemplate(href, values) : href;
    const requestContext = this.requestContext();
    const ou = chosenOu(requestContext, context.ou);
    return {
      method: (context.method ?? 'GET').toUpperCase(),
      url: resolveHref(this.baseUrl, expanded),
      headers: requestHeaders(requestContext, context.resource, context.version, false, ou),
      resource: context.resource,
      version: context.version,
      operationId: context.operationId ?? '',
      ...(ou === undefined ? {} : { ou }),
    };
  }

  async send(request: PreparedRequest, options: SendOptions = {}): Promise<ApiResponse> {
    const method = request.method.toUpperCase();
    let url = this.checkedUrl(request, method);
    const headers = this.wireHeaders(request.headers);
    const freshKey = method === 'GET' ? `${url}\n${headers['accept'] ?? ''}\n${headers[this.ouHeader.toLowerCase()] ?? ''}` : undefined;
    if (freshKey && !options.reload && !options.revalidate) {
      const remembered = this.fresh.get(freshKey);
      if (remembered) return remembered;
    }
    const validator = freshKey && options.revalidate ? this.validators.get(freshKey) : undefined;
    if (validator) headers['if-none-match'] = validator.etag;

    let currentMethod = method;
    let body = request.body;
    let redirects = 0;
    for (let attempt = 0; ; attempt += 1) {
      const raw = await this.attempt({ method: currentMethod, url, headers, body, signal: options.signal, attempt });
      if ('retry' in raw) {
        await this.waitBeforeRetry(raw.retry, options.signal);
        continue;
      }
      if (REDIRECT_STATUSES.has(raw.status) && raw.headers['location']) {
        const target = serverUrl(raw.headers['location'], url);
        if (target.origin !== this.origin) {
          throw new SafetyError(
            `refused to follow a redirect from ${this.origin} to ${target.origin}`,
            'the token is only ever sent to the control plane it was issued for; use that control plane\'s base URL directly',
          );
        }
        if (++redirects > MAX_REDIRECTS) throw new ProtocolError(`more than ${MAX_REDIRECTS} redirects from ${url}`, 'the server redirects in a loop');
        url = target.toString();
        // The tag belongs to the URL asked for; the answer from elsewhere is read whole.
        delete headers['if-none-match'];
        if (raw.status === 303 || ((raw.status === 301 || raw.status === 302) && currentMethod === 'POST')) {
          currentMethod = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        attempt = -1;
        continue;
      }
      if (raw.status === 304 && validator && freshKey && redirects === 0) {
        const confirmed: ApiResponse = { ...validator.response, durationMs: raw.durationMs, notModified: true };
        this.fresh.set(freshKey, confirmed);
        return confirmed;
      }
      const response = interpretResponse(raw, currentMethod);
      // A conditional request's 304 is an answer: what the caller holds is still current.
      if (response.status === 304 && headers['if-none-match'] !== undefined) return response;
      if (response.status >= 200 && response.status < 300) {
        if (freshKey && !options.once) {
          this.fresh.set(freshKey, response);
          const etag = raw.headers['etag'];
          if (etag && redirects === 0) this.validators.set(freshKey, { etag, response });
        } else if (!isReadMethod(method)) {
          this.fresh.clear();
        }
        return response;
      }
      const retryAfterSeconds = parseRetryAfter(raw.headers['retry-after']);
      const wait = isRetryableMethod(currentMethod) && isRetryableStatus(raw.status)
        ? retryDelayMs(this.retryPolicy, attempt, retryAfterSeconds)
        : undefined;
      if (wait !== undefined) {
        await this.waitBeforeRetry(wait, options.signal);
        continue;
      }
      throw apiErrorFor(
        { status: raw.status, statusText: raw.statusText, contentType: raw.contentType, text: raw.text, body: response.body, retryAfterSeconds },
        this.failureContext(request, raw.status),
      );
    }
  }

  private async fetchCatalog(): Promise<Catalog> {
    const store = this.options.indexStore;
    const stored = await store?.read(this.baseUrl).catch(() => undefined);
    const headers: Record<string, string> = { accept: DISCOVERY_ACCEPT };
    if (this.currentOu) headers[this.ouHeader.toLowerCase()] = this.currentOu;
    if (stored?.etag !== undefined) headers['if-none-match'] = stored.etag;
    const response = await this.send(
      { method: 'GET', url: resolveHref(this.baseUrl, '/'), headers, resource: '', version: '', operationId: '' },
      { reload: true },
    );
    const checkedAt = Date.now();
    const etag = response.headers['etag'];
    const index: StoredIndex = response.status === 304 && stored
      ? { ...stored, checkedAt }
      : { body: response.body, contentType: response.contentType, checkedAt, ...(etag === undefined ? {} : { etag }) };
    const learned = parseVendorMediaType(index.contentType);
    if (learned) this.learnedVendor = learned.vendor;
    const catalog = catalogFromIndex(index, response.url, this.vendor);
    for (const warning of catalog.warnings) this.warn(warning);
    this.knownCatalog = catalog;
    await store?.write(this.baseUrl, index).catch((error: unknown) => this.warn(`the discovery index was not kept for next time: ${messageOf(error)}`));
    return catalog;
  }

  private requestContext(): RequestContext {
    const context: RequestContext = { baseUrl: this.baseUrl, vendor: this.vendor, ouHeader: this.ouHeader };
    if (this.currentOu) context.ou = this.currentOu;
    return context;
  }

  /** The request's URL, once it is known to be safe to send: same origin, and no write in read-only mode. */
  private checkedUrl(request: PreparedRequest, method: string): string {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new UsageError(`not a URL: ${request.url}`, 'a request needs an absolute URL; prepare it through the session');
    }
    if (url.origin !== this.origin) {
      this.emitRefusal(request, `refused: ${url.origin} is not the session's origin`);
      throw new SafetyError(
        `refused to send the token to ${url.origin}: this session belongs to ${this.origin}`,
        'a link pointed to another host; the token is only ever sent to the control plane it was issued for',
      );
    }
    const refusal = writeRefusal(method, this.readOnly);
    if (refusal) {
      this.emitRefusal(request, 'refused: read-only mode');
      throw refusal;
    }
    return url.toString();
  }

  /** The prepared headers by lower-case name; User-Agent and Authorization are added by the fetch middlewares. */
  private wireHeaders(prepared: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(prepared)) headers[name.toLowerCase()] = value;
    return headers;
  }

  /** One attempt: a response (any status), a retry request after a connection reset, or a thrown DpxError. */
  private async attempt(sending: Attempt): Promise<RawResponse | { retry: number }> {
    // A transport that answers from a trail sends nothing to any control plane: there is nothing to pace.
    const release = this.options.transport ? () => undefined : await this.slot(sending.method, sending.url, sending.signal);
    try {
      return await this.attemptInSlot(sending);
    } finally {
      release();
    }
  }

  /** A slot of the plane's limiter; waiting for it is cancelled with the request. */
  private async slot(method: string, url: string, signal: AbortSignal | undefined): Promise<Release> {
    try {
      return await this.limiter.acquire(signal);
    } catch (error) {
      throw new TransportError(`cancelled: ${method} ${url}`, 'the request was cancelled before it was sent', { cause: error });
    }
  }

  private async attemptInSlot({ method, url, headers, body, signal, attempt }: Attempt): Promise<RawResponse | { retry: number }> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // One controller per attempt, its timer cleared as soon as the attempt ends: AbortSignal.timeout and
    // AbortSignal.any keep every signal (and its timer) alive for the whole timeout, which a fan-out of
    // thousands of requests pays for in garbage collection.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const startedAt = new Date();
    const started = performance.now();
    const exchange: Exchange = { startedAt, durationMs: 0, request: { method, url, headers: { ...headers } } };
    if (body !== undefined) exchange.request.body = body;
    this.stats.requests += 1;
    try {
      const init: RequestInit = { method, headers, redirect: 'manual', signal: controller.signal };
      if (body !== undefined) init.body = body;
      const response = await this.chain.fetch(url, init);
      exchange.request.headers = this.chain.headersSent(response) ?? exchange.request.headers;
      const responseHeaders = Object.fromEntries(response.headers.entries());
      const contentType = response.headers.get('content-type') ?? '';
      const { text, size } = method === 'HEAD' ? { text: '', size: 0 } : await readBody(response, url, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      const durationMs = performance.now() - started;
      // Noted before the slot is given back, so that no request queued behind this one starts meanwhile.
      if (response.status === 429) this.limiter.noteRateLimited(this.pauseAfter429(responseHeaders['retry-after']));
      this.stats.lastLatencyMs = durationMs;
      exchange.durationMs = durationMs;
      exchange.response = {
        status: response.status,
        statusText: response.statusText,
        headers: responseHeaders,
        body: text.length > EXCHANGE_BODY_LIMIT ? text.slice(0, EXCHANGE_BODY_LIMIT) : text,
        bodyTruncated: text.length > EXCHANGE_BODY_LIMIT,
        size,
        contentType,
      };
      this.emit(exchange);
      return { status: response.status, statusText: response.statusText, headers: responseHeaders, text, contentType, url, durationMs };
    } catch (error) {
      exchange.durationMs = performance.now() - started;
      const sent = this.chain.headersSent(error);
      if (sent) exchange.request.headers = sent;
      if (!exchange.response) {
        exchange.error = messageOf(error);
        this.emit(exchange);
      }
      if (error instanceof DpxError) throw error;
      if (signal?.aborted) throw new TransportError(`cancelled: ${method} ${url}`, 'the request was cancelled before it finished', { cause: error });
      if (timedOut) {
        throw new TransportError(
          `no answer from ${this.origin} within ${Math.round(timeoutMs / 100) / 10} s`,
          'the control plane is slow or unreachable; try again, or raise --timeout',
          { cause: error },
        );
      }
      if (isRetryableMethod(method) && isConnectionReset(error)) {
        const wait = retryDelayMs(this.retryPolicy, attempt, undefined);
        if (wait !== undefined) return { retry: wait };
      }
      throw new TransportError(`could not reach ${this.origin}: ${describeNetworkError(error)}`, 'check the base URL, the network and any proxy', { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private failureContext(request: PreparedRequest, status: number): Parameters<typeof apiErrorFor>[1] {
    const context: Parameters<typeof apiErrorFor>[1] = {};
    if (request.resource) context.resource = request.resource;
    if (request.version) context.version = request.version;
    if (status === 406 && this.knownCatalog && request.resource) {
      const resource = findResource(this.knownCatalog, request.resource);
      if (resource) context.supportedVersions = resource.versions.map((version) => version.version);
    }
    if (status === 401 && this.options.token) {
      const problem = describeToken(this.options.token, this.baseUrl).warnings[0];
      if (problem) context.tokenProblem = problem;
    }
    return context;
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
    return ms <= this.retryPolicy.maxDelayMs ? ms : undefined;
  }

  private async waitBeforeRetry(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await delay(ms, undefined, signal ? { signal } : undefined);
    } catch (error) {
      throw new TransportError('cancelled while waiting to retry', 'the request was cancelled before it finished', { cause: error });
    }
  }

  private emitRefusal(request: PreparedRequest, reason: string): void {
    const exchange: Exchange = { startedAt: new Date(), durationMs: 0, request: { method: request.method, url: request.url, headers: { ...request.headers } }, error: reason };
    if (request.body !== undefined) exchange.request.body = request.body;
    this.emit(exchange);
  }

  private emit(exchange: Exchange): void {
    this.last = exchange;
    try {
      this.options.onExchange?.(exchange);
    } catch (error) {
      this.warn(`the exchange listener failed: ${messageOf(error)}`);
    }
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }
}

function describeNetworkError(error: unknown): string {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return messageOf(error);
}

