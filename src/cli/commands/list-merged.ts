// `dpx list <resource> --ou all|ID,ID` or `--profiles …`: one list merged from several units and control
// planes, streamed as each source answers. Every record says where it came from; a source that fails
// is named on stderr, the others are printed, and the exit code is 1.

import { fanOutList } from '../../api/fanout/fanout.js';
import { coversAll, partOfTree, unscopedNotice, type ScopeTotal } from '../../api/fanout/header-check.js';
import { scopeContext, wholeScope, type Scope, type ScopeContext, type UnitChoice } from '../../api/fanout/scopes.js';
import type { CommandContext } from '../context.js';
import { describeScope, FanOutProgress } from '../fanout.js';
import { createRecordSink, type ListFormat } from '../format/records.js';
import { sizeHeapForStreaming } from '../heap.js';
import { DataWriter } from '../io.js';
import { formatCount } from '../../text/cells.js';
import { listTarget, type ListOptions } from './list-options.js';
import { tableWidth } from './output.js';

/** Columns that lead a merged table or CSV: the profile and the unit, named like the `_context` of JSON. */
const CONTEXT_COLUMNS = ['_profile', '_unit'] as const;
/** What each format adds to a record for where it came from (kept when --fields picks the others). */
const CONTEXT_FIELDS: Record<ListFormat, readonly string[]> = { json: ['_context'], ndjson: ['_context'], table: CONTEXT_COLUMNS, csv: [...CONTEXT_COLUMNS, '_ou'] };

export async function mergedListCommand(ctx: CommandContext, resource: string, list: ListOptions, units: UnitChoice, profiles: string | undefined): Promise<number> {
  const sources = await ctx.sources(profiles);
  const out = new DataWriter(ctx.io.stdout);
  const sink = createRecordSink(list.format, out, {
    width: tableWidth(ctx.io),
    pretty: ctx.io.stdout.isTTY === true,
    note: (message) => ctx.note(message),
    leading: CONTEXT_COLUMNS,
    ...(list.fields === undefined ? {} : { fields: [...CONTEXT_FIELDS[list.format], ...list.fields] }),
  });
  const tag = tagger(list.format);
  let records = 0;
  const progress = FanOutProgress.forStream(ctx.io.stderr, sources, () => `${formatCount(records)} records`);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);

  let planned = 0;
  let pagesFetched = 0;
  // Each scope's total as its first page gave it: a header the server ignores shows in them.
  const totals = new Map<Scope, ScopeTotal>();
  const errors: Record<string, unknown>[] = [];
  const fail = (context: ScopeContext, message: string) => {
    errors.push({ ...context, error: message });
    progress?.clear();
    ctx.note(`error: ${describeScope(context)}: ${message}`);
  };
  try {
    const events = fanOutList(sources, {
      resource,
      units,
      all: list.all,
      ...listTarget(list),
    }, { signal: stop.signal });
    for await (const event of events) {
      if (event.kind === 'scopes') {
        planned += event.scopes.length;
        progress?.planned(planned);
      } else if (event.kind === 'failed') {
        fail(scopeContext(wholeScope(event.source)), event.error.message);
      } else if (event.kind === 'done') {
        if (event.error) fail(scopeContext(event.scope), event.error.message);
        progress?.unitDone();
      } else {
        if (!totals.has(event.scope)) totals.set(event.scope, { scope: event.scope, total: event.page.totalCount });
        pagesFetched += 1;
        if (list.all && pagesFetched === 1) sizeHeapForStreaming();
        for (const warning of event.page.warnings) ctx.warn(warning);
        const room = list.maxItems === undefined ? event.records.length : Math.max(0, list.maxItems - records);
        const page = event.records.slice(0, room).map((record) => tag(record, event.scope));
        progress?.clear();
        await sink.page(page);
        records += page.length;
        if (list.maxItems !== undefined && records >= list.maxItems) break;
      }
    }
    progress?.stop();
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
  if (format === 'json' || format === 'ndjson') return (record, scope) => ({ ...record, _context: scopeContext(scope, record) });
  return (record, scope) => {
    const context = scopeContext(scope);
    const own = { _profile: context.profile ?? new URL(context.base_url).host, _unit: context.ou_name ?? '' };
    return format === 'csv' ? { ...own, _ou: context.ou ?? '', ...record } : { ...own, ...record };
  };
}
