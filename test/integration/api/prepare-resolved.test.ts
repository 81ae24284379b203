// An operation resolved once is prepared without the index being read again: `dpx call` resolves it to
// read its schema first, and the session builds the request from that same resolution.
import { describe, expect, it } from 'vitest';
import { resolveOperation } from '../../../src/api/hal/operation.js';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';
import { unreachableOrigin } from '../../helpers/ports.js';

const demo = useDemo();

describe('a session prepares an operation resolved already', () => {
  it('builds the request from it, reading no index (its control plane need not answer)', async () => {
    const online = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const target = { resource: 'tasks', operationId: 'get_task', variables: { task_id: 'abc' } };
    const resolved = resolveOperation(await online.catalog(), target);
    const expected = await online.prepare(target);

    const baseUrl = await unreachableOrigin();
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
