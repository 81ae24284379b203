import { describe, expect, it } from 'vitest';
import { DEFAULT_CEILING, RateControl, START_RATE } from '../../../src/api/wire/rate-control.js';
import { readRateLimit } from '../../../src/api/wire/rate-headers.js';

describe('readRateLimit', () => {
  it("reads the IETF draft's structured form, its dictionary form and its separate headers", () => {
    expect(readRateLimit({ 'ratelimit-policy': '"default";q=100;w=60', ratelimit: '"default";r=42;t=30' })).toEqual({
      ratePerSecond: 100 / 60,
      remaining: 42,
      resetMs: 30_000,
    });
    expect(readRateLimit({ 'ratelimit-policy': '10;w=1', ratelimit: 'limit=10, remaining=3, reset=1' })).toEqual({
      ratePerSecond: 10,
      remaining: 3,
      resetMs: 1000,
    });
    expect(readRateLimit({ 'ratelimit-limit': '10', 'ratelimit-remaining': '0', 'ratelimit-reset': '2' })).toEqual({
      remaining: 0,
      resetMs: 2000,
    });
  });

  it('reads X-RateLimit-*, with a reset given as an epoch second', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    expect(
      readRateLimit(
        { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 90) },
        now,
      ),
    ).toEqual({ remaining: 0, resetMs: 90_000 });
    expect(readRateLimit({ 'content-type': 'application/json' })).toBeUndefined();
    expect(readRateLimit({ 'x-ratelimit-remaining': 'lots' })).toBeUndefined();
  });
});

const ok = (latencyMs = 10, headers: Record<string, string> = {}) => ({ status: 200, latencyMs, headers });

describe('RateControl', () => {
  it('without a rate starts low and doubles while answers stay fast, up to the default ceiling', () => {
    const control = new RateControl(undefined, 0);
    expect(control.rate).toBe(START_RATE);
    control.observe(ok(), 100);
    expect(control.rate).toBe(START_RATE);
    control.observe(ok(), 260);
    expect(control.rate).toBe(START_RATE * 2);
    for (let at = 500; at < 5_000; at += 250) control.observe(ok(), at);
    expect(control.rate).toBe(DEFAULT_CEILING);
    expect(control.even).toBe(false);
  });

  it('halves at a 429, then grows by steps, and spaces requests evenly from then on', () => {
    const control = new RateControl(undefined, 0);
    control.observe(ok(), 300);
    control.observe({ status: 429, latencyMs: 5, headers: {} }, 310);
    expect(control.rate).toBe(START_RATE);
    expect(control.even).toBe(true);
    control.observe(ok(), 600);
    expect(control.rate).toBe(START_RATE + 5);
  });

  it('holds the rate while answers are slow', () => {
    const control = new RateControl(undefined, 0);
    control.observe(ok(10), 100);
    control.observe(ok(900), 300);
    expect(control.rate).toBe(START_RATE);
    control.observe(ok(900), 600);
    expect(control.rate).toBe(START_RATE);
  });

  it("keeps under what the server declares, with a margin, and under the user's rate", () => {
    const declared = new RateControl(100, 0);
    declared.observe(ok(10, { 'ratelimit-policy': '"default";q=10;w=1' }), 50);
    expect(declared.rate).toBe(9);
    expect(declared.even).toBe(true);
    const given = new RateControl(4, 0);
    for (let at = 300; at < 3_000; at += 300) given.observe(ok(), at);
    expect(given.rate).toBe(4);
  });

  it('asks for a pause until the window resets when the server says none is left', () => {
    const control = new RateControl(undefined, 0);
    expect(control.observe(ok(10, { ratelimit: '"default";r=0;t=2' }), 10)).toBe(2000);
    expect(control.observe(ok(10, { ratelimit: '"default";r=1;t=2' }), 20)).toBeUndefined();
  });
});
