// The request chain's own guard, behind the session's: the token goes only to URLs on the session's
// origin, including ones that merely start with its text. A transport stands in for the network, so
// what would have gone out is seen without sending it anywhere.
import { describe, expect, it } from 'vitest';
import { Cancellable } from '../../../src/api/wire/cancellable.js';
import { SafetyError } from '../../../src/api/errors.js';
import type { ExchangeRequest } from '../../../src/api/exchange.js';
import { RequestChain } from '../../../src/api/wire/request-chain.js';

const ORIGIN = 'http://127.0.0.1:8080';
const TOKEN = 'header.payload.signature-for-tests';

function chainSeeing(sent: ExchangeRequest[]): RequestChain {
  return new RequestChain({
    origin: ORIGIN,
    userAgent: 'dpx/test',
    token: TOKEN,
    transport: async (request) => {
      sent.push(structuredClone(request));
      return { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, text: '{}', size: 2 };
    },
    ouHeader: () => 'x-test-organizationalunit-context',
    warn: () => undefined,
  });
}

const request = (url: string): ExchangeRequest => ({ method: 'GET', url, headers: { accept: 'application/json' } });

describe('the request chain', () => {
  it.each([`${ORIGIN}/tasks?limit=1`, 'HTTP://127.0.0.1:8080/tasks', `${ORIGIN}//other/path`])(
    'sends %s with the token and its User-Agent, and records them in the request',
    async (url) => {
      const sent: ExchangeRequest[] = [];
      const outgoing = request(url);
      await chainSeeing(sent).send(outgoing, { cancellable: new Cancellable(), maxBodyBytes: 1024 });
      expect(sent).toHaveLength(1);
      expect(outgoing.headers).toEqual({
        accept: 'application/json',
        'user-agent': 'dpx/test',
        'accept-encoding': 'gzip, deflate, br',
        authorization: `Bearer ${TOKEN}`,
      });
    },
  );

  it.each([
    'http://127.0.0.1:80800/tasks',
    'http://127.0.0.1:8080@evil.example/tasks',
    'http://127.0.0.1:8080.evil.example/tasks',
    'https://127.0.0.1:8080/tasks',
    'not a url',
  ])('refuses %s before anything is sent, without adding the token', async (url) => {
    const sent: ExchangeRequest[] = [];
    const outgoing = request(url);
    const error = await chainSeeing(sent)
      .send(outgoing, { cancellable: new Cancellable(), maxBodyBytes: 1024 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafetyError);
    expect((error as SafetyError).message).toContain(`this session belongs to ${ORIGIN}`);
    expect(sent).toEqual([]);
    expect(outgoing.headers['authorization']).toBeUndefined();
  });
});
