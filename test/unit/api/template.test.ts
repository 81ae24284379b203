import { visible } from '../../../src/api/visible.js';
import { describe, expect, it } from 'vitest';
import { ProtocolError, UsageError } from '../../../src/api/errors.js';
import {
  appendQuery,
  expandTemplate,
  expandWith,
  templateProblem,
  templateVariables,
} from '../../../src/api/hal/template.js';

describe('templateVariables', () => {
  it('splits path variables from query variables', () => {
    expect(templateVariables('/things/{thing_id}/parts{?limit,start,filter}')).toEqual({
      path: ['thing_id'],
      query: ['limit', 'start', 'filter'],
    });
  });

  it('reads continuation, reserved and modified expressions', () => {
    expect(templateVariables('{+base}/a/{id:3}{?q}{&page_size,page*}')).toEqual({
      path: ['base', 'id'],
      query: ['q', 'page_size', 'page'],
    });
  });

  it('finds nothing in a plain path', () => {
    expect(templateVariables('/plain/path?x=1')).toEqual({ path: [], query: [] });
  });
});

describe('expandTemplate', () => {
  it('encodes path values and leaves out undefined query values', () => {
    expect(
      expandTemplate('/a/{id}{?limit,start,filter}', { id: 'x/y z', limit: '5', start: undefined, filter: '{"n":1}' }),
    ).toBe('/a/x%2Fy%20z?limit=5&filter=%7B%22n%22%3A1%7D');
  });

  it('passes opaque page tokens through unchanged in meaning', () => {
    const url = expandTemplate('/a{?page}', { page: 'eyJvIjoxMH0=' });
    expect(new URL(url, 'http://h').searchParams.get('page')).toBe('eyJvIjoxMH0=');
  });

  it("refuses a template holding a lone surrogate as the server's fault, on one line", () => {
    const expand = () => expandTemplate('/a\ud800\n{?limit}', { limit: '5' }, 'the link "next"');
    expect(expand).toThrow(ProtocolError);
    expect(expand).toThrow(
      /^the link "next" is not a valid URI template: it is not valid Unicode \(it holds a lone surrogate\): "\/a\\ud800\\n\{\?limit\}"$/,
    );
  });

  it("refuses a value holding a lone surrogate as the user's, naming the variable", () => {
    const expand = () => expandTemplate('/a/{id}', { id: 'x\udc00' });
    expect(expand).toThrow(UsageError);
    expect(expand).toThrow(/"id"/);
  });

  it('cuts a prefix by characters, so never inside one', () => {
    expect(expandTemplate('/a/{id:3}', { id: 'ab😀c' })).toBe('/a/ab%F0%9F%98%80');
    expect(expandTemplate('/a/{id:4}', { id: 'ab😀c' })).toBe('/a/ab%F0%9F%98%80c');
  });

  it('expands a value with a whole surrogate pair', () => {
    expect(expandTemplate('/a/{id}', { id: '😀' })).toBe('/a/%F0%9F%98%80');
  });
});

describe('appendQuery', () => {
  it('adds a query string to a plain path', () => {
    expect(appendQuery('/a', { limit: '10', start: '2', filter: undefined })).toBe('/a?limit=10&start=2');
  });

  it('extends an existing query and keeps the fragment', () => {
    expect(appendQuery('/a?x=1#f', { y: '2' })).toBe('/a?x=1&y=2#f');
  });

  it('returns the href as it was when there is nothing to add', () => {
    expect(appendQuery('/a?x=1', {})).toBe('/a?x=1');
  });
});

// Cases written from RFC 6570's text, each rule where url-template (dpx's library before) went wrong or
// where the suite has no example of its own.
describe('expansion by RFC 6570', () => {
  it('keeps a % in reserved expansion only where it starts a percent-encoded octet (§3.2.3, §1.6)', () => {
    expect(expandWith('{+v}', { v: '50%' })).toBe('50%25');
    expect(expandWith('{+v}', { v: '100%25' })).toBe('100%25');
    expect(expandWith('{+v}', { v: '%zz/%2F' })).toBe('%25zz/%2F');
    expect(expandWith('{#v}', { v: 'a%2Fb c' })).toBe('#a%2Fb%20c');
    // Simple expansion encodes every %, a percent-encoded octet's too.
    expect(expandWith('{v}', { v: '100%25' })).toBe('100%2525');
  });

  it('counts a prefix in characters, not UTF-16 units (§2.4.1: "the first max-length characters")', () => {
    expect(expandWith('{v:1}', { v: '𝄞x' })).toBe('%F0%9D%84%9E');
    expect(expandWith('{v:2}', { v: 'é😀z' })).toBe('%C3%A9%F0%9F%98%80');
    expect(expandWith('{?v:3}', { v: 'abcdef' })).toBe('?v=abc');
    expect(expandWith('{v:9999}', { v: 'short' })).toBe('short');
  });

  it('keeps a percent-encoded variable name as it is written (§2.3)', () => {
    expect(expandWith('/lookup{?Stra%C3%9Fe}', { 'Stra%C3%9Fe': 'Grüner Weg' })).toBe(
      '/lookup?Stra%C3%9Fe=Gr%C3%BCner%20Weg',
    );
    expect(templateVariables('/lookup{?Stra%C3%9Fe}')).toEqual({ path: [], query: ['Stra%C3%9Fe'] });
  });

  it('gives an empty value its operator, and leaves out undefined and null ones (§3.2.1)', () => {
    expect(expandWith('X{.e}', { e: '' })).toBe('X.');
    expect(expandWith('X{#e}', { e: '' })).toBe('X#');
    expect(expandWith('X{/e}', { e: '' })).toBe('X/');
    expect(expandWith('X{;e}', { e: '' })).toBe('X;e');
    expect(expandWith('X{?e}', { e: '' })).toBe('X?e=');
    expect(expandWith('X{?a,u,n,b}', { a: '1', n: null, b: '2' })).toBe('X?a=1&b=2');
    expect(expandWith('X{.u}{/n}', { n: null })).toBe('X');
  });

  it('percent-encodes a literal character outside ASCII, and keeps a literal percent-encoded octet', () => {
    expect(expandWith('/café/{v}', { v: 'x' })).toBe('/caf%C3%A9/x');
    expect(expandWith('/a%20b/{v}', { v: 'x' })).toBe('/a%20b/x');
  });

  it('expands lists and maps, exploded or not (§2.4.2)', () => {
    expect(expandWith('{/list*}', { list: ['a', 'b'] })).toBe('/a/b');
    expect(expandWith('{?keys*}', { keys: { x: '1', y: 'a b' } })).toBe('?x=1&y=a%20b');
    expect(expandWith('{?list}', { list: ['a', 'b'] })).toBe('?list=a,b');
  });

  it("looks a variable up only among the values given, never on Object's prototype", () => {
    expect(expandTemplate('/a/{constructor}{?toString}', {})).toBe('/a/');
    expect(expandTemplate('/a/{constructor}', { constructor: 'c' })).toBe('/a/c');
  });
});

describe('a malformed template from the server', () => {
  // Our own, beside the uritemplate-test suite's 36 (template-suite.test.ts): each with the reason given.
  const malformed: [string, RegExp][] = [
    ['/things/{id', /the expression opened at character 9 is never closed/],
    ['/things/id}', /a "}" at character 11 closes no expression/],
    ['/things/{a{b}}', /a "\{" at character 11 opens an expression inside the one opened at character 9/],
    ['/things{!id}', /illegal character identified in the token at character 9/],
    ['/things{=id}', /illegal character/],
    ['/things{@id}', /the expression at character 8 names a variable RFC 6570 does not allow/],
    ['/things/{a(b)}', /names a variable RFC 6570 does not allow/],
    ["/things/{a,b'}", /names a variable RFC 6570 does not allow/],
    ['/things/{my id}', /illegal character/],
    ['/things/{a-b}', /illegal character/],
    ['/things/{%zz}', /invalid variable name/],
    ['/things/{a..b}', /invalid variable name/],
    ['/things/{}', /./],
    ['/things/{,}', /./],
    ['/things/{id:0}', /cannot parse max chars/],
    ['/things/{id:10000}', /cannot parse max chars/],
    ['/things/{id:}', /empty prefix/],
    ['/things/{id:3*}', /illegal character/],
    ['/a b/{id}', /U\+0020 at character 3 cannot stand in a template unless percent-encoded/],
    ['/100%/{id}', /"%" at character 5 cannot stand/],
    ['/a|b/{id}', /"\|" at character 3/],
    ['/a"b"/{id}', /"\\"" at character 3/],
    ['/a\u0007/{id}', /U\+0007 at character 3/],
    ['/a\u0085/{id}', /U\+0085 at character 3/],
  ];

  it.each(malformed)('refuses %j with the reason, naming the link it came in', (href, reason) => {
    expect(templateProblem(href)).toMatch(reason);
    let thrown: unknown;
    try {
      expandTemplate(href, { id: '1' }, 'the link "parent"');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect((thrown as ProtocolError).exitCode).toBe(3);
    expect((thrown as ProtocolError).message).toMatch(/^the link "parent" is not a valid URI template: /);
    expect((thrown as ProtocolError).message).toMatch(reason);
    // The template as JSON, made inert for a terminal as every message is (a C1 control as `\u0085`).
    expect((thrown as ProtocolError).message).toContain(visible(JSON.stringify(href)));
  });

  it('accepts what the grammar allows: an apostrophe, a sub-delimiter, a pct-encoded octet, ucschar', () => {
    for (const href of [
      "/it's/{id}",
      '/a;b=c,d!/{id}',
      '/a%2Fb/{id}',
      '/é/{id}',
      '/{+id}{#f}{.x}{/p*}{;m}{?q}{&r}',
      '{a.b,c_d,E9}',
    ]) {
      expect(templateProblem(href), href).toBeUndefined();
    }
  });

  it('refuses a prefix of a list, which the template cannot take, as a usage error', () => {
    expect(() => expandWith('{keys:1}', { keys: ['a'] }, 'the link "x"')).toThrow(UsageError);
  });
});
