// The bundle replaces three of ink's per-frame functions with faster ones (scripts/bundle-shims.mjs). Each
// must give the original's answer for any text, and the build must refuse a dependency that changed.
import * as tokenizer from '@alcalzone/ansi-tokenize';
import fc from 'fast-check';
import { eastAsianWidth } from 'get-east-asian-width';
import stringWidth from 'string-width';
// ink's own string-width, version 8: the one the explorer's frames are measured with.
import stringWidth8 from '../../../node_modules/ink/node_modules/string-width/index.js';
// ink's own Output, whose `get` the bundle replaces by one that remembers rows.
import Output from '../../../node_modules/ink/build/output.js';
import sliceAnsi from 'slice-ansi';
import { describe, expect, it } from 'vitest';
import { inksOwnGet } from '../../helpers/shipped-renderer.js';
// @ts-expect-error: a plain ES module of the build, without type declarations
import { fastStringWidth, memoisedTokenizer, missingExports, rowMemoisedGet } from '../../../scripts/bundle-shims.mjs';

/** Text as ink draws it: words of any script, emoji, box drawing, with colour, bold, inverse and reset codes between them. */
const STYLES = [
  '\x1b[31m',
  '\x1b[32m',
  '\x1b[1m',
  '\x1b[7m',
  '\x1b[22m',
  '\x1b[39m',
  '\x1b[27m',
  '\x1b[0m',
  '\x1b[38;5;208m',
  '\x1b[48;2;10;20;30m',
];
const pieces = fc.oneof(
  fc.constantFrom(...STYLES),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('日本', '█░', '→ ', '› ', '✓', '👩‍💻', 'é', 'a\u0301', '┌─┐', ' '),
);
const styledText = fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join(''));

describe('bundle shims', () => {
  it('styledCharsToString gives the original text for any styled text', () => {
    const fast = memoisedTokenizer(tokenizer);
    fc.assert(
      fc.property(styledText, (text) => {
        const chars = tokenizer.styledCharsFromTokens(tokenizer.tokenize(text));
        expect(fast.styledCharsToString(chars)).toBe(tokenizer.styledCharsToString(chars));
      }),
      { numRuns: 2000 },
    );
  });

  it('the memoised tokenizer gives the same characters as the original, asked once or twice', () => {
    const fast = memoisedTokenizer(tokenizer);
    fc.assert(
      fc.property(styledText, (text) => {
        const expected = tokenizer.styledCharsFromTokens(tokenizer.tokenize(text));
        expect(fast.styledCharsFromTokens(fast.tokenize(text))).toEqual(expected);
        expect(fast.styledCharsFromTokens(fast.tokenize(text))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('gives one object for a character in a style, wherever it appears', () => {
    const fast = memoisedTokenizer(tokenizer);
    const charsOf = (text: string) => fast.styledCharsFromTokens(fast.tokenize(text));
    const [first] = charsOf('\x1b[1mab\x1b[22m');
    const [again] = charsOf('x\x1b[31m\x1b[1mb\x1b[39ma\x1b[22m').slice(2);
    expect(first).toEqual({
      type: 'char',
      value: 'a',
      fullWidth: false,
      styles: [expect.objectContaining({ code: '\x1b[1m' })],
    });
    expect(again).toBe(first);
  });

  it('fastStringWidth measures like string-width', () => {
    const fast = fastStringWidth(stringWidth);
    fc.assert(
      fc.property(styledText, (text) => {
        expect(fast(text)).toBe(stringWidth(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('measures each code point as string-width 8 does without asking it, given the East Asian width', () => {
    const fast = fastStringWidth(stringWidth8, eastAsianWidth);
    for (let codePoint = 0x20; codePoint <= 0xffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const text = String.fromCharCode(codePoint);
      expect(fast(text), `U+${codePoint.toString(16)}`).toBe(stringWidth8(text));
    }
    fc.assert(
      fc.property(styledText, (text) => {
        expect(fast(text)).toBe(stringWidth8(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("ink's Output gives the same frame with rows remembered, frame after frame", () => {
    const get = rowMemoisedGet({ sliceAnsi, styledCharsToString: tokenizer.styledCharsToString });
    const clip = fc.record({
      x1: fc.option(fc.integer({ min: -2, max: 14 }), { nil: undefined }),
      x2: fc.option(fc.integer({ min: -2, max: 14 }), { nil: undefined }),
      y1: fc.option(fc.integer({ min: -2, max: 6 }), { nil: undefined }),
      y2: fc.option(fc.integer({ min: -2, max: 6 }), { nil: undefined }),
    });
    const text = fc.array(styledText, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
    const upper = (line: string, index: number) => (index === 1 ? line.toUpperCase() : line);
    const operation = fc.oneof(
      fc.record({
        type: fc.constant('write'),
        x: fc.integer({ min: -2, max: 14 }),
        y: fc.integer({ min: -2, max: 6 }),
        text,
        upper: fc.boolean(),
      }),
      fc.record({ type: fc.constant('clip'), clip }),
      fc.record({ type: fc.constant('unclip') }),
    );
    // Frames drawn one after another share the remembered rows, as the explorer's do.
    const frames = fc.array(
      fc.record({
        width: fc.integer({ min: 0, max: 12 }),
        height: fc.integer({ min: 0, max: 5 }),
        operations: fc.array(operation, { maxLength: 8 }),
      }),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(frames, (list) => {
        for (const { width, height, operations } of [...list, ...list]) {
          // test/setup.ts gave every Output the bundle's get (test/helpers/shipped-renderer.ts): this one draws with ink's own.
          const original = new Output({ width, height });
          original.get = inksOwnGet;
          const remembered = new Output({ width, height });
          remembered.get = get;
          for (const output of [original, remembered]) {
            for (const op of operations) {
              if (op.type === 'write') output.write(op.x, op.y, op.text, { transformers: op.upper ? [upper] : [] });
              else if (op.type === 'clip') output.clip(op.clip);
              else output.unclip();
            }
          }
          expect(remembered.get()).toEqual(original.get());
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('names what a changed dependency no longer exports, so the build fails', () => {
    expect(missingExports('@alcalzone/ansi-tokenize', tokenizer)).toEqual([]);
    expect(missingExports('string-width', { default: stringWidth })).toEqual([]);
    const { diffAnsiCodes: _gone, ...changed } = tokenizer;
    expect(missingExports('@alcalzone/ansi-tokenize', changed)).toEqual(['diffAnsiCodes']);
  });
});
