// How fast one control plane is asked: at most `concurrency` requests at a time, starts spaced so that no
// second holds more than `ratePerSecond` of them, and a pause of every request while the server has said
// (429 with Retry-After) not to come back yet. The session takes a slot for every attempt it sends, so
// a fan-out over hundreds of units, a retry and the explorer's page reads all share the same budget.
//
// Starts are spaced evenly (one every 1000/rate ms) rather than let through in bursts of `rate`: the
// server counts arrivals, and a burst that arrives a little late lands in the next second's count. Above
// 1000 a second the spacing is finer than a timer can wait, so up to rate/1000 may start within one
// millisecond (a second then holds at most rate + rate/1000).
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

interface Waiter {
  start: (release: Release) => void;
  fail: (reason: unknown) => void;
  signal: AbortSignal | undefined;
}

export class RequestLimiter {
  readonly concurrency: number;
  readonly ratePerSecond: number;
  private readonly intervalMs: number;
  /** Starts allowed back to back before the spacing applies. */
  private readonly burst: number;
  private readonly queue: Waiter[] = [];
  /**
   * One abort listener per signal however many requests wait under it: a fan-out queues thousands under
   * one signal, and an EventTarget removes a listener by searching for it.
   */
  private readonly watched = new Map<AbortSignal, { waiting: number; onAbort: () => void }>();
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
    this.burst = Math.max(1, Math.floor(this.ratePerSecond / 1000));
  }

  get stats(): LimiterStats {
    return { inFlight: this.active, waiting: this.queue.length, rateLimited: this.rateLimited, pausedMs: this.pausedMs };
  }

  /** Waits for a slot (first come, first served) and resolves with the function that gives it back. */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Release>((resolve, reject) => {
      this.queue.push({ start: resolve, fail: reject, signal });
      if (signal) this.watch(signal);
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
    this.pausedMs += now >= this.pausedUntil ? waitMs : until - this.pausedUntil;
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
      const startAt = Math.max(this.nextStartAt - (this.burst - 1) * this.intervalMs, this.pausedUntil);
      if (now < startAt) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, Math.ceil(startAt - now));
        return;
      }
      const waiter = this.queue.shift()!;
      if (waiter.signal) this.unwatch(waiter.signal);
      this.active += 1;
      this.nextStartAt = Math.max(this.nextStartAt, now) + this.intervalMs;
      let released = false;
      waiter.start(() => {
        if (released) return;
        released = true;
        this.active -= 1;
        this.pump();
      });
    }
  }

  private watch(signal: AbortSignal): void {
    let entry = this.watched.get(signal);
    if (!entry) {
      const onAbort = () => this.cancel(signal);
      entry = { waiting: 0, onAbort };
      this.watched.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    entry.waiting += 1;
  }

  private unwatch(signal: AbortSignal): void {
    const entry = this.watched.get(signal);
    if (!entry) return;
    entry.waiting -= 1;
    if (entry.waiting === 0) {
      signal.removeEventListener('abort', entry.onAbort);
      this.watched.delete(signal);
    }
  }

  /** Every request still waiting under an aborted signal fails with its reason; the others move up. */
  private cancel(signal: AbortSignal): void {
    this.watched.delete(signal);
    const kept = this.queue.filter((waiter) => waiter.signal !== signal);
    for (const waiter of this.queue) if (waiter.signal === signal) waiter.fail(signal.reason);
    this.queue.splice(0, this.queue.length, ...kept);
    this.pump();
  }
}

function positive(value: number | undefined, fallback: number, what: string, whole: boolean): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new UsageError(`the ${what} of requests must be a positive ${whole ? 'whole ' : ''}number, not ${value}`, `for example --${what} ${fallback}`);
  }
  return value;
}
