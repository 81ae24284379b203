// The one function that makes server and case-file text safe for a terminal, over all of Unicode: any code
// point (astral planes and lone surrogates included), with the characters a terminal obeys mixed in often.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visible } from '../../../src/text/cells.js';
import { jsonString } from '../../../src/cli/format/json.js';
import { anyText } from '../../helpers/any-unicode.js';

const RUNS = 2_000;

/** What a terminal must never receive from a server: C0, DEL, C1, bidi embeddings, overrides and isolates. */
const OBEYED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const isObeyed = (code: number) => OBEYED.test(String.fromCodePoint(code));

const dangerous = fc.oneof(
  fc.integer({ min: 0x00, max: 0x1f }),
  fc.integer({ min: 0x7f, max: 0x9f }),
  fc.constantFrom(0x061c, 0x200e, 0x200f),
  fc.integer({ min: 0x202a, max: 0x202e }),
  fc.integer({ min: 0x2066, max: 0x2069 }),
);
/** Any code point from U+0000 to U+10FFFF, surrogates too, and a dangerous one a third of the time. */
const codePoint = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 0x10ffff }), weight: 2 },
  { arbitrary: dangerous, weight: 1 },
);
const text = fc
  .array(codePoint, { maxLength: 40 })
  .map((codes) => codes.map((code) => String.fromCodePoint(code)).join(''));
/** Known escape sequences whole: OSC 52 (clipboard), OSC 0 (title), CSI, 8-bit CSI, a bidi override. */
const attack = fc.constantFrom(
  '\x1b]52;c;cHduZWQ=\x07',
  '\x1b]0;pwned\x07',
  '\x1b[2J',
  '\x9b31m',
  '\u202e',
  '\u2066',
  '\x1bP+q\x1b\\',
);
const hostile = fc.array(fc.oneof(text, attack), { maxLength: 6 }).map((parts) => parts.join(''));

describe('visible', () => {
  it('leaves no character a terminal obeys, whatever the text', () => {
    fc.assert(
      fc.property(hostile, (input) => {
        expect(visible(input)).not.toMatch(OBEYED);
        expect(visible(input, { lines: true })).not.toMatch(
          /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('changes nothing in text that holds none of them', () => {
    fc.assert(
      fc.property(anyText({ maxLength: 60 }), (input) => {
        fc.pre(!OBEYED.test(input));
        expect(visible(input)).toBe(input);
      }),
      { numRuns: RUNS },
    );
  });

  it('works character by character: the same stand-in wherever a character stands, never empty, one per character', () => {
    fc.assert(
      fc.property(hostile, hostile, (left, right) => {
        expect(visible(left + right)).toBe(visible(left) + visible(right));
      }),
      { numRuns: RUNS },
    );
    const standIns = new Map<string, number>();
    for (let code = 0; code <= 0x206f; code++) {
      if (!isObeyed(code)) continue;
      const shown = visible(String.fromCharCode(code));
      expect(shown).not.toBe('');
      expect(standIns.has(shown)).toBe(false);
      standIns.set(shown, code);
    }
    expect(standIns.size).toBe(32 + 1 + 32 + 3 + 5 + 4);
  });

  it('is idempotent: a stand-in is itself inert', () => {
    fc.assert(
      fc.property(hostile, (input) => {
        expect(visible(visible(input))).toBe(visible(input));
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps line feeds and tabs when asked, and only those', () => {
    fc.assert(
      fc.property(hostile, (input) => {
        const lines = visible(input, { lines: true });
        expect(lines.split('\n').length).toBe(input.split('\n').length);
        expect(lines.replace(/\n/g, '␊').replace(/\t/g, '␉')).toBe(visible(input));
      }),
      { numRuns: RUNS },
    );
  });

  it('shows ESC, BEL, DEL, C1 and a bidi override as readable stand-ins', () => {
    expect(visible('a\x1b]52;c;eA==\x07b')).toBe('a␛]52;c;eA==␇b');
    expect(visible('\x7f\x9b\u202e\u2069')).toBe('␡\\u009b\\u202e\\u2069');
  });
});

describe('JSON as printed', () => {
  it('is the exact data, with nothing a terminal obeys', () => {
    fc.assert(
      fc.property(fc.dictionary(hostile, hostile, { maxKeys: 4 }), fc.constantFrom(undefined, 2), (record, indent) => {
        const printed = jsonString(record, indent);
        // Indented JSON has line feeds of its own; nothing else a terminal obeys.
        expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        expect(JSON.parse(printed)).toEqual(record);
      }),
      { numRuns: RUNS },
    );
  });
});
