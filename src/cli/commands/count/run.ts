// `dpx count <resource>`: how many records each unit of each control plane holds, in total or by the
// values of a field. Each total is the server's count for the unit's scope (or counted from every record
// where the list gives none), never the sum of the columns. Failures of single rows are named on stderr
// as they happen and printed with their row; the exit code is 1 when any row failed.

import {
  countMatrix,
  type CountPlan,
  type CountValue,
  type PlaneStrategy,
  type PlanMode,
} from '../../../api/fanout/count.js';
import { type CountSort, rankRows } from '../../../api/fanout/count-rank.js';
import { UsageError } from '../../../api/errors.js';
import { readWindow } from '../../../api/hal/time-window.js';
import type { SourceCost } from '../../../api/fanout/across.js';
import { scopeContext, type Source } from '../../../api/fanout/scopes.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { costLine, describeScope, FanOutProgress } from '../../fanout.js';
import { matrixCsv, matrixJson, matrixTable, type Matrix, type MatrixRow } from '../../format/matrix.js';
import { csvLineEnd } from '../../format/csv.js';
import { explainText, planJson } from '../../format/plan.js';
import { DataWriter } from '../../io.js';
import { windowedCountFilter } from '../../list-query.js';
import { nonNegativeInteger } from '../../options/values.js';
import { colourWanted, jsonText, outputFormat, tableWidth } from '../../options/output.js';
import { spec } from './spec.js';
import type { OptionValues } from '../../options/shared.js';

export async function run(
  ctx: CommandScope,
  { positionals, options, units }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const [resource, ...extra] = positionals;
  if (resource === undefined || extra.length > 0) {
    throw new UsageError(
      'dpx count takes one resource name',
      'dpx resources lists them; e.g. dpx count users --ou all',
    );
  }
  const format = outputFormat(options['output'], spec.formats);
  const by = text(options['by']);
  const values = text(options['values']);
  if (values !== undefined && by === undefined)
    throw new UsageError('--values needs --by: the values of which field?', 'e.g. --by status --values failed,aborted');
  const version = text(options['version']);
  const profiles = text(options['profiles']);
  const depthText = text(options['depth']);
  const depth = depthText === undefined ? undefined : nonNegativeInteger('--depth', depthText);
  const sort = sortOf(text(options['sort']));
  const nonzero = options['nonzero'] === true;
  const planMode = planOf(text(options['plan']));
  const explain = options['explain'] === true;
  const sources = await ctx.sources(profiles);
  const window = readWindow(text(options['since']), text(options['until']), ctx.settings.now);
  const timeField = text(options['time-field']);
  const asked = text(options['filter']);
  const { filter, keep } =
    sources[0] === undefined
      ? { filter: asked, keep: undefined }
      : await windowedCountFilter(ctx, sources[0].session, resource, {
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
  const strategies: PlaneStrategy[] = [];
  try {
    const events = countMatrix(
      sources,
      {
        resource,
        units,
        ...(by === undefined ? {} : { by }),
        ...(values === undefined ? {} : { values: parseValues(values) }),
        ...(filter === undefined ? {} : { filter }),
        ...(keep === undefined ? {} : { keep }),
        ...(version === undefined ? {} : { version }),
        ...(depth === undefined ? {} : { depth }),
        ...(ctx.settings.pageSize === undefined ? {} : { pageSize: ctx.settings.pageSize }),
        plan: planMode,
        // The run's now: offline it is the recorded command's, so a replay checks the cells the recording did.
        seed: ctx.settings.now.getTime(),
        explain,
      },
      { signal: stop.signal },
    );
    for await (const event of events) {
      switch (event.kind) {
        case 'plan': {
          plan = event.plan;
          if (sort) checkSort(sort.column, plan);
          for (const row of plan.rows) rows.push(matrixRow(row.scope, plan.columns.length));
          if (!explain) progress?.planned(rows.length);
          const survey = typeof plan.valuesFrom === 'object' ? plan.valuesFrom : undefined;
          if (survey?.mayMiss)
            ctx.warn(
              `the values of ${by} come from ${survey.pages} pages of ${resource} and the server links no last page: ` +
                'values may be missing (their records are counted in other); --values names them',
            );
          if (!explain && plan.by !== undefined && plan.columns.length === 0)
            ctx.warn(`no value of ${by} was found to count by; --values chooses them`);
          break;
        }
        case 'cell':
          if (event.column !== undefined && event.count !== undefined)
            rows[event.row]!.counts[event.column] = event.count;
          break;
        case 'row': {
          const row = rows[event.row]!;
          row.counts = [...event.counts];
          row.total = event.total;
          row.other = event.other;
          row.counted = event.counted;
          row.changed = event.changed;
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
        case 'strategy':
          strategies.push(event.strategy);
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
    for (const row of rows)
      if (row.total === undefined && row.error === undefined) row.error = 'not counted: interrupted';
    ctx.reportInterruption(
      plan === undefined
        ? 'the units and values to count were not known yet, so nothing was counted'
        : `${done} of ${rows.length} ${rows.length === 1 ? 'row' : 'rows'} counted; ${rows.length - done} not ` +
            '(their cells are empty, and -o json gives them the error "not counted: interrupted")',
    );
  }

  const requests = sources.reduce((sum, source) => sum + source.session.traffic.requests, 0);
  if (explain) {
    const out = new DataWriter(ctx.io.stdout);
    try {
      await out.write(
        format === 'json'
          ? jsonText({ plan: planJson(strategies), requests }, ctx.io)
          : explainText(strategies, { resource, by, valuesGiven: values !== undefined }, requests),
      );
    } finally {
      out.release();
    }
    return 0;
  }
  const changed = rows.filter((row) => row.changed).length;
  if (changed > 0)
    ctx.warn(
      `${changed} row${changed === 1 ? '' : 's'} changed while counting: a cell above its total, ` +
        'or columns adding up past it; their other is left out (count again)',
    );
  const matrix: Matrix = {
    resource,
    by,
    columns: plan?.columns.map((column) => column.label) ?? [],
    values: valuesOf(plan),
    rows: rankRows(rows, plan?.rows.map((row) => row.scope) ?? [], plan?.columns.map((column) => column.label) ?? [], {
      ...(sort ? { sort } : {}),
      nonzero,
    }),
    requests,
    plan: planJson(strategies),
    verification: strategies.find((strategy) => strategy.verification === 'not verified')
      ? 'counted, not verified'
      : undefined,
  };
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (format === 'json') await out.write(jsonText(matrixJson(matrix), ctx.io));
    else if (format === 'csv') await out.write(matrixCsv(matrix, csvLineEnd(options)));
    else
      await out.write(
        matrixTable(matrix, {
          width: tableWidth(ctx.io),
          colour: colourWanted(ctx.io),
          showProfile: profiles !== undefined,
        }),
      );
  } finally {
    out.release();
  }
  // Asked of several regions, stderr ends with each one's total (its top units') and requests.
  if (profiles !== undefined) for (const cost of regionCosts(sources, plan, rows)) ctx.note(costLine(cost));
  return rows.some((row) => row.error !== undefined) ? 1 : 0;
}

/** Each source's records (the totals of its units that no other chosen unit holds), requests, and whether a row failed. */
function regionCosts(
  sources: readonly Source[],
  plan: CountPlan | undefined,
  rows: readonly MatrixRow[],
): SourceCost[] {
  return sources.map((source) => {
    let records = 0;
    let failed = false;
    plan?.rows.forEach(({ scope }, index) => {
      const row = rows[index];
      if (scope.source !== source || row === undefined) return;
      if (scope.depth === 0) records += row.total ?? 0;
      failed ||= row.error !== undefined;
    });
    return { source, records, requests: source.session.traffic.requests, failed };
  });
}

function matrixRow(scope: CountPlan['rows'][number]['scope'], columns: number): MatrixRow {
  return {
    profile: scope.source.profile ?? null,
    baseUrl: scope.source.session.baseUrl,
    ou: scope.ou,
    ouName: scope.ouName,
    ouPath: scope.path,
    depth: scope.depth,
    counts: new Array<number | undefined>(columns).fill(undefined),
    other: undefined,
    total: undefined,
    counted: false,
    changed: false,
    error: undefined,
  };
}

function valuesOf(plan: CountPlan | undefined): Matrix['values'] {
  const from = plan?.valuesFrom;
  if (from === undefined) return undefined;
  if (from === 'given') return { given: true, schema: false, pages: 0, everyPage: false, mayMiss: false };
  return { given: false, ...from };
}

/** `--sort [-]COLUMN`: a value's column, other, total or unit; `-` for descending. */
function sortOf(option: string | undefined): CountSort | undefined {
  if (option === undefined) return undefined;
  const descending = option.startsWith('-');
  const column = (descending ? option.slice(1) : option).trim();
  if (column === '')
    throw new UsageError('--sort names no column', 'e.g. --sort -failed (descending), --sort total, --sort unit');
  return { column, descending };
}

function checkSort(column: string, plan: CountPlan): void {
  const known = ['unit', 'total', ...(plan.by === undefined ? [] : ['other', ...plan.columns.map((c) => c.label)])];
  if (!known.includes(column))
    throw new UsageError(`--sort ${column}: the matrix has no such column`, `its columns: ${known.join(', ')}`);
}

const PLAN_MODES: readonly PlanMode[] = ['auto', 'cells', 'scan'];

/** `--plan auto|cells|scan` (default auto). */
function planOf(option: string | undefined): PlanMode {
  if (option === undefined) return 'auto';
  const mode = PLAN_MODES.find((candidate) => candidate === option.trim());
  if (mode === undefined)
    throw new UsageError(
      `--plan ${option}: no such plan`,
      "auto (the cheaper, by estimate), cells (a request per unit and value) or scan (the root's list read once)",
    );
  return mode;
}

/** `a,b,c`: text values, except `true`, `false` and `null`, which are sent as JSON literals. */
function parseValues(list: string): CountValue[] {
  const values = list
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (values.length === 0) throw new UsageError('--values names no value', 'e.g. --values failed,aborted');
  return values.map((value) => (value === 'true' ? true : value === 'false' ? false : value === 'null' ? null : value));
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
