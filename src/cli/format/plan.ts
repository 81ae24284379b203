// A count's plan printed: `--explain` as lines a person reads (both estimates, the choice, what was
// sent to learn them), and the `plan` member of `-o json`. One control plane's plan is the usual case;
// with several, the estimates add up and each check names its control plane.
import type { PlaneStrategy } from '../../api/fanout/count.js';
import { formatCount } from '../../text/cells.js';

const SCAN_WHY = "the root's list read once";
const CELLS_WHY = "a request per unit and value, and one for each unit's total";

export function explainText(
  strategies: readonly PlaneStrategy[],
  question: { resource: string; by: string | undefined; valuesGiven: boolean },
  requests: number,
): string {
  const lines: string[] = [];
  for (const strategy of strategies) {
    const { shape, estimates, probe } = strategy;
    const rate = `${formatCount(Math.round(shape.ratePerSecond))} requests/s`;
    // Without a survey of the list (up to 7 pages), the values are those of the schema and the probe's one page: the count may find more.
    const values =
      question.by === undefined
        ? 'totals only'
        : `${strategy.probe && !question.valuesGiven ? 'at least ' : ''}${shape.values} values of ${question.by}`;
    lines.push(
      `count ${question.resource}: ${formatCount(shape.rows)} units × ${values}, at ${strategy.source.session.baseUrl} (${rate} now)`,
    );
    const row = (name: string, estimate: { requests: number; seconds: number } | undefined, why: string) => {
      if (estimate === undefined) return `  ${name.padEnd(6)}${'not costed'.padStart(16)}  ${why}`;
      const cost = `${formatCount(estimate.requests).padStart(7)} requests  ${seconds(estimate.seconds).padStart(7)}  `;
      return `  ${name.padEnd(6)}${cost}${why}`;
    };
    lines.push(row('cells', estimates.cells, CELLS_WHY));
    const scanWhy =
      strategy.scanImpossible !== undefined
        ? `not possible: ${strategy.scanImpossible}`
        : probe === undefined
          ? 'not probed (--plan cells)'
          : `${SCAN_WHY}: ${pagesText(probe)}, then ${shape.tenants} tenants' totals and 3 random cells checked`;
    lines.push(row('scan', estimates.scan, scanWhy));
    const ratio =
      estimates.scan === undefined
        ? ''
        : `; the scan is ${(estimates.scan.requests / estimates.cells.requests).toFixed(2)}× the requests of cells`;
    const more =
      strategy.probe && question.by !== undefined && !question.valuesGiven
        ? ' (more values would cost cells more, never the scan)'
        : '';
    lines.push(`chosen: ${strategy.chosen}${ratio}${more}`);
  }
  const probes = strategies.reduce((sum, strategy) => sum + (strategy.probe?.requests ?? 0), 0);
  const toTheList = strategies.some((strategy) => strategy.probe) ? `, ${probes} to the list` : '';
  lines.push(`sent to plan it: ${formatCount(requests)} requests (the index, the unit list${toTheList})`);
  return lines.map((line) => `${line}\n`).join('');
}

function pagesText(probe: NonNullable<PlaneStrategy['probe']>): string {
  const records = probe.total === undefined ? 'records not counted by the list' : `${formatCount(probe.total)} records`;
  const pages =
    probe.total === undefined || probe.pageSize === undefined
      ? 'its pages'
      : `${formatCount(Math.max(1, Math.ceil(probe.total / probe.pageSize)))} pages of ${probe.pageSize}`;
  return `${pages} (${records}; unit field ${probe.unitField ?? 'none'})`;
}

function seconds(value: number): string {
  return value < 60 ? `${value.toFixed(1)} s` : `${Math.floor(value / 60)} min ${Math.round(value % 60)} s`;
}

/** `plan` in -o json: the plan that counted, both estimates, every check of a scan and how it went. */
export function planJson(strategies: readonly PlaneStrategy[]): unknown {
  if (strategies.length === 0) return null;
  const several = strategies.length > 1;
  const sum = (pick: (strategy: PlaneStrategy) => { requests: number; seconds: number } | undefined) => {
    const estimates = strategies.map(pick);
    if (estimates.some((estimate) => estimate === undefined)) return null;
    return {
      requests: estimates.reduce((total, estimate) => total + estimate!.requests, 0),
      seconds: round(estimates.reduce((total, estimate) => total + estimate!.seconds, 0)),
    };
  };
  const chosen = new Set(strategies.map((strategy) => strategy.chosen));
  const verification = new Set(strategies.map((strategy) => strategy.verification ?? null));
  return {
    chosen: chosen.size === 1 ? [...chosen][0] : 'mixed',
    planned: strategies.map((strategy): string => strategy.planned).reduce((a, b) => (a === b ? a : 'mixed')),
    estimates: { cells: sum((strategy) => strategy.estimates.cells), scan: sum((strategy) => strategy.estimates.scan) },
    verification: verification.size === 1 ? verificationText([...verification][0]!) : 'mixed',
    verified: strategies.flatMap((strategy) =>
      strategy.checks.map((check) => ({
        ...(several ? { base_url: strategy.source.session.baseUrl } : {}),
        ou: check.unit,
        value: check.value === undefined ? null : check.value,
        what: check.value === undefined ? 'total' : 'cell',
        scanned: check.scanned,
        server: check.server ?? null,
        agrees: check.server === check.scanned,
      })),
    ),
    fallback:
      strategies.flatMap((strategy) => (strategy.fallback === undefined ? [] : [strategy.fallback])).join('; ') || null,
    scan_impossible:
      strategies
        .flatMap((strategy) => (strategy.scanImpossible === undefined ? [] : [strategy.scanImpossible]))
        .join('; ') || null,
  };
}

function verificationText(verification: PlaneStrategy['verification'] | null): string | null {
  if (verification === 'mismatch') return 'mismatch: counted per cell instead';
  if (verification === 'not verified') return 'counted, not verified';
  return verification ?? null;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
