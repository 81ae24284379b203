// Two ways to answer a count matrix, costed before any data request is sent, as a database's planner
// does: `cells` asks the server for each (unit, value) and each unit's total; `scan` reads the root's
// list once and counts per unit itself (scan.ts), then checks itself against the server's own counts.
// The estimate needs one cheap probe of the list: its total, the largest page it takes, and the field
// that names a record's unit.
import { envelopeCount, listRequest, readPage } from '../session/pages.js';
import { largestPageSize } from '../session/page-size.js';
import type { Session } from '../session/session.js';
import { isObject } from '../json.js';
import { findUnitField, UnitPlaces } from './groups.js';
import type { ScanResult, ScanTarget, ScanValue } from './scan.js';
import type { OrgUnit } from './units.js';

export type PlanName = 'cells' | 'scan';

export interface PlanEstimate {
  requests: number;
  /** At the rate the control plane is asked at now. */
  seconds: number;
}

export interface Probe {
  /** The root list's total_count; undefined when the list reports none. */
  total?: number;
  pageSize?: number;
  unitField?: string;
  /** Requests the probe sent to the list (at most 2: a refused large page, and the page it allows). */
  requests: number;
  /** The records of the page read: what --explain expects the columns from, without surveying the list. */
  records?: readonly Record<string, unknown>[];
}

export interface PlanChoice {
  chosen: PlanName;
  estimates: { cells: PlanEstimate; scan?: PlanEstimate };
  /** Why the scan is not possible, when it is not. */
  scanImpossible?: string;
  probe: Probe;
}

/**
 * Numbers in [0, 1) that follow from `seed` alone (mulberry32): the cells a scan is checked against are
 * chosen at random, but the same run, and its replay from a case, checks the same ones.
 */
export function seededRandom(seed: number): () => number {
  let state = Math.floor(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cells checked at random after a scan, beside every tenant's total. */
export const RANDOM_CHECKS = 3;

/** The root list's first page at the largest size it takes: what the estimates need. */
export async function probeList(
  session: Session,
  units: readonly OrgUnit[],
  target: ScanTarget,
  signal?: AbortSignal,
): Promise<Probe> {
  const before = session.traffic.requests;
  const size = await largestPageSize(session, { ...target, ou: null }, signal);
  const request = await listRequest(session, {
    ...target,
    ou: null,
    ...(size === undefined ? {} : { pageSize: size.ask }),
  });
  const response = await session.send(request, signal ? { signal } : {});
  const page = readPage(response);
  const total = isObject(response.body) ? envelopeCount(response.body, 'total_count') : undefined;
  const unitField = findUnitField(page.items, new UnitPlaces([...units]));
  return {
    requests: session.traffic.requests - before,
    records: page.items,
    ...(total === undefined ? {} : { total }),
    ...(size === undefined ? {} : { pageSize: size.perPage }),
    ...(unitField === undefined ? {} : { unitField }),
  };
}

/**
 * Both plans' cost for `rows` units and `values` columns (0 without --by), and the cheaper one. The scan
 * is possible only where records name their unit and the list reports its total (else it could not be
 * verified, nor its pages counted in advance).
 */
export function choosePlan(
  probe: Probe,
  shape: { rows: number; values: number; tenants: number; ratePerSecond: number },
  forced?: PlanName,
): PlanChoice {
  const seconds = (requests: number) => requests / shape.ratePerSecond;
  const cellRequests = shape.rows * (shape.values + 1);
  const cells = { requests: cellRequests, seconds: seconds(cellRequests) };
  const scanImpossible =
    probe.unitField === undefined
      ? 'no field of the records names their unit'
      : probe.total === undefined
        ? 'the list reports no total_count, so its pages cannot be counted in advance nor the scan verified'
        : undefined;
  if (scanImpossible !== undefined) return { chosen: 'cells', estimates: { cells }, scanImpossible, probe };
  const pages = Math.max(1, Math.ceil(probe.total! / (probe.pageSize ?? 1)));
  const scanRequests = pages + shape.tenants + RANDOM_CHECKS;
  const scan = { requests: scanRequests, seconds: seconds(scanRequests) };
  return { chosen: forced ?? (scan.requests < cells.requests ? 'scan' : 'cells'), estimates: { cells, scan }, probe };
}

export interface Check {
  unit: string;
  /** undefined: the unit's total. */
  value?: ScanValue;
  scanned: number;
  server: number | undefined;
}

/**
 * The scan held against the server's own counts: every tenant's total and RANDOM_CHECKS cells chosen at
 * random. A mismatch (or a count the server will not give) means the scan cannot be trusted.
 */
export async function verifyScan(
  session: Session,
  scan: ScanResult,
  checks: { tenants: readonly string[]; cells: readonly { unit: string; value: ScanValue }[] },
  target: ScanTarget,
  by: string | undefined,
  random: () => number = Math.random,
  signal?: AbortSignal,
): Promise<Check[]> {
  const pool = [...checks.cells];
  const picked: { unit: string; value: ScanValue }[] = [];
  while (picked.length < RANDOM_CHECKS && pool.length > 0)
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  const asked = [...checks.tenants.map((unit) => ({ unit })), ...picked];
  return Promise.all(
    asked.map(async ({ unit, value }: { unit: string; value?: ScanValue }) => {
      const counted = scan.counts.get(unit);
      const scanned = value === undefined ? (counted?.total ?? 0) : (counted?.byValue.get(JSON.stringify(value)) ?? 0);
      const filter = value === undefined || by === undefined ? target.filter : withValue(target.filter, by, value);
      const request = await listRequest(session, {
        ...target,
        pageSize: 1,
        ou: unit,
        ...(filter === undefined ? {} : { filter }),
      });
      const response = await session.send(request, signal ? { signal } : {});
      const server = isObject(response.body) ? envelopeCount(response.body, 'total_count') : undefined;
      return { unit, ...(value === undefined ? {} : { value }), scanned, server };
    }),
  );
}

function withValue(filter: string | undefined, by: string, value: ScanValue): string {
  const base: unknown = filter === undefined || filter === '' ? {} : JSON.parse(filter);
  return JSON.stringify({ ...(isObject(base) ? base : {}), [by]: { $eq: value } });
}
