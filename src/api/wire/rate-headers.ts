// What a server says of its rate limit, from the headers the field uses: the IETF draft's
// `RateLimit-Policy: "default";q=100;w=60` with `RateLimit: "default";r=42;t=30` (and its earlier
// `RateLimit: limit=100, remaining=42, reset=30`, or separate `RateLimit-Limit`/`-Remaining`/`-Reset`),
// and the common `X-RateLimit-Limit`/`-Remaining`/`-Reset`, whose reset is seconds to wait or, when
// it is that large, the epoch second the window ends.

export interface ServerRateLimit {
  /** Requests a second the policy allows: its quota over its window. */
  ratePerSecond?: number;
  /** Requests left in the current window. */
  remaining?: number;
  /** Until the current window ends. */
  resetMs?: number;
}

/** A reset this large is an epoch second, not a number of seconds to wait (GitHub's X-RateLimit-Reset). */
const EPOCH_SECONDS = 1_000_000_000;

export function readRateLimit(headers: Record<string, string>, now = Date.now()): ServerRateLimit | undefined {
  const policy = parameters(headers['ratelimit-policy']);
  const current = parameters(headers['ratelimit']);
  const limit =
    number(policy['q']) ??
    number(current['limit']) ??
    number(headers['ratelimit-limit']) ??
    number(headers['x-ratelimit-limit']) ??
    number(policy['']);
  const windowSeconds = number(policy['w']);
  const remaining =
    number(current['r']) ??
    number(current['remaining']) ??
    number(headers['ratelimit-remaining']) ??
    number(headers['x-ratelimit-remaining']);
  const reset =
    number(current['t']) ??
    number(current['reset']) ??
    number(headers['ratelimit-reset']) ??
    number(headers['x-ratelimit-reset']);
  const result: ServerRateLimit = {};
  if (limit !== undefined && windowSeconds !== undefined && windowSeconds > 0)
    result.ratePerSecond = limit / windowSeconds;
  if (remaining !== undefined) result.remaining = remaining;
  if (reset !== undefined) result.resetMs = reset >= EPOCH_SECONDS ? Math.max(0, reset * 1000 - now) : reset * 1000;
  return Object.keys(result).length === 0 ? undefined : result;
}

/**
 * The parameters of a header in either form: structured fields (`"default";q=100;w=60`, the first item
 * of a list) or a dictionary (`limit=100, remaining=42`). A bare number (`10;w=1`, an early draft)
 * is kept under ''.
 */
function parameters(value: string | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  if (value === undefined) return found;
  const first = value.includes(';') ? value.split(',')[0]! : value;
  for (const part of first.split(/[;,]/)) {
    const [name, raw] = part.split('=').map((piece) => piece.trim());
    if (raw === undefined) {
      if (name !== undefined && /^\d+(\.\d+)?$/.test(name)) found[''] = name;
      continue;
    }
    if (name) found[name.toLowerCase()] = raw.replace(/^"|"$/g, '');
  }
  return found;
}

function number(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}
