// An operation resolved once is prepared without the index being read again: `dpx call` resolves it to
// read its schema first, and the session builds the request from that same resolution.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { resolveOperation } from '../../../src/api/hal/operation.js';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';

const demo = useDemo();

/** A port this test bound and closed: nothing listens there, so a request to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a session prepares an operation resolved already', () => {
  it('builds the request from it, reading no index (its control plane need not answer)', async () => {
    const online = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const target = { resource: 'tasks', operationId: 'get_task', variables: { task_id: 'abc' } };
    const resolved = resolveOperation(await online.catalog(), target);
    const expected = await online.prepare(target);

    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const sent: string[] = [];
    const offline = new Session({
      baseUrl,
      token: demo.region.tokens.personal,
      onExchange: (exchange) => sent.push(exchange.request.url),
    });
    const request = await offline.prepare(target, resolved);
    expect(sent).toEqual([]);
    expect(request.method).toBe(expected.method);
    expect(request.url).toBe(expected.url.replace(demo.region.baseUrl, baseUrl));
    expect(request.operationId).toBe('get_task');
    // Without it, the same session must read the index first, and cannot.
    await expect(offline.prepare(target)).rejects.toThrow();
  });
});
