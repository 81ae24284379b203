// One control plane: its requests on their way out (request-chain.ts), the OU header, timeouts, the
// limiter's slots, retries of reads, redirects within the origin, the freshness window, conditional
// requests (If-None-Match), the discovery index, and the mapping of every failure to a DpxError. Bodies
// are read raw (response.ts): a hypermedia client's state cache and HAL parsing (ketting's) drop links
// of vendor media types and items without a self link.
import packageJson from '../../../package.json' with { type: 'json' };
import type { Catalog } from '../hal/catalog.js';
import { loadIndex } from '../hal/discovery.js';
import { messageOf } from '../errors.js';
import { checkNamedValues } from '../security/control-chars.js';
import type { Exchange } from '../exchange.js';
import { apiErrorFor } from '../wire/failure.js';
import { failureContext } from './failure-context.js';
import { KeptAnswers } from './kept-answers.js';
import { controlPlaneBase, refusedExchange, sendableUrl } from './sendable.js';
import { redirectStep } from './redirect.js';
import { RequestLimiter } from '../wire/limiter.js';
import { RequestChain } from '../wire/request-chain.js';
import { expandedLink, linkUrl, resolveHref, type Link } from '../hal/links.js';
import {
  chosenOu,
  requestFor,
  requestHeaders,
  resolveRequest,
  type OuChoice,
  type PreparedRequest,
  type RequestContext,
  type RequestTarget,
  type ResolvedOperation,
} from '../hal/operation.js';
import { interpretResponse, withRecordsAsSent, type ApiResponse } from '../wire/response.js';
import {
  DEFAULT_RETRY_POLICY,
  isRetryableMethod,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
  waitBeforeRetry,
  type RetryPolicy,
} from '../wire/retry.js';
import { isReadMethod } from '../security/safety.js';
import { checkHeaderValues } from '../security/header-values.js';
import { Wire } from '../wire/wire.js';
import { networkTransport } from '../wire/network.js';
import type { PageSizeStore, SendOptions, SessionOptions, TrafficStats } from './session-options.js';
import type { WritesLock } from '../security/safety.js';

export type { OuChoice, PreparedRequest, RequestTarget } from '../hal/operation.js';
export { VALIDATOR_CAPACITY } from './kept-answers.js';

const DEFAULT_VENDOR = 'service';

export class Session {
  readonly baseUrl: string;
  readonly origin: string;
  readOnly: boolean;
  /** Why writes may not be turned on (SessionOptions.writesLocked); undefined when they may. */
  readonly writesLocked: WritesLock | undefined;
  readonly stats: { requests: number; lastLatencyMs: number | undefined } = { requests: 0, lastLatencyMs: undefined };

  private readonly options: SessionOptions;
  private readonly retryPolicy: RetryPolicy;
  private readonly kept: KeptAnswers;
  private readonly wire: Wire;
  private readonly limiter: RequestLimiter;
  private learnedVendor: string | undefined;
  private last: Exchange | undefined;
  private currentOu: string | undefined;
  private pendingCatalog: Promise<Catalog> | undefined;
  private knownCatalog: Catalog | undefined;

  constructor(options: SessionOptions) {
    const { baseUrl, origin } = controlPlaneBase(options.baseUrl);
    this.options = options;
    this.baseUrl = baseUrl;
    this.origin = origin;
    this.readOnly = options.readOnly ?? false;
    this.writesLocked = options.writesLocked;
    this.currentOu = options.ou || undefined;
    this.retryPolicy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    };
    this.kept = new KeptAnswers(options.freshnessMs);
    this.limiter = new RequestLimiter({
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.ratePerSecond === undefined ? {} : { ratePerSecond: options.ratePerSecond }),
    });
    const chain = new RequestChain({
      origin: this.origin,
      userAgent: options.userAgent ?? `dpx/${packageJson.version}`,
      token: options.token,
      credential: options.credential,
      transport: options.transport ?? networkTransport(this.origin, options.network),
      ouHeader: () => this.ouHeader.toLowerCase(),
      warn: (message) => this.warn(message),
    });
    this.wire = new Wire({
      origin: this.origin,
      chain,
      limiter: this.limiter,
      retryPolicy: this.retryPolicy,
      paced: options.transport === undefined,
      ...(options.stop === undefined ? {} : { stop: options.stop }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      stats: this.stats,
      emit: (exchange) => this.emit(exchange),
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

  /** Where the largest page of each list is kept between runs, when the caller keeps it. */
  get pageSizeStore(): PageSizeStore | undefined {
    return this.options.pageSizeStore;
  }

  /** The page guard of walks by `next` links on this control plane, when the settings set one. */
  get pageGuard(): number | undefined {
    return this.options.pageGuard;
  }

  /** --vendor when the user gave it; else the one the index's Content-Type names; else the profile's; else `service`. */
  get vendor(): string {
    if (this.options.vendorOverride && this.options.vendor) return this.options.vendor;
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

  /** The request for a target; with its operation `resolved` already, the index is not read again. */
  async prepare(target: RequestTarget, resolved?: ResolvedOperation): Promise<PreparedRequest> {
    // Before the index is even read: what names the request is the user's to fix.
    checkNamedValues(target.variables ?? {}, target.query ?? {});
    if (resolved !== undefined) return requestFor(resolved, target, this.requestContext());
    return resolveRequest(await this.catalog(), target, this.requestContext());
  }

  /**
   * A request for a link found in a response (or for a URL such a link led to), with the Accept of its
   * resource: a templated link expanded with `values`, its href resolved against its context.
   */
  prepareLink(
    link: Link | string,
    context: { resource: string; version: string; method?: string; operationId?: string; ou?: OuChoice },
    values: Record<string, string> = {},
  ): PreparedRequest {
    const url =
      typeof link === 'string' ? resolveHref(this.baseUrl, link) : linkUrl(expandedLink(link, values), this.baseUrl);
    const requestContext = this.requestContext();
    const ou = chosenOu(requestContext, context.ou);
    return {
      method: (context.method ?? 'GET').toUpperCase(),
      url,
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
    // Before anything is sent: a bad value is the user's to fix, not a network failure.
    checkHeaderValues(headers, { [this.ouHeader.toLowerCase()]: 'the organizational unit' });
    const freshKey = KeptAnswers.keyOf(method, url, headers, this.ouHeader.toLowerCase());
    if (freshKey && !options.reload && !options.revalidate) {
      const remembered = this.kept.recent(freshKey);
      if (remembered) return options.recordsAsSent ? withRecordsAsSent(remembered) : remembered;
    }
    const validator = freshKey && options.revalidate ? this.kept.validator(freshKey) : undefined;
    if (validator) headers['if-none-match'] = validator.etag;

    let currentMethod = method;
    let body = request.body;
    let redirects = 0;
    let renewed = false;
    for (let attempt = 0; ; attempt += 1) {
      const raw = await this.wire.attempt({
        method: currentMethod,
        url,
        headers,
        body,
        signal: options.signal,
        priority: options.priority,
        attempt,
      });
      if ('retry' in raw) {
        await waitBeforeRetry(raw.retry, options.signal, this.options.stop);
        continue;
      }
      const redirect = redirectStep(raw, { url, method: currentMethod, origin: this.origin, redirects });
      if (redirect) {
        redirects += 1;
        url = redirect.url;
        // The tag belongs to the URL asked for; the answer from elsewhere is read whole.
        delete headers['if-none-match'];
        if (redirect.asGet) {
          currentMethod = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        attempt = -1;
        continue;
      }
      if (raw.status === 304 && validator && freshKey && redirects === 0)
        return this.kept.confirm(freshKey, validator, raw.durationMs);
      if (raw.status === 401 && !renewed && this.options.token === undefined && this.options.credential) {
        renewed = true;
        // A token had from a command may have been rotated: it is asked again once, and a read sent again.
        if ((await this.options.credential.renew()) && isRetryableMethod(currentMethod)) {
          attempt = -1;
          continue;
        }
      }
      const response = interpretResponse(raw, currentMethod, options.recordsAsSent === true);
      // A conditional request's 304 is an answer: what the caller holds is still current.
      if (response.status === 304 && headers['if-none-match'] !== undefined) return response;
      if (response.status >= 200 && response.status < 300) {
        if (freshKey && !options.once)
          this.kept.keep(freshKey, response, redirects === 0 ? raw.headers['etag'] : undefined);
        else if (!isReadMethod(method)) this.kept.forget();
        return response;
      }
      const retryAfterSeconds = parseRetryAfter(raw.headers['retry-after']);
      const wait =
        isRetryableMethod(currentMethod) && isRetryableStatus(raw.status)
          ? retryDelayMs(this.retryPolicy, attempt, retryAfterSeconds)
          : undefined;
      if (wait !== undefined) {
        await waitBeforeRetry(wait, options.signal, this.options.stop);
        continue;
      }
      throw apiErrorFor(
        {
          status: raw.status,
          statusText: raw.statusText,
          contentType: raw.contentType,
          text: raw.text,
          body: response.body,
          retryAfterSeconds,
        },
        failureContext(request, raw.status, {
          catalog: this.knownCatalog,
          token: this.options.token ?? this.options.credential?.known,
          baseUrl: this.baseUrl,
        }),
      );
    }
  }

  private async fetchCatalog(): Promise<Catalog> {
    const { catalog, vendor } = await loadIndex({
      baseUrl: this.baseUrl,
      url: resolveHref(this.baseUrl, '/'),
      ...(this.options.indexStore ? { store: this.options.indexStore } : {}),
      ask: (headers) => {
        if (this.currentOu) headers[this.ouHeader.toLowerCase()] = this.currentOu;
        return this.send(
          { method: 'GET', url: resolveHref(this.baseUrl, '/'), headers, resource: '', version: '', operationId: '' },
          { reload: true },
        );
      },
      vendor: this.vendor,
      warn: (message) => this.warn(message),
    });
    if (vendor) this.learnedVendor = vendor;
    this.knownCatalog = catalog;
    return catalog;
  }

  private requestContext(): RequestContext {
    const context: RequestContext = { baseUrl: this.baseUrl, vendor: this.vendor, ouHeader: this.ouHeader };
    if (this.currentOu) context.ou = this.currentOu;
    return context;
  }

  /** The request's URL, once it is known to be safe to send; a refusal is recorded as an exchange. */
  private checkedUrl(request: PreparedRequest, method: string): string {
    const checked = sendableUrl(request.url, method, this);
    if ('url' in checked) return checked.url;
    this.emit(refusedExchange(request, checked.reason));
    throw checked.error;
  }

  /** The prepared headers by lower-case name; User-Agent and Authorization are added by the fetch middlewares. */
  private wireHeaders(prepared: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(prepared)) headers[name.toLowerCase()] = value;
    return headers;
  }

  private emit(exchange: Exchange): void {
    this.last = exchange;
    try {
      this.options.onExchange?.(exchange);
    } catch (error) {
      this.warn(`the exchange listener failed: ${messageOf(error)}`);
    }
  }

  /** A warning for whoever uses this session (stderr, the explorer's status line). */
  warn(message: string): void {
    this.options.onWarning?.(message);
  }
}
