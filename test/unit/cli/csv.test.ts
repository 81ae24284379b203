import { describe, expect, it } from 'vitest';
import { csvLine, csvRow } from '../../../src/cli/format/csv.js';

describe('csv', () => {
  it('quotes per RFC 4180 and ends lines with CRLF when asked (--csv-crlf)', () => {
    expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', 3, true, null], '\r\n')).toBe(
      'plain,"a,b","say ""hi""","two\nlines",3,true,\r\n',
    );
  });

  it('ends lines with LF by default, as Unix tools expect', () => {
    expect(csvLine(['a', 'b'])).toBe('a,b\n');
    expect(csvRow(['id'], { id: 'x' })).toBe('x\n');
  });

  it('writes nested values as JSON and missing ones as empty', () => {
    expect(csvRow(['id', 'meta', 'gone'], { id: 'x', meta: { a: [1, 2] } }, '\r\n')).toBe('x,"{""a"":[1,2]}",\r\n');
  });
});

describe('csv against formula injection (OWASP)', () => {
  it('guards a string cell that starts with =, +, -, @, a tab or a carriage return: a leading quote, the field quoted', () => {
    expect(csvLine(['=HYPERLINK("http://evil")', '+1+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx'], '\r\n')).toBe(
      `"'=HYPERLINK(""http://evil"")","'+1+cmd","'-2+3","'@SUM(A1)","'\tx","'␍x"\r\n`,
    );
  });

  it('leaves numbers as numbers: the JSON number -5 and a string that is only a number', () => {
    expect(csvLine([-5, '-5', '+3.5', '-1e3', 'a-b'], '\r\n')).toBe('-5,-5,+3.5,-1e3,a-b\r\n');
  });

  it('makes escape sequences visible in cells and in the header, keeping line feeds inside quotes', () => {
    expect(csvLine(['\x1b]52;c;eA==\x07', 'a\nb\x9b'], '\r\n')).toBe('␛]52;c;eA==␇,"a\nb\\u009b"\r\n');
  });
});
