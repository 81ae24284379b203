import { describe, expect, it } from 'vitest';
import { inWindow, parseWhen, readWindow, timeFieldFor, windowFilter } from '../../../src/api/hal/time-window.js';

const NOW = new Date('2026-11-25T16:30:00Z');

describe('parseWhen', () => {
  it('reads durations back from now, with or without a leading minus', () => {
    expect(parseWhen('90m', NOW).toISOString()).toBe('2026-11-25T15:00:00.000Z');
    expect(parseWhen('24h', NOW).toISOString()).toBe('2026-11-24T16:30:00.000Z');
    expect(parseWhen('-1d', NOW)).toEqual(parseWhen('1d', NOW));
    expect(parseWhen('2w', NOW).toISOString()).toBe('2026-11-11T16:30:00.000Z');
  });

  it('reads today, yesterday and ISO 8601 dates and times in UTC', () => {
    expect(parseWhen('today', NOW).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(parseWhen('Yesterday', NOW).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(parseWhen('2026-11-20', NOW).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(parseWhen('2026-11-20T08:15:00+01:00', NOW).toISOString()).toBe('2026-11-20T07:15:00.000Z');
  });

  it('refuses what it cannot read, and an empty window, naming the option', () => {
    expect(() => parseWhen('last tuesday', NOW, '--until')).toThrow(/--until does not read 'last tuesday'/);
    expect(() => readWindow('today', 'yesterday', NOW)).toThrow(/the window is empty/);
    expect(readWindow(undefined, undefined, NOW)).toBeUndefined();
  });
});

describe('timeFieldFor', () => {
  it('takes the creation time among the date-time fields a schema declares', () => {
    expect(timeFieldFor('tasks', 'v1')).toBe('created_timestamp');
    expect(timeFieldFor('audit-trails', 'v1')).toBe('timestamp');
  });

  it('without a schema, reads which fields of a record hold timestamps', () => {
    expect(
      timeFieldFor('unknown', 'v1', {
        id: 'a',
        closed_at: '2026-01-02T00:00:00Z',
        opened: '2026-01-01T00:00:00Z',
        note: 'x',
      }),
    ).toBe('closed_at');
    expect(
      timeFieldFor('unknown', 'v1', {
        id: 'a',
        made_created_on: '2026-01-02T00:00:00Z',
        closed_at: '2026-01-01T00:00:00Z',
      }),
    ).toBe('made_created_on');
    expect(timeFieldFor('unknown', 'v1', { id: 'a' })).toBeUndefined();
  });
});

describe('windowFilter and inWindow', () => {
  const window = readWindow('24h', 'today', NOW)!;

  it("ANDs the window into the filter in the operator form, beside the field's own conditions", () => {
    expect(JSON.parse(windowFilter('{"status":{"$eq":"failed"}}', 'created', window))).toEqual({
      status: { $eq: 'failed' },
      created: { $gte: '2026-11-24T16:30:00.000Z', $lt: '2026-11-25T00:00:00.000Z' },
    });
    expect(JSON.parse(windowFilter('{"created":{"$neq":null}}', 'created', { since: window.since! }))).toEqual({
      created: { $neq: null, $gte: '2026-11-24T16:30:00.000Z' },
    });
    expect(() => windowFilter('{"created":{"$gte":"2020-01-01"}}', 'created', window)).toThrow(
      /already has \$gte on created/,
    );
  });

  it('keeps a record inside the window, from since (inclusive) to until (exclusive)', () => {
    expect(inWindow({ at: '2026-11-24T16:30:00Z' }, 'at', window)).toBe(true);
    expect(inWindow({ at: '2026-11-25T00:00:00Z' }, 'at', window)).toBe(false);
    expect(inWindow({ at: '2026-11-24T16:29:59Z' }, 'at', window)).toBe(false);
    expect(inWindow({ at: null }, 'at', window)).toBe(false);
  });
});
