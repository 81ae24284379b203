import { describe, expect, it } from 'vitest';
import { ApiError, CancelledError, toDpxError, UsageError } from '../../../src/api/errors.js';
import { apiErrorFor, errorEntries, summariseBody } from '../../../src/api/wire/failure.js';
import { FreshnessCache } from '../../../src/api/session/freshness.js';
import { parseRetryAfter, retryDelayMs, waitBeforeRetry } from '../../../src/api/wire/retry.js';

const failed = (status: number, body: unknown, extra: Partial<Parameters<typeof apiErrorFor>[0]> = {}) => ({
  status,
  statusText: '',
  contentType: 'application/json',
  text: JSON.stringify(body),
  body,
  retryAfterSeconds: undefined,
  ...extra,
});

describe("a 400's hint", () => {
  const sent = { operationId: 'list_tasks', body: false, filter: '{"stat":1}' };
  const hint = (errors: unknown) =>
    apiErrorFor(failed(400, { errors }), { resource: 'tasks', sent: { ...sent, ou: 'u-1' } }).hint;

  it("follows the server's error code before its words", () => {
    expect(
      hint([{ error_code: 'invalid_filter', error_message: 'the organizational unit has no field stat' }]),
    ).toMatch(/^the filter was refused/);
    expect(hint([{ error_code: 'invalid_organizational_unit', error_message: 'bad filter' }])).toMatch(
      /^the organizational unit sent \(u-1\) was refused/,
    );
  });

  it('reads no word inside the names a message quotes or lists', () => {
    const listed = 'Unknown field for tasks; known fields: id, name, organizational_unit_id, initiated_by.email';
    expect(hint([{ error_code: '', error_message: listed }])).toMatch(/^the filter was refused/);
    expect(hint([{ error_code: '', error_message: "no field 'tenant_id' here" }])).toMatch(/^the filter was refused/);
    expect(hint([{ error_code: '', error_message: 'the organizational unit is not known' }])).toMatch(
      /^the organizational unit sent/,
    );
  });
});

describe('apiErrorFor', () => {
  it('shows the errors envelope as [code] message with the status', () => {
    const error = apiErrorFor(
      failed(400, {
        errors: [
          { error_code: 'bad_filter', error_message: 'filter\nis not JSON' },
          { error_code: 'x', error_message: 'y' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('HTTP 400: [bad_filter] filter is not JSON; [x] y');
    expect(error.errors).toEqual([
      { code: 'bad_filter', message: 'filter is not JSON' },
      { code: 'x', message: 'y' },
    ]);
    expect(error.exitCode).toBe(1);
  });

  it('gives a hint that fits the status', () => {
    const envelope = { errors: [{ error_code: 'e', error_message: 'm' }] };
    expect(apiErrorFor(failed(401, envelope)).hint).toContain('another control plane');
    expect(apiErrorFor(failed(401, envelope), { tokenProblem: 'the token expired 3 min ago' }).hint).toBe(
      'the token expired 3 min ago; get a new token from this control plane',
    );
    expect(apiErrorFor(failed(403, envelope)).hint).toContain('not allowed');
    expect(apiErrorFor(failed(404, envelope)).hint).toContain('check the id');
    expect(
      apiErrorFor(failed(406, envelope), { resource: 'things', version: 'v9', supportedVersions: ['v3', 'v1'] }).hint,
    ).toBe('the server does not serve things v9; the index lists v3, v1 (use --version)');
    expect(apiErrorFor(failed(429, envelope, { retryAfterSeconds: 2.5 })).hint).toBe(
      'rate limited: wait 3 s (Retry-After) and try again',
    );
    expect(apiErrorFor(failed(503, envelope)).hint).toContain('try again later');
  });

  it('summarises what is not an envelope', () => {
    expect(summariseBody('', 'text/plain')).toBe('empty body (text/plain)');
    expect(
      summariseBody('upstream connect error or disconnect/reset before headers. reset reason: overflow', 'text/plain'),
    ).toBe('text/plain body: "upstream connect error or disconnect/reset before headers.…"');
    expect(summariseBody('<html><body>no title</body></html>', 'text/html')).toBe('text/html body of 34 characters');
    expect(errorEntries({ errors: [] })).toBeUndefined();
    expect(errorEntries({ message: 'x' })).toBeUndefined();
  });

  it('shows a code or message that is not a string as JSON, even one that String() cannot convert', () => {
    const body = JSON.parse(
      '{"errors":[{"code":{"toString":0},"message":42},{"error_code":["a","b"],"error_message":null}]}',
    );
    expect(errorEntries(body)).toEqual([
      { code: '{"toString":0}', message: '42' },
      { code: '["a","b"]', message: '' },
    ]);
  });

  it('toDpxError keeps every failure in the family', () => {
    expect(toDpxError(new SyntaxError('Unexpected token')).kind).toBe('protocol');
    expect(toDpxError('weird').kind).toBe('transport');
  });

  it('every error keeps its message and hint on one line, showing a quoted line break escaped', () => {
    const error = new UsageError('things v1 has no operation a\nb\r\u2028', 'operations: x\ny');
    expect(error.message).toBe('things v1 has no operation a\\nb\\r\\u2028');
    expect(error.hint).toBe('operations: x\\ny');
  });

  it('toDpxError reads anything thrown, even a value String() cannot convert', () => {
    expect(toDpxError(Object.create(null)).message).toBe('[object Object]');
    expect(toDpxError({ toString: 0 }).message).toBe('[object Object]');
    expect(toDpxError('\nsecond line').message).toBe('something was thrown that is not an error');
    expect(toDpxError(new RangeError('first\nsecond')).message).toBe('first');
  });
});

describe('retry timing', () => {
  const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
  it('backs off exponentially with jitter, capped in count and in wait', () => {
    expect(retryDelayMs(policy, 0, undefined, () => 0)).toBe(50);
    expect(retryDelayMs(policy, 0, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(policy, 2, undefined, () => 1)).toBe(400);
    expect(retryDelayMs({ ...policy, maxRetries: 9 }, 8, undefined, () => 1)).toBe(1000);
    expect(retryDelayMs(policy, 3, undefined)).toBeUndefined();
  });

  it('honours Retry-After within the cap and gives up beyond it', () => {
    expect(retryDelayMs(policy, 0, 0.5)).toBe(500);
    expect(retryDelayMs(policy, 0, 5)).toBeUndefined();
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('a wait cancelled by the request or the run is a CancelledError, in the same words', async () => {
    const stopped = new AbortController();
    stopped.abort();
    const error = await waitBeforeRetry(60_000, undefined, stopped.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).message).toBe('cancelled while waiting to retry');
    expect((error as CancelledError).hint).toBe('the request was cancelled before it finished');
  });
});

describe('FreshnessCache', () => {
  it('forgets entries past the window and the least recently used beyond its capacity', () => {
    let now = 0;
    const cache = new FreshnessCache<string>(1000, 2, () => now);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C');
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual(['A', undefined, 'C', 2]);
    now = 1001;
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds at most its budget of weight, and always the newest entry', () => {
    const cache = new FreshnessCache<string>(1000, 16, () => 0, { weigh: (value) => value.length, budget: 10 });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    cache.set('c', 'cccc');
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([undefined, 'bbbb', 'cccc', 2]);
    cache.set('d', 'd'.repeat(20));
    expect([cache.get('b'), cache.get('c'), cache.get('d')?.length, cache.size]).toEqual([undefined, undefined, 20, 1]);
    // Setting a key again counts its weight once.
    cache.set('d', 'dd');
    cache.set('e', 'eeee');
    cache.set('e', 'eeee');
    expect([cache.get('d'), cache.get('e'), cache.size]).toEqual(['dd', 'eeee', 2]);
  });
});
