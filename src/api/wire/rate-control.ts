// The rate one control plane is asked at, moved by its answers (AIMD, with a slow start as TCP has):
// - a rate the user gave (--rate, DPX_RATE, a profile) is where it starts and its ceiling;
// - without one it starts at START_RATE and, while answers stay fast, doubles every step until the
//   first sign of trouble, then grows by ADDITIVE_STEP a step, up to DEFAULT_CEILING;
// - a limit the server declares (RateLimit-Policy, RateLimit, X-RateLimit-*) becomes the ceiling, less a
//   margin for the jitter between when a request leaves and when the server counts it;
// - a 429 halves the rate; answers that turn slow hold it where it is;
// - once the server has declared a limit or answered 429, requests are spaced evenly instead of leaving
//   in bursts: a burst at the edge of the server's own (fixed) window would count twice against it.
import { readRateLimit } from './rate-headers.js';

export const START_RATE = 20;
/** Without a rate from the user or the server, at most this many requests a second (concurrency bounds it too). */
export const DEFAULT_CEILING = 200;
const MIN_RATE = 0.5;
const STEP_MS = 250;
const ADDITIVE_STEP = 5;
/** A server's declared rate, less this share: a request counted a little late must not be one too many. */
const DECLARED_MARGIN = 0.9;
/** An answer is fast while it takes at most twice the fastest seen, or 100 ms more, whichever is larger. */
const SLOW_FACTOR = 2;
const SLOW_SLACK_MS = 100;

export interface Answer {
  status: number;
  latencyMs: number;
  headers: Record<string, string>;
}

export class RateControl {
  private current: number;
  private declared: number | undefined;
  private slowStart: boolean;
  private limited = false;
  private stepStarted: number;
  private fastest = Number.POSITIVE_INFINITY;
  private fast = 0;
  private slow = 0;

  constructor(
    private readonly given: number | undefined,
    now: number,
  ) {
    this.current = given ?? START_RATE;
    this.slowStart = given === undefined;
    this.stepStarted = now;
  }

  get rate(): number {
    return this.current;
  }

  /** Whether requests must leave evenly spaced: the server has a limit it counts in windows of its own. */
  get even(): boolean {
    return this.declared !== undefined || this.limited;
  }

  /** Where the rate may go: the user's rate, the server's declared one, else the default ceiling. */
  get ceiling(): number {
    return Math.min(
      this.given ?? (this.declared === undefined ? DEFAULT_CEILING : Number.POSITIVE_INFINITY),
      this.declared ?? Number.POSITIVE_INFINITY,
    );
  }

  /** Takes in one answer; returns how long every request must wait when the server says its window is spent. */
  observe(answer: Answer, now: number): number | undefined {
    const limit = readRateLimit(answer.headers);
    if (limit?.ratePerSecond !== undefined) this.declared = limit.ratePerSecond * DECLARED_MARGIN;
    const pauseMs =
      limit?.remaining === 0 && limit.resetMs !== undefined && limit.resetMs > 0 ? limit.resetMs : undefined;
    if (answer.status === 429) {
      this.limited = true;
      this.current = Math.max(MIN_RATE, this.current / 2);
      this.slowStart = false;
      this.endStep(now);
    } else {
      this.fastest = Math.min(this.fastest, answer.latencyMs);
      if (answer.latencyMs <= Math.max(this.fastest * SLOW_FACTOR, this.fastest + SLOW_SLACK_MS)) this.fast += 1;
      else this.slow += 1;
      if (now - this.stepStarted >= STEP_MS) this.step(now);
    }
    this.current = Math.min(this.current, this.ceiling);
    return pauseMs;
  }

  private step(now: number): void {
    if (this.slow === 0 && this.fast > 0)
      this.current = this.slowStart ? this.current * 2 : this.current + ADDITIVE_STEP;
    else if (this.slow > this.fast) this.slowStart = false;
    this.endStep(now);
  }

  private endStep(now: number): void {
    this.stepStarted = now;
    this.fast = 0;
    this.slow = 0;
  }
}
