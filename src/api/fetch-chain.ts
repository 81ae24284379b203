// The requests' way out: ketting's fetch middleware chain with only the middlewares given here — the
// origin guard, the token only ever to the session's origin, the headers recorded as sent, then the
// transport (the network, or a recorded trail offline).
// ketting's Client adds a cache, an Accept and a console-warning middleware to its fetcher; its Fetcher
// alone is the chain. ketting is pinned to an exact version, since the class is reached by its module
// path (the package has no exports map).
import { Fetcher, type FetchMiddleware } from 'ketting/dist/http/fetcher.js';
import { SafetyError } from './errors.js';
import type { Transport } from './offline.js';

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
  private readonly fetcher = new Fetcher();
  /** The headers each request went out with, once every middleware had its say: keyed by its response or failure. */
  private readonly sent = new WeakMap<object, Record<string, string>>();

  constructor(options: FetchChainOptions) {
    const { origin, userAgent, token, transport, ouHeader, warn } = options;
    this.fetcher.advertiseKetting = false;
    const guard: FetchMiddleware = async (request, next) => {
      const target = new URL(request.url).origin;
      if (target !== origin) {
        throw new SafetyError(
          `refused to send a request to ${target}: this session belongs to ${origin}`,
          'the token is only ever sent to the control plane it was issued for',
        );
      }
      request.headers.set('User-Agent', userAgent);
      const response = await next(request);
      const deprecation = response.headers.get('deprecation');
      if (deprecation) {
        const sunset = response.headers.get('sunset');
        warn(`${new URL(request.url).pathname} is deprecated${sunset ? `; it stops responding ${sunset}` : ''}`);
      }
      return response;
    };
    const auth: FetchMiddleware = (request, next) => {
      if (token && new URL(request.url).origin === origin) request.headers.set('Authorization', `Bearer ${token}`);
      return next(request);
    };
    // Innermost, so it sees the request exactly as fetch() gets it: the trail records the headers as sent.
    const record: FetchMiddleware = async (request, next) => {
      const headers = Object.fromEntries(request.headers.entries());
      try {
        const response = await next(request);
        this.sent.set(response, headers);
        return response;
      } catch (error) {
        if (typeof error === 'object' && error !== null) this.sent.set(error, headers);
        throw error;
      }
    };
    this.fetcher.use(guard);
    this.fetcher.use(auth, origin);
    this.fetcher.use(record);
    if (transport) this.fetcher.use((request) => transport(request, { ouHeader: ouHeader() }));
  }

  fetch(url: string, init: RequestInit): Promise<Response> {
    return this.fetcher.fetch(url, init);
  }

  /** The headers a request went out with, by its response or the error it failed with. */
  headersSent(outcome: unknown): Record<string, string> | undefined {
    return typeof outcome === 'object' && outcome !== null ? this.sent.get(outcome) : undefined;
  }
}
