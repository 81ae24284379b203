import { describe, expect, it } from 'vitest';
import { inferColumns } from '../../src/ui/screens/list/measured-columns.js';
import { buildFilter, relativeTime } from '../../src/ui/filter.js';
import { fuzzyFilter } from '../../src/ui/fuzzy.js';
import { toKeys } from '../../src/ui/keys.js';
import { statusTone } from '../../src/text/colour.js';
import { formatCell, relativeAge } from '../../src/ui/values.js';
import { appendPage, prependPage, rowCount } from '../../src/ui/window.js';

const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('keys', () => {
  it('splits keys that arrive in one read and maps control characters', () => {
    expect(toKeys('jj\r', {}).map((k) => (k.name === 'char' ? k.char : k.name))).toEqual(['j', 'j', 'return']);
    expect(toKeys('', { delete: true })[0]?.name).toBe('backspace');
    expect(toKeys('c', { ctrl: true })[0]).toEqual({ name: 'char', char: 'c', ctrl: true });
  });
});

describe('values', () => {
  it('colours status words by meaning and leaves unknown words neutral', () => {
    expect(['failed', 'completed', 'in_progress', 'queued', 'frobnicated'].map(statusTone)).toEqual([
      'bad',
      'good',
      'busy',
      'waiting',
      'neutral',
    ]);
    expect(formatCell('status', 'failed', 10, NOW).tone).toBe('bad');
    expect(formatCell('name', 'failed', 10, NOW).tone).toBe('neutral');
  });
  it('shows ages, bars and marks', () => {
    expect(relativeAge('2026-01-10T09:00:00Z', NOW)).toBe('3h ago');
    expect(formatCell('created', '2026-01-08T12:00:00Z', 10, NOW).text).toBe('2d ago');
    expect(formatCell('progress_percentage', 50, 15, NOW).text).toBe('█████░░░░░  50%');
    expect(formatCell('enabled', false, 3, NOW).text).toBe('✗');
  });
});

describe('columns', () => {
  it('puts identity and status first, keeps nested values last, and takes widths from the data', () => {
    const long = 'a very long note '.repeat(20).trim();
    const records = [
      { note: long, nested: { name: 'n' }, status: 'ok', id: '6f1c2a34-0000-4000-8000-000000000000', size: 3 },
    ];
    const columns = inferColumns(records, NOW);
    expect(columns.map((c) => c.field)).toEqual(['id', 'status', 'size', 'note', 'nested']);
    expect(columns.find((c) => c.field === 'note')?.width).toBe(long.length);
    expect(columns.find((c) => c.field === 'id')?.width).toBe(13);
  });
});

describe('filter builder', () => {
  it('turns relative times into timestamps and builds one JSON object', () => {
    expect(relativeTime('-1d', NOW)).toBe('2026-01-09T12:00:00.000Z');
    expect(relativeTime('2h ago', NOW)).toBe('2026-01-10T10:00:00.000Z');
    // One syntax for relative times everywhere: --since's.
    expect(relativeTime('24h', NOW)).toBe('2026-01-09T12:00:00.000Z');
    expect(relativeTime('yesterday', NOW)).toBe('2026-01-09T00:00:00.000Z');
    expect(relativeTime('failed', NOW)).toBeUndefined();
    const json = buildFilter(
      [
        { field: 'status', operator: '$eq', value: 'failed' },
        { field: 'created', operator: '$gte', value: '-1d' },
        { field: 'n', operator: '$in', value: '1,2' },
      ],
      { status: 'queued', created: '2026-01-01T00:00:00Z', n: 5 },
      NOW,
    );
    expect(JSON.parse(json)).toEqual({
      status: { $eq: 'failed' },
      created: { $gte: '2026-01-09T12:00:00.000Z' },
      n: { $in: [1, 2] },
    });
  });
});

describe('fuzzy', () => {
  it('ranks prefix and contiguous matches first', () => {
    expect(fuzzyFilter('tas', ['audit-trails', 'tasks', 'organizational-units'], (s) => s)[0]).toBe('tasks');
    expect(fuzzyFilter('alerts read', ['alerts list_alerts', 'alerts read_alert'], (s) => s)[0]).toBe(
      'alerts read_alert',
    );
    expect(fuzzyFilter('zz', ['tasks'], (s) => s)).toEqual([]);
  });
});

describe('page window', () => {
  const page = (n: number, size = 10) => ({ items: Array.from({ length: size }, (_, i) => ({ i: n * size + i })) });

  it('keeps at most the cap of records and says how row indexes shift', () => {
    let pages = [page(0)];
    let shift = 0;
    let dropped: { items: { i: number }[] }[] = [];
    for (let n = 1; n < 4; n++) ({ pages, shift, dropped } = appendPage(pages, page(n), rowCount(pages), 30));
    expect(pages.map((p) => p.items[0]?.i)).toEqual([10, 20, 30]);
    expect(shift).toBe(-10);
    expect(dropped.map((p) => p.items[0]?.i)).toEqual([0]);
    ({ pages, shift } = prependPage(pages, page(0), 0, 30));
    expect(pages.map((p) => p.items[0]?.i)).toEqual([0, 10, 20]);
    expect(shift).toBe(10);
  });

  it('holds the same records at any page size, and never drops the page under the cursor', () => {
    for (const size of [5, 10, 25]) {
      let pages = [page(0, size)];
      for (let n = 1; n < 20; n++) ({ pages } = appendPage(pages, page(n, size), rowCount(pages), 50));
      expect(rowCount(pages)).toBe(50);
    }
    // The cursor on the first page's last row: the page stays although the run is over the cap.
    const { pages } = appendPage([page(0, 40)], page(1, 40), 39, 50);
    expect(pages.map((p) => p.items[0]?.i)).toEqual([0, 40]);
  });
});
