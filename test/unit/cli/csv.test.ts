import { describe, expect, it } from 'vitest';
import { csvLine, csvRow } from '../../../src/cli/format/csv.js';

describe('csv', () => {
  it('quotes per RFC 4180 and ends lines with CRLF', () => {
    expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', 3, true, null])).toBe('plain,"a,b","say ""hi""","two\nlines",3,true,\r\n');
  });

  it('writes nested values as JSON and missing ones as empty', () => {
    expect(csvRow(['id', 'meta', 'gone'], { id: 'x', meta: { a: [1, 2] } })).toBe('x,"{""a"":[1,2]}",\r\n');
  });
});
