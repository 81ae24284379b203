// `dpx list <resource>`: one page, or every page with --all, streamed to stdout in the chosen format as
// the pages arrive. The filter is checked as JSON before anything is sent. A list under a parent record
// (`/protection-groups/{id}/backups`) takes the parent from --var.

import { UsageError } from '../../../api/errors.js';
import type { PreparedRequest } from '../../../api/hal/operation.js';
import { largestPageSize } from '../../../api/session/page-size.js';
import { itemsAsSent, listRequest, readPage, walkPages } from '../../../api/session/pages.js';
import type { Page } from '../../../api/session/page.js';
import { recordCount } from '../../../api/session/sent-page.js';
import type { Session } from '../../../api/session/session.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { sizeHeapForStreaming } from '../../heap.js';
import { createRecordSink, type SinkPage } from '../../format/records.js';
import { DataWriter } from '../../io.js';
import { tableColumns } from '../../../config/chosen-columns.js';
import { formatCount } from '../../../text/cells.js';
import { Progress } from '../../progress.js';
import { mergedListCommand } from './merged.js';
import { listTarget } from '../../list-query.js';
import { readListOptions } from './options.js';
import { groupingSink } from './groups.js';
import { windowedList } from '../../list-query.js';
import { tableWidth } from '../../options/output.js';
import type { OptionValues } from '../../options/shared.js';
import type { spec } from './spec.js';

export async function run(
  ctx: CommandScope,
  { positionals, options, units }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const [resource, ...extra] = positionals;
  if (resource === undefined || extra.length > 0) {
    throw new UsageError('dpx list takes one resource name', 'dpx resources lists them; e.g. dpx list users');
  }
  const asked = readListOptions(ctx, options);
  const profiles = typeof options['profiles'] === 'string' ? options['profiles'] : undefined;
  if (units !== undefined || profiles !== undefined) return mergedListCommand(ctx, resource, asked, units, profiles);

  const session = ctx.session();
  const { list, keep } = await windowedList(ctx, session, resource, asked);
  const { format, maxItems, page, all } = list;
  // The table a person reads takes the columns chosen in the explorer (`c`); machine formats never do.
  const fields =
    list.fields ??
    (list.groupBy === undefined ? await tableColumns(ctx.configPath, [session.baseUrl], resource, format) : undefined);
  // Every page of the list: at the largest page the server takes, unless a page size was chosen.
  const pageSize =
    all && list.pageSize === undefined
      ? (await largestPageSize(session, { resource, ...listTarget(list) }))?.ask
      : list.pageSize;
  const first = await listRequest(session, {
    resource,
    ...listTarget(list),
    ...(pageSize === undefined ? {} : { pageSize }),
  });

  const out = new DataWriter(ctx.io.stdout);
  const pretty = ctx.io.stdout.isTTY === true;
  const sink =
    list.groupBy !== undefined
      ? await groupingSink(ctx, session, list.groupBy, format, out, list.lineEnd)
      : createRecordSink(format, out, {
          lineEnd: list.lineEnd,
          width: tableWidth(ctx.io),
          pretty,
          note: (message) => ctx.note(message),
          ...(fields === undefined ? {} : { fields }),
        });
  const progress = all ? Progress.forStream(ctx.io.stderr) : undefined;
  // Stops the walk when stdout's reader goes away or the user interrupts.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);

  // Each page read once, from its bytes, where the sink writes its records as sent and never parses them
  // (list-body.ts); a format that reads the records parses the page whole, as that costs less.
  const recordsAsSent =
    keep === undefined &&
    list.groupBy === undefined &&
    fields === undefined &&
    !pretty &&
    (format === 'ndjson' || format === 'json');
  let pagesFetched = 0;
  let itemsWritten = 0;
  let totalCount: number | undefined;
  let totalPages: number | undefined;
  try {
    const walk = all
      ? walkPages(session, first, { signal: stop.signal, recordsAsSent })
      : onePage(session, first, stop.signal, recordsAsSent);
    try {
      for await (const current of walk) {
        pagesFetched++;
        // Once the first page is in, as heap.ts says: a flag set before makes V8 refuse the code cache of
        // every built-in loaded after it (node:zlib with a compressed answer).
        if (all && pagesFetched === 1) sizeHeapForStreaming(recordsAsSent);
        // Filtered here, the server's counts are of the whole list, not of what is printed.
        if (keep === undefined) {
          totalCount = current.totalCount ?? totalCount;
          totalPages = current.totalPages ?? totalPages;
        }
        for (const warning of current.warnings) ctx.warn(warning);
        const records = pageRecords(current, keep, maxItems === undefined ? undefined : maxItems - itemsWritten);
        progress?.clear();
        await sink.page(records);
        itemsWritten += records.count;
        progress?.update(pagesFetched, itemsWritten, totalPages, totalCount);
        if (maxItems !== undefined && itemsWritten >= maxItems) break;
      }
    } catch (error) {
      // Interrupted: what was written is closed properly (a JSON document stays whole), and stderr says where it stopped.
      if (!ctx.io.signal?.aborted) throw error;
      ctx.reportInterruption(
        `${formatCount(pagesFetched)} ${pagesFetched === 1 ? 'page' : 'pages'} read ` +
          `and ${formatCount(itemsWritten)} ${itemsWritten === 1 ? 'record' : 'records'} written` +
          `${totalCount === undefined ? '' : ` of ${formatCount(totalCount)}`}; the rest of the list was not read`,
      );
    }
    progress?.clear();
    await sink.finish({
      pagesFetched,
      ...(totalCount === undefined ? {} : { totalCount }),
      ...(totalPages === undefined ? {} : { totalPages }),
    });
  } finally {
    progress?.clear();
    ctx.io.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    out.release();
  }
  if (format === 'table' && !all) ctx.note(pageNote(itemsWritten, totalCount, totalPages, page));
  return 0;
}

/** Without --all, exactly the page asked for: no next link is followed, so no page guard applies. */
async function* onePage(
  session: Session,
  request: PreparedRequest,
  signal: AbortSignal,
  recordsAsSent: boolean,
): AsyncGenerator<Page> {
  const response = await session.send(request, { signal, recordsAsSent });
  yield readPage(response);
}

/**
 * What a sink is given of a page: the records `keep` keeps, at most `room` of them. Records filtered
 * here are not the page as sent; a page cut short keeps the records it starts with, as sent, and its
 * items are parsed only if the sink reads them.
 */
function pageRecords(
  page: Page,
  keep: ((record: Record<string, unknown>) => boolean) | undefined,
  room: number | undefined,
): SinkPage & { count: number } {
  const limit = Math.max(0, room ?? Number.POSITIVE_INFINITY);
  if (keep !== undefined) {
    const items = page.items.filter(keep).slice(0, limit);
    return { items, count: items.length };
  }
  const count = Math.min(recordCount(page), limit);
  return new PageRecords(page, count, itemsAsSent(page)?.slice(0, count));
}

/**
 * A page's records as sent with their items parsed when read. A class: a getter in an object literal made
 * per page kept every page it read alive past the young generation (7-10 collections of the old one where
 * there were 2, 30,000 records at pages of 100).
 */
class PageRecords implements SinkPage {
  #items: Record<string, unknown>[] | undefined;

  constructor(
    private readonly page: Page,
    readonly count: number,
    readonly asSent: readonly Uint8Array[] | undefined,
  ) {}

  get items(): Record<string, unknown>[] {
    this.#items ??= this.page.items.slice(0, this.count);
    return this.#items;
  }
}

/** Where this page sits in the whole list, and how to see more. */
function pageNote(
  shown: number,
  totalCount: number | undefined,
  totalPages: number | undefined,
  page: string | undefined,
): string {
  const parts = [`${formatCount(shown)}${totalCount === undefined ? '' : ` of ${formatCount(totalCount)}`} items`];
  if (totalPages !== undefined) parts.push(`page ${page ?? '1'} of ${formatCount(totalPages)}`);
  if (totalCount === undefined || totalCount > shown) parts.push('--all for every page, --page P for another');
  return parts.join(' · ');
}
