import { describe, expect, it } from 'vitest';
import { formatBytes, isByteCount } from '../../../src/text/bytes.js';

describe('byte counts', () => {
  it('reads *_bytes fields, and whole numbers in fields whose name says size, but not other units', () => {
    expect(isByteCount('size_bytes', 1536)).toBe(true);
    expect(isByteCount('bytes', 10.5)).toBe(true);
    expect(isByteCount('logical_size', 4096)).toBe(true);
    expect(isByteCount('size', 4096)).toBe(true);
    expect(isByteCount('size_on_disk', 4096)).toBe(true);
    expect(isByteCount('size', 40.5)).toBe(false);
    expect(isByteCount('size_gb', 40)).toBe(false);
    expect(isByteCount('size_mib', 40)).toBe(false);
    expect(isByteCount('size_count', 40)).toBe(false);
    expect(isByteCount('sized', 40)).toBe(false);
    expect(isByteCount('resize_at', 40)).toBe(false);
    expect(isByteCount('size_bytes', '1536')).toBe(false);
    expect(isByteCount('size_bytes', -1)).toBe(false);
  });

  it('as B, KiB, MiB, GiB…: one decimal under 100 of a unit, none above, never 1024 of one unit', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1023.6)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(2048)).toBe('2 KiB');
    expect(formatBytes(21_300_000)).toBe('20.3 MiB');
    expect(formatBytes(150 * 1024 * 1024)).toBe('150 MiB');
    expect(formatBytes(1024 ** 3 * 1.25)).toBe('1.3 GiB');
    expect(formatBytes(1024 ** 4 - 1)).toBe('1 TiB');
    expect(formatBytes(1024 ** 6 * 3)).toBe('3072 PiB');
  });
});
