import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/api/fanout/plan.js';

describe('seededRandom', () => {
  it('gives the same numbers for the same seed, others for another, all in [0, 1)', () => {
    const take = (seed: number) => {
      const next = seededRandom(seed);
      return Array.from({ length: 50 }, () => next());
    };
    const first = take(1_795_000_000_000);
    expect(take(1_795_000_000_000)).toEqual(first);
    expect(take(1_795_000_000_001)).not.toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
    expect(new Set(first).size).toBe(first.length);
  });
});
