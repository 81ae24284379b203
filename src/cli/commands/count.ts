// `dpx count <resource>`: how many records each unit of each control plane holds, in total or by the
// values of a field. Failures of single rows are named on stderr as they happen and printed with their
// row; the exit code is 1 when any row failed.

import { countMatrix, type CountPlan, type CountValue } from '../../api/fanout/count.js';
import { UsageError } from '../../api/errors.js';
import { readWindow } from '../../api/hal/time-window.js';
import { scopeContext, type UnitChoice } from '../../api/fanout/scopes.js';
import type { CommandContext } from '../context.js';
import { describeScope, FanOutProgress } from '../fanout.js';
import { matrixCsv, matrixJson, matrixTable, type Matrix, type MatrixRow } from '../format/matrix.js';
import { DataWriter } from '../io.js';
import { windowedCountFilter } from './list-window.js';
import { colourWanted, jsonText, OUTPUT_FORMATS, outputFormat, tableWidth } from './output.js';

export async function countCommand(ctx: CommandContext, positionals: string[], options: Record<string, unknown>, units: UnitChoice): Promise<number> {
  const [resource, ...extra] = positionals;
  if (resource === undefined || extra.length > 0) {
    throw new UsageError('dpx count takes one resource name', 'dpx resources lists them; e.g. dpx count users --ou all');
  }
  const format = outputFormat(options['output'], OUTPUT_FORMATS.count);
  const by = text(options['by']);
  const values = text(options['values']);
  if (values !== undefined && by === undefined) throw new UsageError('--values needs --by: the values of which field?', 'e.g. --by status --values failed,aborted');
  const version = text(options['version']);
  const profiles = text(options['profiles']);
  const sources = await ctx.sources(profiles);
  const window = readWindow(text(options['since']), text(options['until']));
  const timeField = text(options['time-field']);
  const asked = text(options['filter']);
  const filter = sources[0] === undefined ? asked : await windowedCountFilter(ctx, sources[0].session, resource, {
    ...(asked === undefined ? {} : { filter: asked }),
    ...(version === undefined ? {} : { version }),
    ...(window === undefined ? {} : { window }),
    ...(timeField === undefined ? {} : { timeField }),
  });

  const progress = FanOutProgress.forStream(ctx.io.stderr, sources);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.io.signal?.addEventListener('abort', onAbort);
  let plan: CountPlan | undefined;
  const rows: MatrixRow[] = [];
  try {
    const events = countMatrix(sources, {
      resource,
      units,
      ...(by === undefined ? {} : { by }),
      ...(values === undefined ? {} : { values: parseValues(values) }),
      ...(filter === undefined ? {} : { filter }),
      ...(version === undefined ? {} : { version }),
      ...(ctx.settings.pageSize === undefined ? {} : { pageSize: ctx.settings.pageSize }),
    }, { signal: stop.signal });
    for await (const event of events) {
      switch (event.kind) {
        case 'plan':
          plan = event.plan;
          for (const row of plan.rows) rows.push(matrixRow(row.scope, plan.columns.length));
          progress?.planned(rows.length);
          if (plan.valuesFrom === 'page') ctx.warn(`the values of ${by} are those seen on one page of ${resource}; --values chooses them`);
          if (plan.by !== undefined && plan.columns.length === 0) ctx.warn(`no value of ${by} was found to count by; --values chooses them`);
          break;
        case 'cell':
          if (event.column !== undefined && event.count !== undefined) rows[event.row]!.counts[event.column] = event.count;
          break;
        case 'row': {
          const row = rows[event.row]!;
          if (event.total !== undefined) row.total = event.total;
          if (event.error) {
            row.error = event.error.message;
            progress?.clear();
            ctx.note(`error: ${describeScope(scopeContext(plan!.rows[event.row]!.scope))}: ${event.error.message}`);
          }
          progress?.unitDone();
          break;
        }
        case 'notice':
          progress?.clear();
          ctx.warn(event.message);
          break;
      }
    }
  } catch (error) {
    if (!ctx.io.signal?.aborted) throw error;
  } finally {
    progress?.stop();
    ctx.io.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
  if (ctx.io.signal?.aborted) {
    // Interrupted: the rows counted are printed as they are; every other row says it was not counted.
    const done = rows.filter((row) => row.total !== undefined || row.error !== undefined).length;
    for (const row of rows) if (row.total === undefined && row.error === undefined) row.error = 'not counted: interrupted';
    ctx.reportInterruption(plan === undefined
      ? 'the units and values to count were not known yet, so nothing was counted'
      : `${done} of ${rows.length} ${rows.length === 1 ? 'row' : 'rows'} counted; ${rows.length - done} not (their cells are empty, and -o json gives them the error "not counted: interrupted")`);
  }

  const matrix: Matrix = {
    by,
    columns: plan?.columns.map((column) => column.label) ?? [],
    rows,
    requests: sources.reduce((sum, source) => sum + source.session.traffic.requests, 0),
  };
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (format === 'json') await out.write(jsonText(matrixJson(matrix), ctx.io));
    else if (format === 'csv') await out.write(matrixCsv(matrix));
    else await out.write(matrixTable(matrix, { width: tableWidth(ctx.io), colour: colourWanted(ctx.io), showProfile: profiles !== undefined }));
  } finally {
    out.release();
  }
  return rows.some((row) => row.error !== undefined) ? 1 : 0;
}

function matrixRow(scope: CountPlan['rows'][number]['scope'], columns: number): MatrixRow {
  return {
    profile: scope.source.profile ?? null,
    baseUrl: scope.source.session.baseUrl,
    ou: scope.ou,
    ouName: scope.ouName,
    depth: scope.depth,
    counts: new Array<number | undefined>(columns).fill(undefined),
    total: undefined,
    error: undefined,
  };
}

/** `a,b,c`: text values, except `true`, `false` and `null`, which are sent as JSON literals. */
function parseValues(list: string): CountValue[] {
  const values = list.split(',').map((value) => value.trim()).filter((value) => value !== '');
  if (values.length === 0) throw new UsageError('--values names no value', 'e.g. --values failed,aborted');
  return values.map((value) => (value === 'true' ? true : value === 'false' ? false : value === 'null' ? null : value));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
