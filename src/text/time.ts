// Times as people read them at a glance, the same on the command line and in the explorer.

/** "42s ago", "5m ago", "3h ago", "12d ago", "in 4h". */
export function relativeAge(at: number, now: number): string {
  const ms = now - at;
  const future = ms < 0;
  const s = Math.abs(ms) / 1000;
  const amount =
    s < 60
      ? `${Math.floor(s)}s`
      : s < 3600
        ? `${Math.floor(s / 60)}m`
        : s < 86_400
          ? `${Math.floor(s / 3600)}h`
          : s < 86_400 * 365
            ? `${Math.floor(s / 86_400)}d`
            : `${Math.floor(s / (86_400 * 365))}y`;
  return future ? `in ${amount}` : `${amount} ago`;
}
