// The count matrix's types: what it is asked, what a plane's plan and a row come to, and the events it
// answers with. Apart from the modules that count (count.ts, count-cells.ts, count-plan.ts), so that they
// share them without importing each other.
import type { DpxError } from '../errors.js';
import type { Check, PlanChoice, PlanName, Probe } from './plan.js';
import type { Scope, Source, UnitChoice } from './scopes.js';
import type { CountValue, ValueSurvey } from './count-values.js';

export interface CountQuery {
  resource: string;
  version?: string;
  operationId?: string;
  /** A JSON filter object, as text, that narrows every count. */
  filter?: string;
  /** The field whose values make the columns; without one, each row has only its total. */
  by?: string;
  /** The values to count; by default the record schema's, and those on a few pages of the root's list. */
  values?: readonly CountValue[];
  units?: UnitChoice;
  /** Only the units down to this depth among those chosen (root 0, tenants 1); each still counts its whole subtree. */
  depth?: number;
  /** Records per page when a list must be walked or values sampled (default 100). */
  pageSize?: number;
  /** Per cell, by one scan of the root's list, or (default) the cheaper by the planner's estimate. */
  plan?: PlanMode;
  /** Only plan: no values surveyed, nothing counted; the `strategy` events say what would be sent. */
  explain?: boolean;
  /**
   * Counted only where this holds: a condition the server will not take as a filter (a time window),
   * applied to every record of each unit read here. Every number is then counted, never the server's.
   */
  keep?: (record: Record<string, unknown>) => boolean;
  /** Chooses the cells a scan is checked against (at random by default): a run and its replay check the same ones. */
  seed?: number;
}

export interface CountColumn {
  value: CountValue;
  label: string;
}

/** The list a row is counted in: its control plane's resource, version and list operation. */
export interface CountTarget {
  resource: string;
  version: string;
  operationId: string;
}

export interface CountRow {
  scope: Scope;
  /** Absent when the control plane could not be asked at all (see `error`). */
  target?: CountTarget;
  /** Why the row has no counts: its control plane's index or units could not be read. */
  error?: DpxError;
}

export interface CountPlan {
  by?: string;
  filter?: string;
  columns: CountColumn[];
  /** Where the columns came from: the caller, or the schema and the pages of the root's list read for them. */
  valuesFrom?: 'given' | ValueSurvey;
  rows: CountRow[];
}

export type CountEvent =
  /** Rows and columns, before any count. */
  | { kind: 'plan'; plan: CountPlan }
  /** One count, or why it failed; `column` is undefined for the row's total. */
  | { kind: 'cell'; row: number; column?: number; count?: number; counted?: boolean; error?: DpxError }
  /** Every count of the row has answered. */
  | ({ kind: 'row'; row: number } & RowCounts)
  /** Something the reader should be told once: a list is read whole, a header the server seems to ignore. */
  | { kind: 'notice'; message: string }
  /** A control plane's plan, settled before its rows are counted: both estimates, the choice, the scan's checks. */
  | { kind: 'strategy'; strategy: PlaneStrategy };

/** A row's numbers once every one of its counts has answered. */
export interface RowCounts {
  /** One per column; undefined where that count failed. */
  counts: (number | undefined)[];
  /** The server's count for the unit's scope, or counted from every record (`counted`); never a sum of columns. */
  total?: number;
  /**
   * `total − Σ counts`: the records no column holds. Undefined without `by`, when a count failed, or when
   * the numbers cannot all be true at once (`changed`).
   */
  other?: number;
  /** A number of the row was counted by dpx from every record, because the list reports no count. */
  counted: boolean;
  /** A cell above the total, or columns adding up past it: the records changed while they were counted. */
  changed: boolean;
  error?: DpxError;
}

/** One column of every row: its value, and the filter its requests carry. */
export interface Cell {
  filter: Record<string, unknown> | undefined;
  column: number;
  label: string;
}

/** One count as it came back: a number (counted when dpx read every record for it) or why there is none. */
export interface Answer {
  count?: number;
  counted?: boolean;
  error?: DpxError;
}

/** `--plan`: the cheaper of the two, or one of them forced. */
export type PlanMode = 'auto' | PlanName;

/**
 * How a scan stood against the server's own counts: every check agreed; one did not (the rows were
 * counted per cell instead); or the list gives no counts to check against (the scan's numbers stand,
 * marked counted).
 */
export type Verification = 'verified' | 'mismatch' | 'not verified';

/** One control plane's plan, as chosen and as it went. */
export interface PlaneStrategy {
  source: Source;
  /** The plan that counted the rows (cells after a scan that failed its checks). */
  chosen: PlanName;
  /** The plan the estimates chose, before any check. */
  planned: PlanName;
  /** The scan's estimate is absent when cells were forced (no probe is sent) or the scan is not possible. */
  estimates: PlanChoice['estimates'];
  /** What the estimates were made for: rows, columns, tenants checked, requests a second. */
  shape: PlanShape;
  /** Why the scan is not possible, when it is not. */
  scanImpossible?: string;
  /** What the probe of the list found (its records left out); absent when none was sent. */
  probe?: Omit<Probe, 'records'>;
  verification?: Verification;
  checks: Check[];
  /** Why a chosen scan gave way to cells: what it disagreed on with the server, or how it failed. */
  fallback?: string;
}

export interface PlanShape {
  rows: number;
  values: number;
  tenants: number;
  ratePerSecond: number;
}
