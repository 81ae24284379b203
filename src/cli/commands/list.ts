// `dpx list <resource>`: one page, or every page with --all, streamed to stdout in the chosen format as
// the pages arrive. The filter is checked as JSON before anything is sent. A list under a parent record
// (`/protection-groups/{id}/backups`) takes the parent from --var.

import { UsageError } from '../../api/errors.js';
import type { PreparedRequest } from '../../api/hal/operation.js';
import { listRequest, readPage, walkPages, type Page } from '../../api/session/pages.js';
import type { Session } from '../../api/session/session.js';
import type { CommandContext } from '../context.js';
import { sizeHeapForStreaming } from '../heap.js';
import type { UnitChoice } from '../../api/fanout/scopes.js';
import { createRecordSink } from '../format/records.js';
import { DataWriter } from '../io.js';
import { formatCount } from '../../text/cells.js';
import { Progress } from '../progress.js';
import { mergedListCommand } from './list-merged.js';
import { listTarget, readListOptions } from './list-options.js';
import { tableWidth } from './output.js';

export async function listCommand(ctx: CommandContext, positionals: string[], options: Record<string, unknown>, units: UnitChoice): Promise<number> {
  const [resource, ...extra] = positionals;
  if (resource === undefined || extra.length > 0) {
    throw new UsageError('dpx list takes one resource name', 'dpx resources lists them; e.g. dpx list users');
  }
  const list = readListOptions(ctx, options);
  const profiles = typeof options['profiles'] === 'string' ? options['profiles'] : undefined;
  if (units !== undefined || profiles !== undefined) return mergedListCommand(ctx, resource, list, units, profiles);
  const { format, maxItems, page, all, fields } = list;

  const session = ctx.session();
  const first = await listRequest(session, { resource, ...listTarget(list) });

  const out = new DataWriter(ctx.io.stdout);
  const sink = createRecordSink(format, out, {
    width: tableWidth(ctx.io),
    pretty: ctx.io.stdout.isTTY === true,
    note: (message) => ctx.note(message),
    ...(fields === undefined ? {} : { fields }),
  });
  const progress = all ? Progress.forStream(ctx.io.stderr) : undefined;
  // Stops the walk when stdout's reader goes away or the user interrupts.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);

  let pagesFetched = 0;
  let itemsWritten = 0;
  let totalCount: number | undefined;
  let totalPages: number | undefined;
  if (all) sizeHeapForStreaming();
  try {
    const walk = all ? walkPages(session, first, { signal: stop.signal }) : onePage(session, first, stop.signal);
    for await (const current of walk) {
      pagesFetched++;
      totalCount = current.totalCount ?? totalCount;
      totalPages = current.totalPages ?? totalPages;
      for (const warning of current.warnings) ctx.warn(warning);
      const items = maxItems === undefined ? current.items : current.items.slice(0, Math.max(0, maxItems - itemsWritten));
      progress?.clear();
      await sink.page(items);
      itemsWritten += items.length;
      progress?.update(pagesFetched, itemsWritten, totalPages, totalCount);
      if (maxItems !== undefined && itemsWritten >= maxItems) break;
    }
    progress?.clear();
    await sink.finish({ pagesFetched, ...(totalCount === undefined ? {} : { totalCount }), ...(totalPages === undefined ? {} : { totalPages }) });
  } finally {
    progress?.clear();
    ctx.io.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    out.release();
  }
  if (format === 'table' && !all) ctx.note(pageNote(itemsWritten, totalCount, totalPages, page));
  return 0;
}

/** Without --all, exactly the page asked for: no page cap to hit, and no warning about one. */
async function* onePage(session: Session, request: PreparedRequest, signal: AbortSignal): AsyncGenerator<Page> {
  const response = await session.send(request, { signal });
  yield readPage(response);
}

/** Where this page sits in the whole list, and how to see more. */
function pageNote(shown: number, totalCount: number | undefined, totalPages: number | undefined, page: string | undefined): string {
  const parts = [`${formatCount(shown)}${totalCount === undefined ? '' : ` of ${formatCount(totalCount)}`} items`];
  if (totalPages !== undefined) parts.push(`page ${page ?? '1'} of ${formatCount(totalPages)}`);
  if (totalCount === undefined || totalCount > shown) parts.push('--all for every page, --page P for another');
  return parts.join(' · ');
}
