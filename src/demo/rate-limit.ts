import { DemoError } from './errors.js';

/** A fixed one-second window per token: at most `perSecond` requests in each window. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly perSecond: number) {}

  /** Counts a request of `key`; throws a 429 DemoError when its window is full. */
  admit(key: string, now: number): void {
    if (this.perSecond <= 0) return;
    let window = this.windows.get(key);
    if (!window || now - window.start >= 1000) {
      if (this.windows.size > 10_000) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > this.perSecond) {
      const retryAfter = Math.max(1, Math.ceil((window.start + 1000 - now) / 1000));
      throw new DemoError(429, 'rate_limited', `More than ${this.perSecond} requests per second with this token; retry after ${retryAfter} s`, {
        'Retry-After': String(retryAfter),
      });
    }
  }
}
