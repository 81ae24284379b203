// Byte counts as people read them in a list: 1.5 KiB, 20.3 MiB, 1.2 GiB. Which fields hold byte counts
// is read from their names: `*_bytes`, or a whole number in a field whose name says size. A name that
// carries another unit (`size_gb`, `size_mb`) is that unit, not bytes, and is left as it is.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;
const BYTES = /(^|_)bytes$/i;
const SIZE = /(^|_)size($|_)/i;
const OTHER_UNIT =
  /_(k|m|g|t|p)i?b$|_(kilo|mega|giga|tera)bytes$|_(count|percent(age)?|pct|ratio|days|hours|seconds|ms)$/i;

/** Whether `value` in the field `name` is a byte count. */
export function isByteCount(name: string, value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return false;
  if (OTHER_UNIT.test(name)) return false;
  return BYTES.test(name) || (SIZE.test(name) && Number.isInteger(value));
}

/** 512 → "512 B", 1536 → "1.5 KiB", 21_300_000 → "20.3 MiB": one decimal below 100 of a unit, none above. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  // 1023.6 B would print as 1024 B: a value that rounds up to the next unit is shown in it.
  while (value >= 1023.5 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  const text = value < 100 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text} ${UNITS[unit]}`;
}
