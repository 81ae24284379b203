// How fast one control plane is asked: at most `concurrency` requests at a time, no second holding more
// starts than the current rate (which rate-control.ts moves with the answers), and a pause of every
// request while the server has said (429 with Retry-After, or a spent RateLimit window) not to come back
// yet. The session takes a slot for every attempt it sends, so a fan-out over hundreds of units, a retry,
// the x-ray and the explorer's page reads all share the same budget.
//
// The ceiling is a sliding window over the last starts, not an even spacing: requests asked for together
// (the x-ray's first level, a page and the one read ahead) leave together as long as the second has room,
// so a small burst costs no latency, while no window of a second ever holds more than the rate.
import { UsageError } from '../errors.js';
import { RateControl, type Answer } from './rate-control.js';
import { monotonicMs } from './clock.js';

export interface LimiterOptions {
  /** Requests in flight at once. */
  concurrency?: number;
  /** Requests started per second: where the rate starts, and its ceiling. Without it the rate adapts from a slow start. */
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
  /** Requests a second allowed now. */
  ratePerSecond: number;
}

/** Gives the slot back; calling it again does nothing. */
export type Release = () => void;

export const DEFAULT_CONCURRENCY = 8;
const MAX_WINDOW_STARTS = 1000;

interface Waiter {
  start: (release: Release) => void;
  fail: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  priority: number;
}

export class RequestLimiter {
  readonly concurrency: number;
  private readonly control: RateControl;
  private ratePerSecondInUse = 0;
  private evenInUse = false;
  /** At most `windowStarts` starts in any `windowMs`: the rate, as a whole number of starts per window. */
  private windowStarts = 1;
  private windowMs = 1000;
  /** The last `windowStarts` start times, oldest at `oldest`. */
  private starts: number[] = [];
  private oldest = 0;
  private readonly queue: Waiter[] = [];
  /**
   * One abort listener per signal however many requests wait under it: a fan-out queues thousands under
   * one signal, and an EventTarget removes a listener by searching for it.
   */
  private readonly watched = new Map<AbortSignal, { waiting: number; onAbort: () => void }>();
  private active = 0;
  private pausedUntil = 0;
  private pausedMs = 0;
  private rateLimited = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: LimiterOptions = {}) {
    this.concurrency = positive(options.concurrency, DEFAULT_CONCURRENCY, 'concurrency', true);
    const given = options.ratePerSecond === undefined ? undefined : positive(options.ratePerSecond, 1, 'rate', false);
    this.control = new RateControl(given, monotonicMs());
    this.useRate(this.control.rate);
  }

  get stats(): LimiterStats {
    return {
      inFlight: this.active,
      waiting: this.queue.length,
      rateLimited: this.rateLimited,
      pausedMs: this.pausedMs,
      ratePerSecond: this.control.rate,
    };
  }

  get ratePerSecond(): number {
    return this.control.rate;
  }

  /**
   * An answer arrived: the rate follows what it says (its RateLimit headers, a 429, how fast it came),
   * and a 429's Retry-After (`retryAfterMs`) or a spent window pauses every request until it is over.
   */
  noteAnswer(answer: Answer, retryAfterMs?: number): void {
    const spentMs = this.control.observe(answer, monotonicMs());
    if (answer.status === 429) this.rateLimited += 1;
    if (this.control.rate !== this.ratePerSecondInUse || this.control.even !== this.evenInUse)
      this.useRate(this.control.rate, this.control.even);
    const waitMs = answer.status === 429 ? (retryAfterMs ?? spentMs) : spentMs;
    if (waitMs !== undefined && waitMs > 0) this.pause(waitMs);
  }

  /**
   * The window for a rate: a fractional rate gets a longer window (0.5 a second: one start in any 2 s), a
   * huge one a shorter window, so the log of starts stays small (100,000 a second: 1,000 in any 10 ms).
   * `even`: one start per 1/rate s, no burst. The most recent starts are kept, so a change of rate never
   * lets a burst through.
   */
  private useRate(rate: number, even = false): void {
    this.ratePerSecondInUse = rate;
    this.evenInUse = even;
    const recent = [...this.starts.slice(this.oldest), ...this.starts.slice(0, this.oldest)];
    this.windowStarts = even ? 1 : Math.min(MAX_WINDOW_STARTS, Math.max(1, Math.floor(rate)));
    this.windowMs = (this.windowStarts * 1000) / rate;
    this.starts = recent.slice(-this.windowStarts);
    this.oldest = 0;
    this.pump();
  }

  /**
   * Waits for a slot and resolves with the function that gives it back: a higher priority first, first
   * come first served within one.
   */
  acquire(signal?: AbortSignal, priority = 0): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Release>((resolve, reject) => {
      const waiter = { start: resolve, fail: reject, signal, priority };
      // Most requests share a priority: the common case appends without a search.
      const last = this.queue[this.queue.length - 1];
      if (last === undefined || last.priority >= priority) this.queue.push(waiter);
      else
        this.queue.splice(
          this.queue.findIndex((other) => other.priority < priority),
          0,
          waiter,
        );
      if (signal) this.watch(signal);
      this.pump();
    });
  }

  /** No request starts before the wait is over: the others queue instead of drawing more 429s. */
  private pause(waitMs: number): void {
    const now = monotonicMs();
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
      const now = monotonicMs();
      const startAt = Math.max(this.windowOpensAt(), this.pausedUntil);
      if (now < startAt) {
        this.timer = setTimeout(
          () => {
            this.timer = undefined;
            this.pump();
          },
          Math.ceil(startAt - now),
        );
        return;
      }
      const waiter = this.queue.shift()!;
      if (waiter.signal) this.unwatch(waiter.signal);
      this.active += 1;
      this.noteStart(now);
      let released = false;
      waiter.start(() => {
        if (released) return;
        released = true;
        this.active -= 1;
        this.pump();
      });
    }
  }

  /** When the window has room for one more start: now while it holds fewer than its starts, else when its oldest leaves. */
  private windowOpensAt(): number {
    return this.starts.length < this.windowStarts ? 0 : this.starts[this.oldest]! + this.windowMs;
  }

  private noteStart(now: number): void {
    if (this.starts.length < this.windowStarts) {
      this.starts.push(now);
      return;
    }
    this.starts[this.oldest] = now;
    this.oldest = (this.oldest + 1) % this.windowStarts;
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
    throw new UsageError(
      `the ${what} of requests must be a positive ${whole ? 'whole ' : ''}number, not ${value}`,
      `for example --${what} ${fallback}`,
    );
  }
  return value;
}
