// What came back from an operation, sent by the response screen itself to a small control plane: status,
// headers, the body as a tree or raw, an error's [code] message lines, and `t` on a 202 that names a task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { ESC, openScreen, topKind } from './harness.js';

const INDEX = {
  restores: {
    supported_versions: ['v1'],
    v1: { create_restore: { href: '/restores', type: 'post', templated: false } },
  },
  tasks: { supported_versions: ['v1'], v1: { get_task: { href: '/tasks/{task_id}', type: 'get', templated: true } } },
};
const TASK = { id: 't-9', status: 'queued', progress_percentage: 0, initiated_by: { email: 'a@b.c' } };

let server: TestServer;
beforeAll(async () => {
  server = await startServer((request, response) => {
    const body = JSON.parse(request.body || '{}') as { answer?: string };
    if (request.url === '/') return sendJson(response, 200, INDEX);
    if (request.url.startsWith('/tasks/'))
      return sendJson(response, 200, { ...TASK, status: 'completed', progress_percentage: 100 });
    if (body.answer === 'refuse')
      return sendJson(response, 422, {
        errors: [{ error_code: 'invalid_reference', error_message: 'backup_id x names no backup' }],
      });
    if (body.answer === 'partial')
      return sendJson(response, 200, { errors: [{ error_code: 'partial', error_message: 'two items skipped' }] });
    sendJson(response, 202, TASK, { location: '/tasks/t-9', 'content-type': 'application/api.service.tasks=v1+json' });
  });
});
afterAll(() => server.close());

async function send(answer: string) {
  const session = new Session({ baseUrl: server.baseUrl });
  const request = await session.prepare({
    resource: 'restores',
    operationId: 'create_restore',
    body: JSON.stringify({ answer }),
  });
  return openScreen('response', (origin, navigator) => ({ flow: { origin, start: navigator.top()!.id }, request }), {
    session,
    taskIntervalMs: 20,
  });
}

describe('the response screen', () => {
  it('shows status, headers and the body as a tree; y switches to raw; t follows the named task', async () => {
    const ui = await send('accept');
    const tree = await ui.waitFor((f) => f.includes('202 Accepted'), 'the response');
    expect(tree).toContain('location: /tasks/t-9');
    expect(tree).toContain('names a task (t-9, via Location header)');
    expect(tree).toMatch(/^status: "queued"$/m);
    expect(tree).toMatch(/^ {2}email: "a@b.c"$/m);
    await ui.press('y');
    const raw = await ui.waitFor((f) => f.includes('"progress_percentage": 0'), 'the raw body');
    expect(raw).toContain('"initiated_by": {');
    await ui.press('t');
    await ui.waitFor((f) => f.includes('status completed') && f.includes('final'), 'the task followed');
    expect(topKind(ui)).toBe('task');
    await ui.unmount();
  });

  it('shows an API error as its [code] message lines with the status and hint', async () => {
    const ui = await send('refuse');
    const frame = await ui.waitFor((f) => f.includes('HTTP 422'), 'the error');
    expect(frame).toContain('[invalid_reference] backup_id x names no backup');
    expect(frame).toMatch(/hint: /);
    await ui.press(ESC);
    expect(topKind(ui)).toBe('catalog');
    await ui.unmount();
  });

  it('shows an errors envelope inside a successful body as readable lines', async () => {
    const ui = await send('partial');
    await ui.waitFor((f) => f.includes('[partial] two items skipped'), 'the error lines');
    await ui.unmount();
  });
});
