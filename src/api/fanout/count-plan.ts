// Which plan counts one control plane's rows of a count matrix, chosen before any data request as a
// database's planner chooses: `cells` (a request per unit and value, PlaneCounter) or `scan` (the root's
// list read once and rolled up the unit tree, scan.ts), costed from one probe of the list (plan.ts). A
// scan is trusted only once it agrees with the server's own counts; where it does not, the rows are
// counted per cell after all. Either way the rows answer the same cell and row events.
import { fieldEnum } from '../hal/schemas.js';
import { distinctValues } from '../hal/suggestions.js';
import { isCountValue, ValueTally, type CountValue, type SurveyTarget, type ValueSurvey } from './count-values.js';
import type {
  Answer,
  Cell,
  CountEvent,
  CountPlan,
  PlaneStrategy,
  PlanMode,
  PlanShape,
  Verification,
} from './count-types.js';
import { toDpxError } from '../errors.js';
import { choosePlan, probeList, RANDOM_CHECKS, seededRandom, verifyScan, type Probe } from './plan.js';
import { scanCounts, type ScanResult, type ScanTarget } from './scan.js';
import type { Scope, Source } from './scopes.js';
import type { OrgUnit } from './units.js';

/** Counts a row: PlaneCounter asks the server; ScanCounter answers from a verified scan. */
export interface RowCounter {
  row(
    target: ScanTarget,
    scope: Scope,
    base: Record<string, unknown> | undefined,
    cells: Cell[],
    answered: (column: number | undefined, answer: Answer) => void,
    signal: AbortSignal,
  ): Promise<{ total: Answer; columns: Answer[] }>;
}

export interface PlaneQuestion {
  source: Source;
  /** The scopes of the plane's rows, in order. */
  scopes: readonly Scope[];
  target: ScanTarget & { version: string; operationId: string };
  by?: string;
  /** The columns; undefined when they were not surveyed (--explain): then counted from the schema and the probe's page. */
  columns?: readonly CountValue[];
  /** The scan already read (scanForColumns): neither probed nor read again. */
  scanned?: ScanResult;
}

/**
 * A forced scan run before the columns are known, learning them from the records it counts: the values
 * need no survey of their own, so no page of the list is read twice. Undefined where the rows are not
 * all units of one tree, or the scan cannot be read: the columns are then surveyed, and the plan chosen,
 * as without it.
 */
export async function scanForColumns(
  scopes: readonly Scope[],
  target: SurveyTarget & { filter?: string },
  by: string,
  session: Source['session'],
  signal: AbortSignal,
): Promise<{ values: CountValue[]; survey: ValueSurvey; scan: ScanResult } | undefined> {
  const units = treeOf(scopes);
  if (units === undefined) return undefined;
  const tally = new ValueTally(target, by);
  let scan: ScanResult;
  try {
    scan = await scanCounts(session, units, target, by, { signal, seen: (record) => tally.add(record) });
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
  const survey = { schema: tally.listed.length > 0, pages: scan.pages, everyPage: true, mayMiss: false };
  return { values: tally.values(), survey, scan };
}

/** The units of the tree the rows lie in, when every row is one of them: what a scan can count. */
function treeOf(scopes: readonly Scope[]): OrgUnit[] | undefined {
  const directory = scopes[0]?.units;
  if (
    directory === undefined ||
    scopes.some((scope) => scope.ou === null || scope.units !== directory || directory.get(scope.ou) === undefined)
  )
    return undefined;
  return [...directory.units];
}

/** The units whose totals every scan is checked against: the tenants (depth 1), else the roots. */
function tenantsOf(units: readonly OrgUnit[]): string[] {
  const tenants = units.filter((unit) => unit.depth === 1);
  return (tenants.length > 0 ? tenants : units.filter((unit) => unit.depth === 0)).map((unit) => unit.id);
}

function shapeOf(question: PlaneQuestion, units: readonly OrgUnit[] | undefined): PlanShape {
  const values = question.by === undefined ? 0 : (question.columns?.length ?? 0);
  return {
    rows: question.scopes.length,
    values,
    tenants: units ? tenantsOf(units).length : 0,
    ratePerSecond: question.source.session.traffic.ratePerSecond,
  };
}

/** The per-cell plan alone: forced, or the only one possible. */
function cellsStrategy(question: PlaneQuestion, scanImpossible?: string): PlaneStrategy {
  const shape = shapeOf(question, treeOf(question.scopes));
  const requests = shape.rows * (shape.values + 1);
  const cells = { requests, seconds: requests / shape.ratePerSecond };
  return {
    source: question.source,
    chosen: 'cells',
    planned: 'cells',
    estimates: { cells },
    shape,
    checks: [],
    ...(scanImpossible ? { scanImpossible } : {}),
  };
}

/** Both plans costed for the plane (the probe is ≤ 2 list requests; none when cells are forced) and one chosen. */
export async function choosePlaneStrategy(
  question: PlaneQuestion,
  mode: PlanMode,
  signal: AbortSignal,
): Promise<PlaneStrategy> {
  const { source, target, by } = question;
  const units = treeOf(question.scopes);
  if (mode === 'cells') return cellsStrategy(question);
  if (units === undefined) return cellsStrategy(question, "the rows are not all units of the index's unit tree");
  const shape = shapeOf(question, units);
  // No scan costs less than a page and its checks: below that, the probe itself would be the waste.
  if (
    mode === 'auto' &&
    question.columns !== undefined &&
    shape.rows * (shape.values + 1) <= 1 + shape.tenants + RANDOM_CHECKS
  )
    return cellsStrategy(question);
  const probe = question.scanned ? probeOf(question.scanned) : await probeList(source.session, units, target, signal);
  if (by !== undefined && question.columns === undefined)
    shape.values = surveyedOnProbe(target, by, probe.records ?? []);
  const choice = choosePlan(probe, shape, mode === 'scan' ? 'scan' : undefined);
  // A forced scan of a list without counts still runs; it cannot be verified, and says so.
  const chosen = mode === 'scan' && probe.unitField !== undefined ? 'scan' : choice.chosen;
  const { records: _records, ...found } = probe;
  return {
    source,
    chosen,
    planned: chosen,
    estimates: choice.estimates,
    shape,
    probe: found,
    checks: [],
    ...(choice.scanImpossible && chosen !== 'scan' ? { scanImpossible: choice.scanImpossible } : {}),
  };
}

/** What a probe would have learned, from the scan that was read already: no request. */
function probeOf(scan: ScanResult): Probe {
  return {
    requests: 0,
    ...(scan.total === undefined ? {} : { total: scan.total }),
    ...(scan.pageSize === undefined ? {} : { pageSize: scan.pageSize }),
    ...(scan.unitField === '' ? {} : { unitField: scan.unitField }),
  };
}

/** The columns --explain expects without surveying the list: the schema's values, and those on the probe's page. */
function surveyedOnProbe(
  target: PlaneQuestion['target'],
  by: string,
  records: readonly Record<string, unknown>[],
): number {
  const listed = fieldEnum(target.resource, target.version, by)?.filter(isCountValue) ?? [];
  const seen = distinctValues(records, by).filter((value) => !listed.includes(value));
  return listed.length + seen.length;
}

/**
 * The scan run and held against the server's own counts: every tenant's total and 3 cells at random.
 * Its counter when it stands (verified, or not verifiable); undefined, with the strategy saying why,
 * when the rows must be counted per cell instead.
 */
export async function runScan(
  strategy: PlaneStrategy,
  question: PlaneQuestion,
  signal: AbortSignal,
  random: () => number = Math.random,
): Promise<RowCounter | undefined> {
  const { source, scopes, target, by } = question;
  const units = treeOf(scopes)!;
  const scan = question.scanned ?? (await scanCounts(source.session, units, target, by, { signal }));
  const columns = question.columns ?? [];
  if (scan.unplaced > 0)
    return fellBack(strategy, `${scan.unplaced} records of the root's list name no known unit`, 'mismatch');
  const cells = by === undefined ? [] : scopes.flatMap((scope) => columns.map((value) => ({ unit: scope.ou!, value })));
  strategy.checks = await verifyScan(
    source.session,
    scan,
    { tenants: tenantsOf(units), cells },
    target,
    by,
    random,
    signal,
  );
  const wrong = strategy.checks.find((check) => check.server !== undefined && check.server !== check.scanned);
  if (wrong) {
    const name = scopes[0]!.units?.path(wrong.unit).join(' / ') ?? wrong.unit;
    const what = wrong.value === undefined ? 'total' : `${by} ${JSON.stringify(wrong.value)}`;
    return fellBack(
      strategy,
      `${name}, ${what}: the scan counted ${wrong.scanned}, the server ${wrong.server}`,
      'mismatch',
    );
  }
  const verified = strategy.checks.length > 0 && strategy.checks.every((check) => check.server !== undefined);
  strategy.verification = verified ? 'verified' : 'not verified';
  return new ScanCounter(scan, columns, !verified);
}

/** The rows left to the per-cell plan: the scan disagreed with the server (`mismatch`), or could not be read. */
function fellBack(strategy: PlaneStrategy, why: string, verification?: Verification): undefined {
  strategy.chosen = 'cells';
  strategy.fallback = why;
  if (verification) strategy.verification = verification;
  return undefined;
}

/** A row's total and cells as the scan counted them: the unit's whole subtree, per value. */
class ScanCounter implements RowCounter {
  constructor(
    private readonly scan: ScanResult,
    private readonly columns: readonly CountValue[],
    private readonly counted: boolean,
  ) {}

  async row(
    _target: ScanTarget,
    scope: Scope,
    _base: Record<string, unknown> | undefined,
    cells: Cell[],
    answered: (column: number | undefined, answer: Answer) => void,
  ): Promise<{ total: Answer; columns: Answer[] }> {
    const own = scope.ou === null ? undefined : this.scan.counts.get(scope.ou);
    const mark = this.counted ? { counted: true } : {};
    const total: Answer = { count: own?.total ?? 0, ...mark };
    answered(undefined, total);
    const columns = cells.map((cell) => {
      const value = this.columns[cell.column];
      const answer: Answer = { count: own?.byValue.get(JSON.stringify(value)) ?? 0, ...mark };
      answered(cell.column, answer);
      return answer;
    });
    return { total, columns };
  }
}

/**
 * Every control plane's plan settled before a row is counted: chosen (a `strategy` event each, and no
 * more with --explain), then each scan run and checked. A scan that fails its checks or cannot be read
 * leaves its rows to be counted per cell, and a notice says so. The counters of the scans that stand.
 */
export async function* settlePlans(
  plan: CountPlan,
  query: { plan?: PlanMode; explain?: boolean; seed?: number },
  signal: AbortSignal,
  scanned: ReadonlyMap<Source, ScanResult> = new Map(),
): AsyncGenerator<CountEvent, Map<Source, RowCounter>> {
  const questions = new Map<Source, PlaneQuestion>();
  for (const row of plan.rows) {
    if (!row.target) continue;
    const { source } = row.scope;
    let question = questions.get(source);
    if (!question) {
      question = {
        source,
        scopes: [],
        target: { ...row.target, ...(plan.filter ? { filter: plan.filter } : {}) },
        ...(plan.by === undefined ? {} : { by: plan.by }),
        ...(query.explain && plan.valuesFrom !== 'given'
          ? {}
          : { columns: plan.columns.map((column) => column.value) }),
        ...(query.plan === 'scan' && scanned.has(source) ? { scanned: scanned.get(source)! } : {}),
      };
      questions.set(source, question);
    }
    (question.scopes as Scope[]).push(row.scope);
  }
  const strategies = await Promise.all(
    [...questions.values()].map((question) =>
      choosePlaneStrategy(question, query.plan ?? 'auto', signal).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return {
          ...cellsStrategy(question),
          scanImpossible: `the probe of the list failed: ${toDpxError(error).message}`,
        };
      }),
    ),
  );
  const counters = new Map<Source, RowCounter>();
  if (query.explain) {
    for (const strategy of strategies) yield { kind: 'strategy', strategy };
    return counters;
  }
  const scans = await Promise.all(
    strategies.map(async (strategy) => {
      if (strategy.chosen !== 'scan') return undefined;
      return runScan(
        strategy,
        questions.get(strategy.source)!,
        signal,
        query.seed === undefined ? Math.random : seededRandom(query.seed),
      ).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return fellBack(strategy, `it failed: ${toDpxError(error).message}`);
      });
    }),
  );
  for (const [index, strategy] of strategies.entries()) {
    const counter = scans[index];
    if (counter) counters.set(strategy.source, counter);
    yield { kind: 'strategy', strategy };
    const where = `${questions.get(strategy.source)!.target.resource} at ${strategy.source.session.baseUrl}`;
    if (strategy.fallback !== undefined)
      yield {
        kind: 'notice',
        message: `the scan of ${where} was not used (${strategy.fallback}): counted per cell instead`,
      };
    if (strategy.verification === 'not verified')
      yield {
        kind: 'notice',
        message: `${where}: counted, not verified — the list reports no counts to check the scan against (numbers marked counted)`,
      };
  }
  return counters;
}
