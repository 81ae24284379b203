// The one column planner: which fields of a list's records become columns, in what order and how wide.
// The command line's tables and the explorer's lists both use it; each says how a value reads in a cell
// (raw text on the command line, ages and bars in the explorer), and widths are measured on that text.
// Nothing is known in advance: the id and a name lead, then states and progress, then short values,
// long ones, and nested ones last; what does not fit is named, never silently dropped.
import { dataFields } from '../api/hal/records.js';
import { isStatusField } from '../api/hal/status.js';
import { cellWidth, oneLine } from './cells.js';

export interface Column {
  field: string;
  width: number;
  align: 'left' | 'right';
}

export interface ColumnPlan {
  columns: Column[];
  /** Fields that did not fit the width, in the order they would have come. */
  hidden: string[];
}

export interface PlanOptions {
  /** Cells available for the columns and the gaps between them (Infinity: no limit). */
  width: number;
  /** Cells between two columns. */
  gap: number;
  /** How one value reads in a cell. */
  cellText(field: string, value: unknown): string;
  /** Fields in a fixed order (the user's choice, or a table dpx made itself) instead of the ranking. */
  order?: readonly string[];
  /** Fields the reader asked to see: they come right after the id and the name (ids read as names). */
  lead?: readonly string[];
  /** Fields placed before every other, in this order (where a merged list's record came from). */
  first?: readonly string[];
  /**
   * What the records' schema says of their fields: those whose enum holds states, and the date-time ones.
   * Given, the ranking reads what identifies a record and its state first: the id, the name, states (and
   * flags), errors, times, then the fields the reader asked to see (`lead`), then the rest.
   */
  kinds?: { states: readonly string[]; times: readonly string[] };
  /**
   * Every field gets a column, however narrow (`--fields`: what the reader asked for is never dropped);
   * the widest give up cells first, and cut values end in `…`.
   */
  keepAll?: boolean;
  /**
   * UUIDs first get only their first groups, enough to tell rows apart, and grow back from spare width:
   * for a screen where the record view shows the whole id. A printed table keeps ids whole, to be copied.
   */
  shortenIds?: boolean;
}

const ID = /^(id|uuid)$/i;
/** Fields that name a record; only the first leads, further ones (e-mail beside a full name) rank as plain values. */
const NAME = /^(name|display_?name|full_?name|title|email|label|key)$/i;
/** A value no wider than this (a timestamp, a number, a word) is short and comes before longer ones. */
const SHORT_VALUE = 24;
/** A column first gets at most this many cells, a whole UUID; spare width is shared out afterwards. */
const COMFORT_WIDTH = 36;
const UUID_FIRST_WIDTH = 13;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;
/** Narrower than this, a column says too little to be worth its place. */
const MIN_WIDTH = 6;
/** Records measured; a list's first hundred say enough about its shape. */
const SAMPLE = 100;

/** Whether a field holds progress in percent (drawn as a bar in the explorer). */
export function isPercentField(name: string): boolean {
  return /(percent(age)?|progress|pct|ratio_100)$/i.test(name) || /^progress/i.test(name);
}

interface Traits {
  field: string;
  index: number;
  rank: number;
  natural: number;
  firstWidth: number;
  numeric: boolean;
}

const RANK = {
  id: 0,
  name: 1,
  lead: 1.5,
  state: 2,
  error: 2.2,
  time: 2.4,
  leadAfterTime: 2.6,
  short: 3,
  long: 4,
  nested: 5,
} as const;

/** Fields that say why a record failed. */
const ERROR = /(^|[_.-])(errors?|failure|fault|reason)([_.-]|$)/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function rank(field: string, values: unknown[], cellWidths: number[], options: PlanOptions): number {
  const lead = options.lead ?? [];
  const { kinds } = options;
  if (ID.test(field)) return RANK.id;
  if (!kinds && lead.includes(field)) return RANK.lead;
  if (NAME.test(field)) return RANK.name;
  if (isStatusField(field) || isPercentField(field) || kinds?.states.includes(field)) return RANK.state;
  // A flag (enabled, locked) is a record's state as much as a status word is.
  if (kinds && isFlagColumn(values)) return RANK.state;
  if (kinds && ERROR.test(field)) return RANK.error;
  if (kinds && (kinds.times.includes(field) || isTimeColumn(values))) return RANK.time;
  if (lead.includes(field)) return RANK.leadAfterTime;
  if (values.some((value) => typeof value === 'object' && value !== null)) return RANK.nested;
  return Math.max(0, ...cellWidths) <= SHORT_VALUE ? RANK.short : RANK.long;
}

function isFlagColumn(values: unknown[]): boolean {
  const present = values.filter((value) => value !== undefined && value !== null);
  return present.length > 0 && present.every((value) => typeof value === 'boolean');
}

/** Whether every value present reads as an ISO date-time (where no schema names the field's format). */
function isTimeColumn(values: unknown[]): boolean {
  const present = values.filter((value) => value !== undefined && value !== null);
  return present.length > 0 && present.every((value) => typeof value === 'string' && DATE_TIME.test(value));
}

/** Ranks before every other (they are negative), in the order given. */
function firstRank(field: string, first: readonly string[] | undefined): number | undefined {
  const at = first?.indexOf(field) ?? -1;
  return at === -1 ? undefined : at - first!.length;
}

function measure(records: readonly Record<string, unknown>[], options: PlanOptions): Traits[] {
  const sample = records.slice(0, SAMPLE);
  const fields = options.order ?? [...new Set(sample.flatMap(dataFields))];
  return fields.map((field, index) => {
    const values = sample.map((record) => record[field]);
    const texts = values.map((value) => options.cellText(field, value));
    const widths = texts.map(cellWidth);
    const present = values.filter((value) => value !== undefined && value !== null);
    return {
      field,
      index,
      rank: options.order ? 0 : (firstRank(field, options.first) ?? rank(field, values, widths, options)),
      natural: Math.max(cellWidth(oneLine(field)), ...widths),
      // A column the reader asked to see keeps its comfortable width, even where its text is still an id.
      firstWidth:
        options.shortenIds && !options.lead?.includes(field) && texts.some((text) => UUID_LIKE.test(text))
          ? UUID_FIRST_WIDTH
          : COMFORT_WIDTH,
      numeric: present.length > 0 && present.every((value) => typeof value === 'number'),
    };
  });
}

/** The fields in reading order: the ranking above, or the order asked for. */
function ordered(traits: Traits[], fixed: boolean): Traits[] {
  if (fixed) return traits;
  const byRank = (a: Traits, b: Traits) => a.rank - b.rank || a.index - b.index;
  const sorted = [...traits].sort(byRank);
  for (const extra of sorted.filter((t) => t.rank === RANK.name).slice(1)) extra.rank = RANK.short;
  return sorted.sort(byRank);
}

/**
 * Columns for `records` within `options.width` cells. In reading order each column takes a first width
 * if it fits, else a narrow one; the first that fits neither way ends the row, so a more important
 * column is never dropped for a less important one. Spare width then goes to the columns in order:
 * first up to a comfortable width, then to their full width.
 */
export function planColumns(records: readonly Record<string, unknown>[], options: PlanOptions): ColumnPlan {
  const candidates = ordered(measure(records, options), options.order !== undefined);
  if (options.keepAll) return planEvery(candidates, options);
  const chosen: (Traits & { width: number })[] = [];
  const hidden: string[] = [];
  let used = 0;
  for (const candidate of candidates) {
    const gap = chosen.length > 0 ? options.gap : 0;
    const widths = [Math.min(candidate.natural, candidate.firstWidth), Math.min(candidate.natural, MIN_WIDTH)];
    const width = hidden.length === 0 ? widths.find((w) => used + gap + w <= options.width) : undefined;
    if (width === undefined) {
      hidden.push(candidate.field);
      continue;
    }
    chosen.push({ ...candidate, width });
    used += gap + width;
  }
  const first = candidates[0];
  if (chosen.length === 0 && first) {
    chosen.push({ ...first, width: Math.max(1, Math.min(first.natural, options.width)) });
    hidden.shift();
    used = chosen[0]!.width;
  }
  for (const limit of [(natural: number) => Math.min(natural, COMFORT_WIDTH), (natural: number) => natural]) {
    for (const column of chosen) {
      const grow = Math.min(limit(column.natural) - column.width, options.width - used);
      if (grow > 0) {
        column.width += grow;
        used += grow;
      }
    }
  }
  return {
    columns: chosen.map(({ field, width, numeric }) => ({ field, width, align: numeric ? 'right' : 'left' })),
    hidden,
  };
}

/**
 * Every field as a column at its data's width, in reading order: for a table that scrolls sideways, whose
 * window (src/ui/column-window.ts) decides what is on screen. UUIDs keep their first groups when asked to.
 */
export function planScrolling(
  records: readonly Record<string, unknown>[],
  options: Omit<PlanOptions, 'width' | 'keepAll'>,
): Column[] {
  return ordered(measure(records, { ...options, width: Infinity }), options.order !== undefined).map((candidate) => ({
    field: candidate.field,
    // A heading has room for the sort mark after it, so that it is never cut for it.
    width: Math.max(
      cellWidth(oneLine(candidate.field)) + 1,
      candidate.firstWidth === UUID_FIRST_WIDTH ? Math.min(candidate.natural, UUID_FIRST_WIDTH) : candidate.natural,
    ),
    align: candidate.numeric ? 'right' : 'left',
  }));
}

/** Narrowest a kept column gets: one character and the `…` that says it was cut. */
const KEPT_MIN_WIDTH = 2;

/**
 * Every candidate as a column. Each first wants up to a comfortable width; when those do not fit, the
 * room is shared out so that narrow columns keep their width and the widest ones are cut to a common
 * limit (never below two cells, even if the line then runs past the width). Spare width then grows
 * the columns in order, up to their full width.
 */
function planEvery(candidates: Traits[], options: PlanOptions): ColumnPlan {
  const wanted = candidates.map((candidate) => Math.max(1, Math.min(candidate.natural, candidate.firstWidth)));
  const room = options.width - options.gap * Math.max(0, candidates.length - 1);
  const widths = shareOut(wanted, room);
  let used = widths.reduce((sum, width) => sum + width, 0);
  for (const [index, candidate] of candidates.entries()) {
    const grow = Math.min(candidate.natural - widths[index]!, room - used);
    if (grow > 0) {
      widths[index] = widths[index]! + grow;
      used += grow;
    }
  }
  return {
    columns: candidates.map((candidate, index) => ({
      field: candidate.field,
      width: widths[index]!,
      align: candidate.numeric ? 'right' : 'left',
    })),
    hidden: [],
  };
}

/** `wanted` widths within `room`: all of them when they fit, else each cut to the largest limit that fits. */
function shareOut(wanted: number[], room: number): number[] {
  if (wanted.reduce((sum, width) => sum + width, 0) <= room) return [...wanted];
  const ascending = [...wanted].sort((a, b) => a - b);
  let left = room;
  let limit = KEPT_MIN_WIDTH;
  for (const [index, width] of ascending.entries()) {
    const share = Math.floor(left / (ascending.length - index));
    if (width > share) {
      limit = Math.max(KEPT_MIN_WIDTH, share);
      break;
    }
    left -= width;
  }
  return wanted.map((width) => Math.min(width, limit));
}
