// The clock requests are timed and paced by. process.hrtime, not performance.now: the global `performance`
// loads Node's perf_hooks when first touched, ≈ 0.6 ms of every command's start.

/** Milliseconds on a monotonic clock (its origin is arbitrary: only differences mean anything). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
