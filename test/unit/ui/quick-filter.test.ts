// The quick filter remembers its last answer per array of rows and narrows it as letters are typed: it
// must answer as a scan of every row would, whatever is typed, deleted or pasted in between.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordMatches } from '../../../src/ui/screens/list/measured-columns.js';
import { quickFiltered } from '../../../src/ui/screens/list/quick-filter.js';

const state = (localFilter: string) => ({ localFilter, localFilterEditing: true, cursor: 0, top: 0 });

const word = fc.constantFrom('a', 'b', 'A', 'ab', 'Ba', 'İ', 'i', 'é', 'x');
const record = fc.record({
  name: fc.array(word, { maxLength: 4 }).map((parts) => parts.join('')),
  nested: fc.record({ note: fc.array(word, { maxLength: 3 }).map((parts) => parts.join('')) }),
  count: fc.nat({ max: 30 }),
});
/** What is typed over time: a letter more, a letter less, or a new text at once (a paste, Esc then typing). */
const edits = fc.array(
  fc.oneof(
    word.map((w) => ({ add: w })),
    fc.constant({ remove: 1 }),
    word.map((w) => ({ set: w })),
  ),
  {
    maxLength: 12,
  },
);

describe('quickFiltered', () => {
  it('answers as a scan of every row would, after any sequence of edits to the text', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), edits, (rows, steps) => {
        let text = '';
        for (const step of steps) {
          text = 'add' in step ? text + step.add : 'set' in step ? step.set : text.slice(0, -1);
          const expected = text ? rows.filter((row) => recordMatches(row, text)) : rows;
          expect(quickFiltered(rows, state(text))).toEqual(expected);
          // Asked again for the same text: the same rows, not filtered again from the narrowed ones.
          expect(quickFiltered(rows, state(text))).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same array while neither the rows nor the text change', () => {
    const rows = [{ name: 'alpha' }, { name: 'beta' }];
    const first = quickFiltered(rows, state('al'));
    expect(first).toEqual([{ name: 'alpha' }]);
    expect(quickFiltered(rows, state('al'))).toBe(first);
    expect(quickFiltered([...rows], state('al'))).not.toBe(first);
  });
});
