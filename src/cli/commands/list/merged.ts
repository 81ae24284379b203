// `dpx list <resource> --ou all|ID,ID` or `--profiles …`: one list merged from several units and control
// planes, streamed as each source answers. Every record says where it came from; a source that fails
// is named on stderr, the others are printed, and the exit code is 1.

import { AcrossTally, askAcross } from '../../../api/fanout/across.js';
import { GroupCounter, regionDirectories, TENANT_FIELD, UNIT_FIELD } from '../../../api/fanout/groups.js';
import {
  scopeContext,
  wholeScope,
  type Scope,
  type ScopeContext,
  type Source,
  type UnitChoice,
} from '../../../api/fanout/scopes.js';
import type { CommandScope } from '../command.js';
import { costLine, describeScope, FanOutProgress } from '../../fanout.js';
import { createRecordSink, type ListFormat } from '../../format/records.js';
import { sizeHeapForStreaming } from '../../heap.js';
import { DataWriter } from '../../io.js';
import { formatCount } from '../../../text/cells.js';
import { tableColumns } from '../../../config/chosen-columns.js';
import { listTarget, type ListOptions, windowedList } from '../../list-query.js';
import { printGroups } from './groups.js';
import { tableWidth } from '../../options/output.js';

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
  ctx: CommandScope,
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
  // Grouped, each record counts in its own region's unit; else each is printed with where it came from.
  const counter =
    list.groupBy === undefined ? undefined : new GroupCounter(list.groupBy, { byProfile: profiles !== undefined });
  const sink =
    counter !== undefined
      ? undefined
      : createRecordSink(list.format, out, {
          lineEnd: list.lineEnd,
          width: tableWidth(ctx.io),
          pretty: ctx.io.stdout.isTTY === true,
          note: (message) => ctx.note(message),
          leading: CONTEXT_COLUMNS,
          ...(fields === undefined ? {} : { fields: [...CONTEXT_FIELDS[list.format], ...fields] }),
        });
  // Read without a unit's scope (no --ou), a record's unit and tenant are named from its region's unit tree.
  const trees =
    counter !== undefined &&
    units === undefined &&
    list.groupBy!.some((field) => field === UNIT_FIELD || field === TENANT_FIELD)
      ? await regionDirectories(sources)
      : undefined;
  const tally = new AcrossTally(sources, {
    ...(keep === undefined ? {} : { keep }),
    ...(list.maxItems === undefined ? {} : { maxItems: list.maxItems }),
    ...(counter === undefined ? {} : { groups: { counter, ...(trees === undefined ? {} : { trees }) } }),
  });
  const tag = tagger(list.format);
  const progress = FanOutProgress.forStream(ctx.io.stderr, sources, () => `${formatCount(tally.kept)} records`);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);

  let planned = 0;
  let finished = 0;
  /** Sources whose root's list is read once, rather than unit by unit. */
  let readOnce = 0;
  const errors: Record<string, unknown>[] = [];
  const say = (message: string) => {
    progress?.clear();
    ctx.note(message);
  };
  const fail = (source: Source, context: ScopeContext, message: string) => {
    tally.fail(source);
    errors.push({ ...context, error: message });
    say(`error: ${describeScope(context)}: ${message}`);
  };
  const own = (source: Source, message: string) =>
    sources.length > 1 ? `${source.profile ?? source.session.baseUrl}: ${message}` : message;
  try {
    const events = askAcross(sources, { resource, units, all: list.all, ...listTarget(list) }, { signal: stop.signal });
    for await (const event of events) {
      if (event.kind === 'note') say(own(event.source, event.message));
      else if (event.kind === 'scopes') {
        if (event.once) readOnce += 1;
        planned += event.scopes.length;
        progress?.planned(planned);
      } else if (event.kind === 'failed') {
        fail(event.source, scopeContext(wholeScope(event.source)), event.error.message);
      } else if (event.kind === 'done') {
        if (event.error) fail(event.scope.source, scopeContext(event.scope), event.error.message);
        finished += 1;
        progress?.unitDone();
      } else {
        if (list.all && tally.pages === 0) sizeHeapForStreaming(false);
        for (const warning of event.page.warnings) ctx.warn(warning);
        const taken = tally.take(event);
        progress?.clear();
        if (sink !== undefined) await sink.page({ items: taken.map(({ record, scope }) => tag(record, scope)) });
        if (tally.full) break;
      }
    }
    progress?.stop();
    const { pages, kept } = tally;
    const written = `${formatCount(kept)} ${kept === 1 ? 'record' : 'records'} written`;
    const read = `${formatCount(pages)} ${pages === 1 ? 'page' : 'pages'}`;
    if (ctx.io.signal?.aborted && readOnce === sources.length) {
      ctx.reportInterruption(`${read} of the root's list read and ${written}; the rest of the list was not read`);
    } else if (ctx.io.signal?.aborted) {
      ctx.reportInterruption(
        `${finished} of ${planned} ${planned === 1 ? 'unit' : 'units'} read, ${planned - finished} not or not whole (${written} from ${read})`,
      );
    }
    for (const notice of tally.unscopedNotices()) ctx.warn(notice);
    const requests = sources.reduce((sum, source) => sum + source.session.traffic.requests, 0);
    if (counter !== undefined) await printGroups(ctx, counter, list, out, pages, requests);
    else await sink!.finish({ pagesFetched: pages, ...(list.format === 'json' ? { errors } : {}) });
    // Asked of several regions, stderr ends with what each gave and cost.
    if (profiles !== undefined) for (const cost of tally.costs()) ctx.note(costLine(cost));
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
