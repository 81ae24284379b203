// The requests' way out: the origin guard, User-Agent, the token only ever to the session's origin, then
// the transport (the network, or a recorded trail offline). The headers are completed in the request
// itself, so that what the trail records is what went out.
//
// The steps are plain functions over a plain request. ketting's Fetcher, which this chain used to run
// on, built a Request for its middlewares and fetch() built a second one from it, each following the
// attempt's AbortSignal: 9–15 % of a count matrix's CPU, measured in one process with alternating
// builds. The attempt is cancelled through undici's dispatcher instead of a signal (cancellable.ts).
import type { Cancellable } from './cancellable.js';
import { SafetyError } from './errors.js';
import type { ExchangeRequest } from './exchange.js';
import type { Transport } from './offline.js';
import { isUnder } from './urls.js';

export interface FetchChainOptions {
  origin: string;
  userAgent: string;
  token?: string;
  /** The last step; fetch() when not given. */
  transport?: Transport;
  /** The OU header's name, lower case, as it is now: a transport reading a trail matches on it. */
  ouHeader: () => string;
  warn: (message: string) => void;
}

export class FetchChain {
  constructor(private readonly options: FetchChainOptions) {}

  /** Sends `request`, its headers (by lower-case name) completed in place with what went out. */
  async send(request: ExchangeRequest, cancellable: Cancellable): Promise<Response> {
    const { origin, userAgent, token, transport, ouHeader, warn } = this.options;
    if (!isSameOrigin(request.url, origin)) {
      throw new SafetyError(
        `refused to send a request to ${originOf(request.url)}: this session belongs to ${origin}`,
        'the token is only ever sent to the control plane it was issued for',
      );
    }
    request.headers['user-agent'] = userAgent;
    if (token) request.headers['authorization'] = `Bearer ${token}`;
    const response = transport
      ? await transport(request, { ouHeader: ouHeader() })
      : await cancellable.whileConnecting(fetch(request.url, { method: request.method, headers: request.headers, redirect: 'manual', dispatcher: cancellable.dispatcher, ...(request.body === undefined ? {} : { body: request.body }) }));
    const deprecation = response.headers.get('deprecation');
    if (deprecation) {
      const sunset = response.headers.get('sunset');
      warn(`${new URL(request.url).pathname} is deprecated${sunset ? `; it stops responding ${sunset}` : ''}`);
    }
    return response;
  }
}

/**
 * Whether `url` is on `origin`. A URL the session built starts with its origin and a slash, which says
 * so without parsing it (the authority ends there); anything else is parsed and compared.
 */
function isSameOrigin(url: string, origin: string): boolean {
  return isUnder(url, origin) || originOf(url) === origin;
}

/** The origin of `url`; `url` itself when no URL can be made of it. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
