// How fast one control plane is asked: at most `concurrency` requests at a time, starts spaced so that no
// second holds more than `ratePerSecond` of them, and a pause of every request while the server has said
// (429 with Retry-After) not to come back yet. The session takes a slot for every attempt it sends, so
// a fan-out over hundreds of units, a retry and the explorer's page reads all share the same budget.
//
// Starts are spaced evenly (one every 1000/rate ms) rather than let through in bursts of `rate`: the
// server counts arrivals, and a burst that arrives a little late lands in the next second's count.
import { UsageError } from './errors.js';

export interface LimiterOptions {
  /** Requests in flight at once. */
  concurrency?: number;
  /** Requests started per second, at most. */
  ratePerSecond?: number;
}

export interface LimiterStats {
  /** Requests holding a slot now. */
  inFlight: number;
  /** Requests waiting for a slot. */
  waiting: number;
  /** 429 answers received. */
  rateLimited: number;
  /** Wall time the plane spent paused by Retry-After, overlapping pauses counted once. */
  pausedMs: number;
}

/** Gives the slot back; calling it again does nothing. */
export type Release = () => void;

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_RATE_PER_SECOND = 50;

type Waiter = (release: Release) => void;

export class RequestLimiter {
  readonly concurrency: number;
  readonly ratePerSecond: number;
  private readonly intervalMs: number;
  private readonly queue: Waiter[] = [];
  private active = 0;
  private nextStartAt = 0;
  private pausedUntil = 0;
  private pausedMs = 0;
  private rateLimited = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: LimiterOptions = {}) {
    this.concurrency = positive(options.concurrency, DEFAULT_CONCURRENCY, 'concurrency', true);
    this.ratePerSecond = positive(options.ratePerSecond, DEFAULT_RATE_PER_SECOND, 'rate', false);
    this.intervalMs = 1000 / this.ratePerSecond;
  }

  get stats(): LimiterStats {
    return { inFlight: this.active, waiting: this.queue.length, rateLimited: this.rateLimited, pausedMs: this.pausedMs };
  }

  /** Waits for a slot (first come, first served) and resolves with the function that gives it back. */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) this.queue.splice(at, 1);
        reject(signal?.reason);
        this.pump();
      };
      const waiter: Waiter = (release) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(release);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /**
   * A 429 arrived. With a wait (its Retry-After), no request starts before the wait is over: the others
   * queue instead of drawing more 429s.
   */
  noteRateLimited(waitMs?: number): void {
    this.rateLimited += 1;
    if (waitMs === undefined || waitMs <= 0) return;
    const now = performance.now();
    const until = now + waitMs;
    if (until <= this.pausedUntil) return;
    this.pausedMs += until - Math.max(now, this.pausedUntil);
    this.pausedUntil = until;
    this.pump();
  }

  /** Starts every waiter the bounds allow now, and sets a timer for the first one they hold back. */
  private pump(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0 && this.active < this.concurrency) {
      const now = performance.now();
      const startAt = Math.max(this.nextStartAt, this.pausedUntil);
      if (now < startAt) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, Math.ceil(startAt - now));
        return;
      }
      const waiter = this.queue.shift()!;
      this.active += 1;
      this.nextStartAt = now + this.intervalMs;
      let released = false;
      waiter(() => {
        if (released) return;
        released = true;
        this.active -= 1;
        this.pump();
      });
    }
  }
}

function positive(value: number | undefined, fallback: number, what: string, whole: boolean): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new UsageError(`the ${what} of requests must be a positive ${whole ? 'whole ' : ''}number, not ${value}`, `for example --${what} ${fallback}`);
  }
  return value;
}
