import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../../src/api/wire/response.js';

const objects = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

describe('nestsDeeperThan', () => {
  it('counts objects and arrays alike, a scalar as depth 0', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 4)).toBe(false);
  });

  it('finds the deepest branch wherever it sits', () => {
    const body = { items: [{ shallow: 1 }, { x: { y: { z: [] } } }], tail: 'x' };
    expect(nestsDeeperThan(body, 5)).toBe(true);
    expect(nestsDeeperThan(body, 6)).toBe(false);
  });

  it('checks 100,000 levels without overflowing the stack', () => {
    expect(nestsDeeperThan(objects(100_000), 256)).toBe(true);
    expect(nestsDeeperThan(objects(256), 256)).toBe(false);
    expect(nestsDeeperThan(objects(257), 256)).toBe(true);
  });
});
