// `dpx list <resource> --ou all|ID,ID` or `--profiles …`: one list merged from several units and control
// planes, streamed as each source answers. Every record says where it came from; a source that fails
// is named on stderr, the others are printed, and the exit code is 1.

import { fanOutList } from '../../api/fanout/fanout.js';
import { readOnce } from '../../api/fanout/read-once.js';
import type { Page } from '../../api/session/pages.js';
import { coversAll, partOfTree, unscopedNotice, type ScopeTotal } from '../../api/fanout/header-check.js';
import { scopeContext, wholeScope, type Scope, type ScopeContext, type UnitChoice } from '../../api/fanout/scopes.js';
import type { CommandContext } from '../context.js';
import { describeScope, FanOutProgress } from '../fanout.js';
import { createRecordSink, type ListFormat } from '../format/records.js';
import { sizeHeapForStreaming } from '../heap.js';
import { DataWriter } from '../io.js';
import { formatCount } from '../../text/cells.js';
import { tableColumns } from '../../config/columns.js';
import { listTarget, type ListOptions } from './list-options.js';
import { groupingSink } from './list-groups.js';
import { windowedList } from './list-window.js';
import { tableWidth } from './output.js';

/** Columns that lead a merged table or CSV: the profile and the unit, named like the `_context` of JSON. */
const CONTEXT_COLUMNS = ['_profile', '_unit'] as const;
/** What each format adds to a record for where it came from (kept when --fields picks the others). */
const CONTEXT_FIELDS: Record<ListFormat, readonly string[]> = {
  json: ['_context'],
  ndjson: ['_context'],
  table: CONTEXT_COLUMNS,
  csv: [...CONTEXT_COLUMNS, '_ou'],
};

export async function mergedListCommand(
  ctx: CommandContext,
  resource: string,
  asked: ListOptions,
  units: UnitChoice,
  profiles: string | undefined,
): Promise<number> {
  const sources = await ctx.sources(profiles);
  // Every source is asked the same question: the window is read against the first, and put on the others alike.
  const { list, keep } =
    sources[0] === undefined ? { list: asked } : await windowedList(ctx, sources[0].session, resource, asked);
  const out = new DataWriter(ctx.io.stdout);
  // The table a person reads takes the columns chosen in the explorer (`c`) for this control plane.
  const fields =
    list.fields ??
    (list.groupBy === undefined
      ? await tableColumns(
          ctx.configPath,
          sources.map((source) => source.session.baseUrl),
          resource,
          list.format,
        )
      : undefined);
  const sink =
    list.groupBy !== undefined
      ? await groupingSink(
          ctx,
          sources.map((source) => source.session),
          list.groupBy,
          list.format,
          out,
          list.lineEnd,
        )
      : createRecordSink(list.format, out, {
          lineEnd: list.lineEnd,
          width: tableWidth(ctx.io),
          pretty: ctx.io.stdout.isTTY === true,
          note: (message) => ctx.note(message),
          leading: CONTEXT_COLUMNS,
          ...(fields === undefined ? {} : { fields: [...CONTEXT_FIELDS[list.format], ...fields] }),
        });
  // A group-by reads a record's unit from its _context, whatever the format it prints.
  const tag = tagger(list.groupBy === undefined ? list.format : 'json');
  let records = 0;
  const progress = FanOutProgress.forStream(ctx.io.stderr, sources, () => `${formatCount(records)} records`);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);

  let planned = 0;
  let finished = 0;
  let pagesFetched = 0;
  // Each scope's total as its first page gave it: a header the server ignores shows in them.
  const totals = new Map<Scope, ScopeTotal>();
  const errors: Record<string, unknown>[] = [];
  const fail = (context: ScopeContext, message: string) => {
    errors.push({ ...context, error: message });
    progress?.clear();
    ctx.note(`error: ${describeScope(context)}: ${message}`);
  };
  /** One page's records, each with the scope it was read in or belongs to; false once --max-items is reached. */
  const deliver = async (page: Page, placed: { record: Record<string, unknown>; scope: Scope }[]): Promise<boolean> => {
    pagesFetched += 1;
    if (list.all && pagesFetched === 1) sizeHeapForStreaming();
    for (const warning of page.warnings) ctx.warn(warning);
    const kept = keep === undefined ? placed : placed.filter(({ record }) => keep(record));
    const room = list.maxItems === undefined ? kept.length : Math.max(0, list.maxItems - records);
    const tagged = kept.slice(0, room).map(({ record, scope }) => tag(record, scope));
    progress?.clear();
    await sink.page(tagged);
    records += tagged.length;
    return list.maxItems === undefined || records < list.maxItems;
  };
  let once: Awaited<ReturnType<typeof readOnce>>;
  try {
    // Every record of every unit: the root's list, read once, holds them all where its records name their unit.
    once =
      list.all && units === 'all' && sources.length === 1
        ? await readOnce(
            sources[0]!,
            { resource, ...listTarget(list) },
            {
              signal: stop.signal,
              note: (message) => {
                progress?.clear();
                ctx.note(message);
              },
              failed: (scope, error) => fail(scopeContext(scope), error.message),
            },
          )
        : undefined;
    if (once !== undefined) {
      ctx.note(`read once: the root's list, each record in the unit its ${once.unitField} names`);
      for await (const { page, records: placed } of once.pages) if (!(await deliver(page, placed))) break;
    } else {
      const events = fanOutList(
        sources,
        {
          resource,
          units,
          all: list.all,
          ...listTarget(list),
        },
        { signal: stop.signal },
      );
      for await (const event of events) {
        if (event.kind === 'scopes') {
          planned += event.scopes.length;
          progress?.planned(planned);
        } else if (event.kind === 'failed') {
          fail(scopeContext(wholeScope(event.source)), event.error.message);
        } else if (event.kind === 'done') {
          if (event.error) fail(scopeContext(event.scope), event.error.message);
          finished += 1;
          progress?.unitDone();
        } else {
          if (!totals.has(event.scope)) totals.set(event.scope, { scope: event.scope, total: event.page.totalCount });
          if (
            !(await deliver(
              event.page,
              event.records.map((record) => ({ record, scope: event.scope })),
            ))
          )
            break;
        }
      }
    }
    progress?.stop();
    if (ctx.io.signal?.aborted && once !== undefined) {
      ctx.reportInterruption(
        `${formatCount(pagesFetched)} ${pagesFetched === 1 ? 'page' : 'pages'} of the root's list read and ${formatCount(records)} ${records === 1 ? 'record' : 'records'} written; the rest of the list was not read`,
      );
    } else if (ctx.io.signal?.aborted) {
      const open = planned - finished;
      ctx.reportInterruption(
        `${finished} of ${planned} ${planned === 1 ? 'unit' : 'units'} read, ${open} not or not whole (${formatCount(records)} ${records === 1 ? 'record' : 'records'} written from ${formatCount(pagesFetched)} ${pagesFetched === 1 ? 'page' : 'pages'})`,
      );
    }
    for (const source of sources) {
      const mine = [...totals.values()].filter(({ scope }) => scope.source === source);
      const whole = mine.find(({ scope, total }) => total !== undefined && coversAll(scope))?.total;
      const notice = unscopedNotice(source, partOfTree(mine), whole, { several: sources.length > 1 });
      if (notice) ctx.warn(notice);
    }
    await sink.finish({ pagesFetched, ...(list.format === 'json' ? { errors } : {}) });
  } finally {
    progress?.stop();
    ctx.io.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    out.release();
  }
  return errors.length > 0 ? 1 : 0;
}

/**
 * Where a record came from, as each format shows it: json and ndjson add `_context`; table and csv lead
 * with `_profile` and `_unit` (csv also `_ou`, the unit's id).
 */
function tagger(format: ListFormat): (record: Record<string, unknown>, scope: Scope) => Record<string, unknown> {
  if (format === 'json' || format === 'ndjson')
    return (record, scope) => ({ ...record, _context: scopeContext(scope, record) });
  return (record, scope) => {
    const context = scopeContext(scope);
    const own = { _profile: context.profile ?? new URL(context.base_url).host, _unit: context.ou_name ?? '' };
    return format === 'csv' ? { ...own, _ou: context.ou ?? '', ...record } : { ...own, ...record };
  };
}
