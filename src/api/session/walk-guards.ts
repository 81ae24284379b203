// The guards of a walk over pages against paging that never ends: the next page is sent only when it does
// not lead back to a page already read (and is read ahead, abortable with the walk), the page's own self
// link names it sooner for that check, and pages or items read well past the server's own counts stop it.
import { ProtocolError } from '../errors.js';
import { linkUrl } from '../hal/links.js';
import type { PreparedRequest } from '../hal/operation.js';
import type { Page, PageAnswer } from './page.js';
import type { Session } from './session.js';
import { normalisedUrl } from '../urls.js';

/**
 * Pages or items read well beyond the total the server itself reports: a list can grow while it is read,
 * so only a wide margin (a tenth more, and at least 10 pages or 100 items) counts as paging that never ends.
 */
export function beyondCounts(page: Page, pages: number, items: number): string | undefined {
  if (page.totalPages !== undefined && pages > page.totalPages + Math.max(10, Math.ceil(page.totalPages / 10))) {
    return `${pages} pages read of ${page.totalPages}`;
  }
  if (page.totalCount !== undefined && items > page.totalCount + Math.max(100, Math.ceil(page.totalCount / 10))) {
    return `${items} items read of ${page.totalCount}`;
  }
  return undefined;
}

export interface PageFetch {
  response: Promise<PageAnswer & { request: PreparedRequest }>;
  abort(): void;
}

/**
 * Sends a page request unless it leads back to a page already read; aborts with the walk's own signal.
 * With `recordsAsSent`, the page is read for its records as sent (SendOptions.recordsAsSent).
 */
export function fetchPage(
  session: Session,
  request: PreparedRequest,
  visited: Set<string>,
  pagesRead: number,
  { signal, recordsAsSent = false }: { signal?: AbortSignal | undefined; recordsAsSent?: boolean | undefined },
): PageFetch {
  const key = normalisedUrl(request.url);
  if (visited.has(key)) {
    throw new ProtocolError(
      `the next link after page ${pagesRead} leads back to a page already read (${key})`,
      "the server's paging links form a cycle; narrow the filter or read pages one at a time",
    );
  }
  visited.add(key);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const response = session
    .send(request, { signal: controller.signal, once: true, recordsAsSent })
    .then(({ body, url, headers, bytes, records }) => ({
      body,
      url,
      headers,
      bytes,
      ...(records ? { records } : {}),
      request,
    }))
    .finally(() => signal?.removeEventListener('abort', onAbort));
  // Awaited by the walk when it needs the page; an abort after an early stop must not surface as unhandled.
  response.catch(() => undefined);
  return { response, abort: () => controller.abort() };
}

/**
 * The page's self link as an absolute URL, resolved as a next link would be. It only helps to notice a
 * cycle sooner, so a self link that is templated or broken is passed over rather than ending the walk.
 */
export function selfUrl(session: Session, page: Page): string | undefined {
  const self = page.links.get('self');
  if (!self || self.templated) return undefined;
  try {
    return linkUrl(self, session.baseUrl);
  } catch {
    return undefined;
  }
}
