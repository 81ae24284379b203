// How a screen fits its lines (src/ui/layout.ts) and how text is broken into lines of a width
// (wrapLines): the pieces every screen plans its body with.
import { describe, expect, it } from 'vitest';
import { cellWidth, wrapLines } from '../../src/text/cells.js';
import { share, windowOf, windowText } from '../../src/ui/layout.js';

describe('share', () => {
  it('gives each part its least in order, then more in the order asked', () => {
    const parts = [
      { least: 1, most: 1 },
      { least: 2, most: 10 },
      { least: 1, most: 3 },
    ];
    expect(share(20, parts)).toEqual([1, 10, 3]);
    expect(share(8, parts)).toEqual([1, 6, 1]);
    expect(share(8, parts, [0, 2, 1])).toEqual([1, 4, 3]);
  });

  it("gives the first parts their least when there is not room for every part's", () => {
    expect(
      share(2, [
        { least: 1, most: 1 },
        { least: 2, most: 4 },
        { least: 1, most: 1 },
      ]),
    ).toEqual([1, 1, 0]);
    expect(share(0, [{ least: 1, most: 1 }])).toEqual([0]);
  });
});

describe('windowOf', () => {
  const ones = (n: number) => Array.from({ length: n }, () => 1);

  it('shows everything that fits', () => {
    expect(windowOf(ones(5), 4, 10)).toEqual({ top: 0, end: 5 });
  });

  it('keeps the window while the focus is in it, and moves it a row at a time as the focus leaves it', () => {
    expect(windowOf(ones(14), 0, 6)).toEqual({ top: 0, end: 6 });
    expect(windowOf(ones(14), 5, 6, 0)).toEqual({ top: 0, end: 6 });
    expect(windowOf(ones(14), 6, 6, 0)).toEqual({ top: 1, end: 7 });
    expect(windowOf(ones(14), 13, 6, 1)).toEqual({ top: 8, end: 14 });
    expect(windowOf(ones(14), 8, 6, 8)).toEqual({ top: 8, end: 14 });
    expect(windowOf(ones(14), 7, 6, 8)).toEqual({ top: 7, end: 13 });
  });

  it('never ends short while rows above are hidden (after the room grew)', () => {
    expect(windowOf(ones(14), 13, 10, 8)).toEqual({ top: 4, end: 14 });
  });

  it("counts each row's lines, and shows a row taller than the room alone", () => {
    const heights = [1, 1, 1, 7, 1];
    expect(windowOf(heights, 3, 8, 0)).toEqual({ top: 2, end: 4 });
    expect(windowOf(heights, 4, 8, 2)).toEqual({ top: 3, end: 5 });
    expect(windowOf([1, 12, 1], 1, 5, 0)).toEqual({ top: 1, end: 2 });
  });
});

describe('windowText', () => {
  it('says which rows of how many, and how many are above and below', () => {
    expect(windowText('fields', { top: 3, end: 9 }, 14)).toBe('fields 4–9 of 14 · ↑3 ↓5 more');
    expect(windowText('fields', { top: 0, end: 9 }, 14)).toBe('fields 1–9 of 14 · ↓5 more');
    expect(windowText('fields', { top: 5, end: 14 }, 14)).toBe('fields 6–14 of 14 · ↑5 more');
  });
});

describe('wrapLines', () => {
  it('breaks between words, each line at most the width', () => {
    const lines = wrapLines(
      'read-only mode: POST changes data and was not sent — W turns writes on here (typed confirmation)',
      30,
    );
    expect(lines).toEqual([
      'read-only mode: POST changes',
      'data and was not sent — W',
      'turns writes on here (typed',
      'confirmation)',
    ]);
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(30);
  });

  it('gives at most `most` lines, the last marked when text is left', () => {
    expect(wrapLines('one two three four five six', 9, 2)).toEqual(['one two', 'three …']);
    expect(wrapLines('one two three four five six', 9, 1)).toEqual(['one two …']);
  });

  it('cuts a word wider than a line, or with `hard` breaks it over lines, losing nothing', () => {
    expect(wrapLines('--data-raw {"backup_id":"d122e72b-1f35"}', 12)).toEqual(['--data-raw', '{"backup_id…']);
    const hard = wrapLines('--data-raw {"backup_id":"d122e72b-1f35"}', 12, Infinity, { hard: true });
    expect(hard).toEqual(['--data-raw', '{"backup_id"', ':"d122e72b-1', 'f35"}']);
    expect(hard.slice(1).join('')).toBe('{"backup_id":"d122e72b-1f35"}');
  });

  it('keeps line breaks, measures wide characters in cells, and makes controls visible', () => {
    expect(wrapLines('a\nb', 10)).toEqual(['a', 'b']);
    expect(wrapLines('日本語 日本語', 7)).toEqual(['日本語', '日本語']);
    expect(wrapLines('bell\x07 here', 20)[0]).not.toContain('\x07');
  });
});
