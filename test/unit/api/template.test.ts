import { describe, expect, it } from 'vitest';
import { ProtocolError, UsageError } from '../../../src/api/errors.js';
import { appendQuery, expandTemplate, templateVariables } from '../../../src/api/hal/template.js';

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
    expect(expandTemplate('/a/{id}{?limit,start,filter}', { id: 'x/y z', limit: '5', start: undefined, filter: '{"n":1}' }))
      .toBe('/a/x%2Fy%20z?limit=5&filter=%7B%22n%22%3A1%7D');
  });

  it('passes opaque page tokens through unchanged in meaning', () => {
    const url = expandTemplate('/a{?page}', { page: 'eyJvIjoxMH0=' });
    expect(new URL(url, 'http://h').searchParams.get('page')).toBe('eyJvIjoxMH0=');
  });

  it('refuses a template holding a lone surrogate as the server\'s fault, on one line', () => {
    const expand = () => expandTemplate('/a\ud800\n{?limit}', { limit: '5' });
    expect(expand).toThrow(ProtocolError);
    expect(expand).toThrow(/^the server's link template "\/a\\ud800\\n\{\?limit\}" is not valid Unicode/);
  });

  it('refuses a value holding a lone surrogate as the user\'s, naming the variable', () => {
    const expand = () => expandTemplate('/a/{id}', { id: 'x\udc00' });
    expect(expand).toThrow(UsageError);
    expect(expand).toThrow(/"id"/);
  });

  it('refuses a value whose prefix would split a surrogate pair, as usage', () => {
    expect(() => expandTemplate('/a/{id:3}', { id: 'ab😀c' })).toThrow(UsageError);
    expect(expandTemplate('/a/{id:4}', { id: 'ab😀c' })).toBe('/a/ab%F0%9F%98%80');
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
