// Which recorded requests a replay sends, where, against which recorded answer — and which it leaves out.
import { describe, expect, it } from 'vitest';
import { parseTrail } from '../../../src/api/case/har.js';
import { planReplay } from '../../../src/api/case/replay.js';

const INDEX = JSON.stringify({
  things: { supported_versions: ['v1'], v1: { list_things: { href: '/things', type: 'get' } } },
});

function entry(
  method: string,
  url: string,
  status: number,
  text: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
) {
  return {
    startedDateTime: '2025-01-01T00:00:00.000Z',
    time: 1,
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: [],
      cookies: [],
      content: { size: text.length, mimeType: 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
      ...extra,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

const trail = parseTrail(
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'dpx', version: '0' },
      entries: [
        entry('GET', 'https://eu.example/api/', 200, INDEX, { accept: 'application/json' }),
        entry('GET', 'https://eu.example/api/things?b=2&a=1', 200, '{"n":1}', {
          accept: 'application/api.service.things=v1+json',
        }),
        entry('POST', 'https://eu.example/api/things', 201, '{}'),
        entry('GET', 'https://eu.example/api/things?a=1&b=2', 200, '{"n":2}', {
          accept: 'application/api.service.things=v1+json',
        }),
        entry('GET', 'https://eu.example/api/things?a=1&b=2', 304, '', {
          accept: 'application/api.service.things=v1+json',
        }),
        entry('GET', 'https://eu.example/api/things', 200, '{"n":3}', {
          accept: 'application/api.service.things=v2+json',
        }),
        entry('GET', 'https://eu.example/api/things', 200, '{"n":4}', {
          accept: 'application/api.service.things=v1+json',
          'x-service-organizationalunit-context': 'unit-1',
        }),
        entry('GET', 'https://eu.example/api/slow', 0, '', {}, { _error: 'no answer within 30 s' }),
        entry('DELETE', 'https://eu.example/api/things/1', 0, '', {}, { _error: 'refused: read-only mode' }),
        entry('OPTIONS', 'https://eu.example/api/things', 204, ''),
      ],
    },
  }),
  'plan.har',
);

describe('planning a replay', () => {
  const plan = planReplay(trail, 'http://us.example/v2');

  it('moves every URL onto the new base URL and keeps the recorded Accept', () => {
    expect(plan.requests.map((request) => `${request.url} ${request.accept}`)).toEqual([
      'http://us.example/v2/ application/json',
      'http://us.example/v2/things?b=2&a=1 application/api.service.things=v1+json',
      'http://us.example/v2/things application/api.service.things=v2+json',
      'http://us.example/v2/things application/api.service.things=v1+json',
    ]);
  });

  it('replays a request recorded several times once, against its last answer (a 304 only confirmed it)', async () => {
    expect(await trail.text(plan.requests[1]!.then)).toBe('{"n":2}');
    expect(plan.requests[1]?.recordedUrl).toBe('https://eu.example/api/things?b=2&a=1');
  });

  it('skips writes, other methods, and reads that never got an answer, saying why', () => {
    expect(plan.skipped).toEqual([
      { method: 'POST', url: 'http://us.example/v2/things', reason: 'a write: never sent by replay' },
      { method: 'DELETE', url: 'http://us.example/v2/things/1', reason: 'a write: never sent by replay' },
      { method: 'OPTIONS', url: 'http://us.example/v2/things', reason: 'OPTIONS is not replayed (only GET and HEAD)' },
      { method: 'GET', url: 'http://us.example/v2/slow', reason: 'no answer was recorded (no answer within 30 s)' },
    ]);
  });
});
