// The request chain, each request's way out: the origin guard, User-Agent, the encodings dpx reads,
// the token only ever to the session's origin, then the transport (the network, or a recorded trail
// offline). The headers are completed in the request itself, so the trail records what went out.
import type { Cancellable } from './cancellable.js';
import type { Credential } from './credential.js';
import { SafetyError } from '../errors.js';
import type { ExchangeRequest } from '../exchange.js';
import { ACCEPTED_ENCODINGS, httpTransport, type Transport, type WireAnswer } from './transport.js';
import { isUnder } from '../urls.js';

export interface RequestChainOptions {
  origin: string;
  userAgent: string;
  token?: string | undefined;
  /** Where the token is had when it is not known from the start (a command's output). */
  credential?: Credential | undefined;
  /** The last step; the network when not given. */
  transport?: Transport | undefined;
  /** The OU header's name, lower case, as it is now: a transport reading a trail matches on it. */
  ouHeader: () => string;
  warn: (message: string) => void;
}

/** What one attempt brings to its sending: how it is given up on, and how much body it reads. */
export interface SendingLimits {
  cancellable: Cancellable;
  maxBodyBytes: number;
}

export class RequestChain {
  constructor(private readonly options: RequestChainOptions) {}

  /** Sends `request`, its headers (by lower-case name) completed in place with what went out. */
  async send(request: ExchangeRequest, limits: SendingLimits): Promise<WireAnswer> {
    const { origin, userAgent, credential, transport = httpTransport, ouHeader, warn } = this.options;
    if (!isSameOrigin(request.url, origin)) {
      throw new SafetyError(
        `refused to send a request to ${originOf(request.url)}: this session belongs to ${origin}`,
        'the token is only ever sent to the control plane it was issued for',
      );
    }
    request.headers['user-agent'] = userAgent;
    request.headers['accept-encoding'] = ACCEPTED_ENCODINGS;
    const token = this.options.token ?? (credential ? await credential.token() : undefined);
    if (token) request.headers['authorization'] = `Bearer ${token}`;
    const answer = await transport(request, { ouHeader: ouHeader(), warn, ...limits });
    const deprecation = answer.headers['deprecation'];
    if (deprecation) {
      const sunset = answer.headers['sunset'];
      warn(`${new URL(request.url).pathname} is deprecated${sunset ? `; it stops responding ${sunset}` : ''}`);
    }
    return answer;
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
