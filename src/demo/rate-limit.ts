import { DemoError } from './errors.js';

/**
 * A fixed one-second window per token: at most `perSecond` requests in each window. Every answer says so
 * in the IETF draft's headers (`RateLimit-Policy: "default";q=N;w=1`, `RateLimit: "default";r=LEFT;t=S`)
 * unless the demo is told to keep quiet, as a server that only ever answers 429 would.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly announce = true,
  ) {}

  /** Counts a request of `key`: the headers its answer carries, or a 429 DemoError when its window is full. */
  admit(key: string, now: number): Record<string, string> {
    if (this.perSecond <= 0) return {};
    let window = this.windows.get(key);
    if (!window || now - window.start >= 1000) {
      if (this.windows.size > 10_000) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const resetSeconds = Math.max(1, Math.ceil((window.start + 1000 - now) / 1000));
    const headers: Record<string, string> = this.announce
      ? {
          'RateLimit-Policy': `"default";q=${this.perSecond};w=1`,
          RateLimit: `"default";r=${Math.max(0, this.perSecond - window.count)};t=${resetSeconds}`,
        }
      : {};
    if (window.count > this.perSecond) {
      throw new DemoError(
        429,
        'rate_limited',
        `More than ${this.perSecond} requests per second with this token; retry after ${resetSeconds} s`,
        {
          ...headers,
          'Retry-After': String(resetSeconds),
        },
      );
    }
    return headers;
  }
}
