import { describe, expect, it } from 'vitest';
import { largestInRange, refusalAbout } from '../../../src/api/session/page-size.js';

describe('largestInRange', () => {
  it('reads the upper bound of the ways servers name a page-size range', () => {
    expect(largestInRange('limit must be a whole number from 1 to 100, got "1000"')).toBe(100);
    expect(largestInRange('page_size must be between 1 and 500')).toBe(500);
    expect(largestInRange('per_page: at most 200 items')).toBe(200);
    expect(largestInRange('size maximum is 50')).toBe(50);
    expect(largestInRange('size must be <= 250')).toBe(250);
    expect(largestInRange('limit must not exceed 75')).toBe(75);
  });

  it('gives nothing where no bound is named', () => {
    expect(largestInRange('invalid filter on field 2')).toBeUndefined();
    expect(largestInRange('bad request')).toBeUndefined();
  });
});

describe('refusalAbout', () => {
  it("a refusal that names the page size, by its words or the list's own parameter", () => {
    expect(
      refusalAbout(
        '400 Bad Request: [invalid_page_size] limit must be a whole number from 1 to 100, got "1000"',
        'limit',
      ),
    ).toBe('page size');
    expect(refusalAbout('400: per_page is too large', 'per_page')).toBe('page size');
    expect(refusalAbout('400: size must be 500 or less', 'size')).toBe('page size');
  });

  it("a refusal of the filter or the unit is the list's own answer, not the page size's", () => {
    expect(refusalAbout("400 Bad Request: [invalid_filter] Filter $in on field 'status' needs an array", 'limit')).toBe(
      'other',
    );
    expect(
      refusalAbout('400: [invalid_organizational_unit] The header must be one organizational-unit UUID', 'limit'),
    ).toBe('other');
    // A parameter named like a word of the message only counts as a whole word.
    expect(refusalAbout('400: resize the filter', 'size')).toBe('other');
  });

  it('a refusal that says nothing of what it refused', () => {
    expect(refusalAbout('400 Bad Request', 'limit')).toBe('unknown');
  });
});
