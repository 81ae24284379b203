// `dpx count <resource>`: how many records each unit of each control plane holds, in total or by the
// values of a field. Each total is the server's count for the unit's scope (or counted from every record
// where the list gives none), never the sum of the columns. Failures of single rows are named on stderr
// as they happen and printed with their row; the exit code is 1 when any row failed.

import { type CountAnswer, type CountAnswerRow, countAcross } from '../../../api/fanout/count-across.js';
import type { CountPlan, CountValue, PlanMode } from '../../../api/fanout/count.js';
import type { CountSort } from '../../../api/fanout/count-rank.js';
import { UsageError } from '../../../api/errors.js';
import { readWindow } from '../../../api/hal/time-window.js';
import { scopeContext } from '../../../api/fanout/scopes.js';
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
  let answer: CountAnswer;
  try {
    answer = await countAcross(
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
      {
        ...(sort ? { sort } : {}),
        nonzero,
        signal: stop.signal,
        on: (event) => {
          switch (event.kind) {
            case 'plan': {
              plan = event.plan;
              if (!explain) progress?.planned(plan.rows.length);
              const survey = typeof plan.valuesFrom === 'object' ? plan.valuesFrom : undefined;
              if (survey?.mayMiss)
                ctx.warn(
                  `the values of ${by} come from ${survey.pages} pages of ${resource} and the server links no last ` +
                    'page: values may be missing (their records are counted in other); --values names them',
                );
              if (!explain && plan.by !== undefined && plan.columns.length === 0)
                ctx.warn(`no value of ${by} was found to count by; --values chooses them`);
              break;
            }
            case 'row':
              if (event.error) {
                progress?.clear();
                ctx.note(`error: ${describeScope(scopeContext(plan!.rows[event.row]!.scope))}: ${event.error.message}`);
              }
              progress?.unitDone();
              break;
            case 'notice':
              progress?.clear();
              ctx.warn(event.message);
              break;
          }
        },
      },
    );
  } finally {
    progress?.stop();
    ctx.io.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
  const { interrupted, strategies, requests } = answer;
  if (interrupted) {
    // Interrupted: the rows counted are printed as they are; every other row says it was not counted.
    ctx.reportInterruption(
      answer.plan === undefined
        ? 'the units and values to count were not known yet, so nothing was counted'
        : `${interrupted.counted} of ${interrupted.rows} ${interrupted.rows === 1 ? 'row' : 'rows'} counted; ` +
            `${interrupted.rows - interrupted.counted} not ` +
            '(their cells are empty, and -o json gives them the error "not counted: interrupted")',
    );
  }

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
  const { changed } = answer;
  if (changed > 0)
    ctx.warn(
      `${changed} row${changed === 1 ? '' : 's'} changed while counting: a cell above its total, ` +
        'or columns adding up past it; their other is left out (count again)',
    );
  const matrix: Matrix = {
    resource,
    by,
    columns: answer.plan?.columns.map((column) => column.label) ?? [],
    values: valuesOf(answer.plan),
    rows: answer.rows.map(matrixRow),
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
  if (profiles !== undefined) for (const cost of answer.costs) ctx.note(costLine(cost));
  return answer.failed ? 1 : 0;
}

/** A row of the answer as the matrix printers take it, labelled with its profile and control plane. */
function matrixRow({ scope, ...numbers }: CountAnswerRow): MatrixRow {
  return {
    profile: scope.source.profile ?? null,
    baseUrl: scope.source.session.baseUrl,
    ou: scope.ou,
    ouPath: scope.path,
    depth: scope.depth,
    ...numbers,
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
