import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { planTable, renderTable } from '../../../src/cli/format/table.js';
import { truncate } from '../../../src/text/cells.js';

const order = (records: Record<string, unknown>[]) =>
  planTable(records, Infinity).columns.map((column) => column.field);

describe('column order', () => {
  it('puts the id and a name first, then status-like fields, short values, long values, nested values, and never _links', () => {
    const records = [
      {
        note: 'x'.repeat(30),
        size: 3,
        meta: { a: 1 },
        full_name: 'Ann',
        status: 'ok',
        _links: { self: { href: '/x' } },
        id: 'r1',
        tags: ['a'],
        email: 'a@b',
      },
    ];
    expect(order(records)).toEqual(['id', 'full_name', 'status', 'size', 'email', 'note', 'meta', 'tags']);
  });

  it('includes a field that only a later record has', () => {
    expect(order([{ id: 1 }, { id: 2, extra: 'x' }])).toEqual(['id', 'extra']);
  });

  it('keeps an order asked for as it is', () => {
    expect(
      planTable([{ name: 'a', id: 'b', email: 'c' }], Infinity, ['email', 'name', 'id']).columns.map(
        (column) => column.field,
      ),
    ).toEqual(['email', 'name', 'id']);
  });
});

describe('truncate', () => {
  it('cuts by terminal cells and marks the cut', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 3)).toBe('abc');
    const wide = truncate('日本語テキスト', 5);
    expect(wide.endsWith('…')).toBe(true);
    expect(stringWidth(wide)).toBeLessThanOrEqual(5);
  });
});

describe('planTable / renderTable', () => {
  const records = Array.from({ length: 5 }, (_, i) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    status: i % 2 ? 'completed' : 'in_progress',
    description: 'a rather long description that goes on and on and on and on and on and on and on',
    progress: i * 10,
  }));

  it('never draws a line wider than the width, and marks cut cells', () => {
    for (const width of [30, 60, 80, 120]) {
      const { text } = renderTable(records, width);
      const lines = text.trimEnd().split('\n');
      expect(lines).toHaveLength(6);
      for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    }
    expect(renderTable(records, 80).text).toContain('…');
  });

  it('hides the columns that do not fit and names them', () => {
    const layout = planTable(records, 50);
    expect(layout.columns.map((column) => column.field)).toEqual(['id', 'status']);
    expect(layout.hidden).toEqual(['progress', 'description']);
  });

  it('gives every cell its full text when there is room', () => {
    const { text } = renderTable(records, Infinity);
    expect(text).not.toContain('…');
    expect(text).toContain(records[0]!.description);
  });

  it('right-aligns numeric columns and keeps the grid aligned', () => {
    const { text } = renderTable(
      [
        { id: 'a', n: 5 },
        { id: 'bb', n: 1234 },
      ],
      80,
    );
    expect(text).toBe('id     n\na      5\nbb  1234\n');
  });

  it('keeps tables one line per record even when values hold newlines', () => {
    const { text } = renderTable([{ id: 'x', note: 'two\nlines' }], 80);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
  });
});

describe('a very narrow width', () => {
  it('still shows the first column, cut to the width', () => {
    const { text, layout } = renderTable([{ id: 'abcdefghijklmnop', other: 'x' }], 5);
    expect(layout.columns.map((column) => column.field)).toEqual(['id']);
    expect(layout.hidden).toEqual(['other']);
    expect(text).toBe('id\nabcd…\n');
  });
});
