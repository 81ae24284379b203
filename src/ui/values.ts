// How one value reads on screen: status words coloured by what they mean, percentages as bars, byte
// counts in KiB/MiB/GiB, timestamps as ages, booleans as marks, nested values summarised (exactly, in the
// record view). Unknown values stay neutral.
import { relativeAge as ageOf } from '../text/time.js';
import { oneLine } from '../text/cells.js';
import { formatBytes, isByteCount } from '../text/bytes.js';
import { isPercentField } from '../text/column-planner.js';
import { isStatusField } from '../api/hal/status.js';
import { statusTone, type Tone } from '../text/colour.js';
import { recordLabel } from '../api/hal/records.js';

export interface Cell {
  text: string;
  tone: Tone;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

/** An ISO timestamp's age: "5m ago", "in 4h". */
export function relativeAge(iso: string, now: number): string {
  return ageOf(Date.parse(iso), now);
}

/** A time span in words, for token expiry: "59m", "3h 5m", "2d". */
export function duration(ms: number): string {
  const m = Math.floor(Math.abs(ms) / 60_000);
  if (m < 1) return `${Math.floor(Math.abs(ms) / 1000)}s`;
  if (m < 60) return `${m}m`;
  if (m < 60 * 48) return `${Math.floor(m / 60)}h ${m % 60}m`;
  return `${Math.floor(m / 1440)}d`;
}

export function percentBar(value: number, width: number): string {
  const clamped = Math.max(0, Math.min(100, value));
  const label = `${Math.round(clamped)}%`.padStart(4);
  const barWidth = Math.max(0, width - label.length - 1);
  const filled = Math.round((clamped / 100) * barWidth);
  return barWidth > 0 ? `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)} ${label}` : label.trim();
}

/** A nested value in a few characters: an object by its name-like field or its size, an array by length. */
export function summarise(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => typeof v !== 'object' || v === null)) return oneLine(value.map(String).join(', '));
    return `[${value.length} items]`;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const label = recordLabel(record);
    if (label !== undefined) return `{${oneLine(label)}}`;
    const keys = Object.keys(record).filter((k) => !k.startsWith('_'));
    return `{${keys.length} fields}`;
  }
  return String(value);
}

/** One value as a table cell: `field` is the column's name, `width` its cells, `now` the clock. */
export function formatCell(field: string, value: unknown, width: number, now: number): Cell {
  if (value === null || value === undefined) return { text: '—', tone: 'muted' };
  if (typeof value === 'boolean') return { text: value ? '✓' : '✗', tone: value ? 'good' : 'muted' };
  if (typeof value === 'number') {
    if (isPercentField(field) && value >= 0 && value <= 100)
      return { text: percentBar(value, Math.min(width, 16)), tone: 'neutral' };
    if (isByteCount(field, value)) return { text: formatBytes(value), tone: 'neutral' };
    return { text: String(value), tone: 'neutral' };
  }
  if (typeof value === 'string') {
    if (isTimestamp(value)) return { text: relativeAge(value, now), tone: 'neutral' };
    const text = oneLine(value);
    return { text, tone: isStatusField(field) ? statusTone(value) : 'neutral' };
  }
  return { text: summarise(value), tone: 'muted' };
}

/** An exact rendering, for the detail view: timestamps keep their ISO text and gain their age. */
export function formatExact(value: unknown, now: number): Cell {
  if (value === null) return { text: 'null', tone: 'muted' };
  if (typeof value === 'boolean') return { text: value ? '✓ true' : '✗ false', tone: value ? 'good' : 'muted' };
  if (typeof value === 'string') {
    if (isTimestamp(value)) return { text: `${value}  (${relativeAge(value, now)})`, tone: 'neutral' };
    return { text: JSON.stringify(value), tone: 'neutral' };
  }
  return { text: String(value), tone: 'neutral' };
}
