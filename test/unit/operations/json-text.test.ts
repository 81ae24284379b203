import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonText } from '../../../src/api/operations/json-text.js';

describe('parseJsonText', () => {
  it('parses valid JSON', () => {
    expect(parseJsonText('{"a": [1, true, null]}')).toEqual({ ok: true, value: { a: [1, true, null] } });
  });

  it.each([
    ['{\n  "a": 1,\n}', 3, 1, 'no trailing comma'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, 'expected "," or "}"'],
    ["{'a': 1}", 1, 2, 'double quotes'],
    ['[1, 2', 1, 6, 'unexpected end of input'],
    ['{"a": tru}', 1, 10, 'expected "true"'],
    ['', 1, 1, 'expected a value'],
    ['{"a": 1} x', 1, 10, 'expected end of input'],
    ['{"a": "x\ny"}', 1, 9, 'control character'],
    ['{"a" 1}', 1, 6, 'expected ":"'],
    ['[1,]', 1, 4, 'no trailing comma'],
    ['[1 2]', 1, 4, 'expected "," or "]"'],
    ['"\\x"', 1, 3, 'bad escape "\\\\x"'],
    ['"\\u12"', 1, 3, 'bad \\u escape'],
    ['{"a": nul', 1, 10, 'unexpected end of input, expected "null"'],
    ['{"a": "b', 1, 9, 'unterminated string'],
    ['{"a": [}', 1, 8, 'unexpected "}", expected a value'],
    ['{"a": -}', 1, 7, 'unexpected "-", expected a value'],
    ['{\n  "list": [\n    1,\n    2\n  ],\n  "b": fals\n}', 6, 12, 'unexpected "\\n", expected "false"'],
  ])('locates the error in %j at line %i column %i', (text, line, column, words) => {
    const result = parseJsonText(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect([result.line, result.column]).toEqual([line, column]);
    expect(result.message).toContain(words);
    expect(result.message).toContain(`line ${line}, column ${column}`);
  });

  it('accepts exactly what JSON.parse accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(parseJsonText(text).ok).toBe(valid);
      }),
      { numRuns: 300 },
    );
  });
});
