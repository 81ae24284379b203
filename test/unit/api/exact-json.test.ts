import { describe, expect, it } from 'vitest';
import { ExactNumber, parseExact, stringifyExact } from '../../../src/api/hal/exact-json.js';

describe('exact JSON numbers', () => {
  it('keeps a number a double would change as its text, and writes it back digit for digit', () => {
    const text = '{"a":12345678901234567891,"b":[1.50,1e400,-0,2.5,10],"c":"1.50 in a string","d":null}';
    const value = parseExact(text) as { a: unknown; b: unknown[] };
    expect(value.a).toBeInstanceOf(ExactNumber);
    expect(value.b[3]).toBe(2.5);
    expect(stringifyExact(value)).toBe(text);
    expect(stringifyExact(value, 2)).toContain('"a": 12345678901234567891');
  });

  it('keeps sixteen digits or more around a decimal point, which a double rounds', () => {
    const text = '{"size":9007199254740.993}';
    expect(stringifyExact(parseExact(text))).toBe(text);
  });

  it('reads what JSON.parse reads, the same way', () => {
    for (const text of ['[]', '{}', ' {"x" : [true,false,null,"q\\"\\u00e9", 2.5] } ', '"s"'])
      expect(parseExact(text)).toEqual(JSON.parse(text));
    expect(stringifyExact(parseExact('{"n":-0.5e1}'))).toBe('{"n":-0.5e1}');
    expect(Object.getPrototypeOf(parseExact('{"__proto__":{"x":10.50}}'))).toBe(Object.prototype);
    expect(() => parseExact('{"a":1.50,}')).toThrow(SyntaxError);
    expect(() => parseExact('[1.50] x')).toThrow(SyntaxError);
  });
});
