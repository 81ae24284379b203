// A list's first page asked offline at a page size the case does not hold, answered from a first page
// of the same list (the same filter, unit and Accept) recorded at another size: the largest recorded,
// which needs the fewest pages. Its next link was recorded too, so a walk goes on in the case. Only a
// first page: a later page at another size would hold other records than the one asked for.
import { isListOperation, pagingParameters } from '../hal/operation.js';
import { routeFor } from '../hal/routes.js';
import { normalisedUrl } from '../urls.js';
import type { RecordedExchange, RecordedTrail } from './recorded.js';

/** First pages of lists, by their request without its page size. */
export class FirstPages {
  private readonly byList = new Map<string, { exchange: RecordedExchange; size: string | undefined }[]>();

  constructor(private readonly trail: RecordedTrail) {
    for (const exchange of trail.exchanges) {
      if (exchange.method !== 'GET' || exchange.status < 200 || exchange.status >= 300) continue;
      const list = this.listKey(exchange.url);
      if (list === undefined) continue;
      const found = this.byList.get(list.key) ?? [];
      found.push({ exchange, size: list.size });
      this.byList.set(list.key, found);
    }
  }

  /**
   * The recorded first pages of the list `url` asks, each with the page size it was asked at (undefined: the
   * server's default); none when `url` is not a list's first page.
   */
  pagesOf(url: string): { exchange: RecordedExchange; size: string | undefined }[] {
    const list = this.listKey(url);
    return list === undefined ? [] : (this.byList.get(list.key) ?? []);
  }

  private listKey(url: string): { key: string; size: string | undefined } | undefined {
    const route = routeFor(this.trail.catalog, url, this.trail.baseUrl);
    if (route === undefined || !isListOperation(route.operation)) return undefined;
    const { pageSize, page } = pagingParameters(route.operation);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.searchParams.has(page)) return undefined;
    const size = parsed.searchParams.get(pageSize) ?? undefined;
    parsed.searchParams.delete(pageSize);
    return { key: normalisedUrl(parsed.href), size };
  }
}
