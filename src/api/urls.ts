// URLs as dpx compares them: the same page asked for twice, a recorded request matched to a new one, a
// recorded URL moved from the control plane it was recorded on to another.

/** Absolute, without a fragment, query parameters in name order; text that is not a URL stays as it is. */
export function normalisedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    parsed.searchParams.sort();
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A base URL as a session keeps it: origin and path, no trailing slash, no query. */
export function baseOf(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Whether `url` is at or below `base` (a base URL without a trailing slash). */
export function isUnder(url: string, base: string): boolean {
  return url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);
}

/** `url` moved from one base URL to another (the path and query below the base kept); undefined when it is not under `from`. */
export function rebase(url: string, from: string, to: string): string | undefined {
  return isUnder(url, from) ? `${to}${url.slice(from.length)}` : undefined;
}
