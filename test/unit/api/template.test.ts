import { describe, expect, it } from 'vitest';
import { appendQuery, expandTemplate, templateVariables } from '../../../src/api/template.js';

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
