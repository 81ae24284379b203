// When a failed attempt may be tried again, and how long to wait first. Only safe methods are ever
// retried: a write that timed out may have happened, and doing it twice is worse than failing once.

import { setTimeout as delay } from 'node:timers/promises';
import { CancelledError } from '../errors.js';

export interface RetryPolicy {
  maxRetries: number;
  /** First backoff step; doubles per attempt, with full jitter. */
  baseDelayMs: number;
  /** No single wait is longer than this; a longer Retry-After ends the retries instead. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 200, maxDelayMs: 10_000 };

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const RETRYABLE_METHODS = new Set(['GET', 'HEAD']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

export function isRetryableMethod(method: string): boolean {
  return RETRYABLE_METHODS.has(method.toUpperCase());
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** A connection reset (as opposed to a refusal, a DNS failure or a timeout, which a retry does not cure). */
export function isConnectionReset(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && RESET_CODES.has(code)) return true;
    if (cause instanceof Error && /other side closed|socket hang up/i.test(cause.message)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/**
 * The wait before retry number `attempt` (0-based), or undefined when no retry should happen: retries
 * used up, or the server asks for a longer wait than the cap allows.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  if (retryAfterSeconds !== undefined) {
    const asked = retryAfterSeconds * 1000;
    return asked > policy.maxDelayMs ? undefined : asked;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Waits `ms` before the next try; a cancelled request, or an interrupted run (its `stop`), stops waiting
 * with a CancelledError.
 */
export async function waitBeforeRetry(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void> {
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const signal = live.length > 1 ? AbortSignal.any(live) : live[0];
  try {
    await delay(ms, undefined, signal ? { signal } : undefined);
  } catch (error) {
    throw new CancelledError('cancelled while waiting to retry', 'the request was cancelled before it finished', {
      cause: error,
    });
  }
}
