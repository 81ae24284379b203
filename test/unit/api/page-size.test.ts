import { describe, expect, it } from 'vitest';
import { largestInRange } from '../../../src/api/session/page-size.js';

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
