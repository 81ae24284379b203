import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { ApiResponse } from '../../../src/api/session.js';
import { ResponseView } from '../../../src/ui/operations/response-view.js';
import { ESC, mount, press, unmount, until } from './harness.js';

const accepted: ApiResponse = {
  status: 202,
  statusText: 'Accepted',
  headers: { location: '/tasks/t-9', 'content-type': 'application/api.service.tasks=v1+json' },
  body: { id: 't-9', status: 'queued', progress_percentage: 0, initiated_by: { email: 'a@b.c' } },
  text: '',
  url: 'http://h:1/restores',
  method: 'POST',
  durationMs: 12,
  contentType: 'application/api.service.tasks=v1+json',
};

describe('ResponseView', () => {
  it('shows status, headers and the body as a tree; y switches to raw; t follows the named task', async () => {
    const followed: string[] = [];
    const ui = await mount(
      <ResponseView response={accepted} followable={{ kind: 'link', href: 'http://h:1/tasks/t-9', resource: 'tasks', version: 'v1', taskId: 't-9', reason: 'Location header' }} onFollow={() => followed.push('t')} onBack={() => undefined} />,
    );
    const tree = await until(ui, (f) => f.includes('202 Accepted'));
    expect(tree).toContain('location: /tasks/t-9');
    expect(tree).toContain('names a task (t-9, via Location header)');
    expect(tree).toMatch(/^status: "queued"$/m);
    expect(tree).toMatch(/^ {2}email: "a@b.c"$/m);
    await press(ui, 'y');
    const raw = await until(ui, (f) => f.includes('"progress_percentage": 0'));
    expect(raw).toContain('"initiated_by": {');
    await press(ui, 't');
    expect(followed).toEqual(['t']);
    await unmount(ui);
  });

  it('shows an API error as its [code] message lines with the status and hint', async () => {
    let back = false;
    const error = new ApiError(422, [{ code: 'invalid_reference', message: 'backup_id x names no backup' }], 'the request was refused', 'check the body');
    const ui = await mount(<ResponseView error={error} onBack={() => (back = true)} />);
    const frame = await until(ui, (f) => f.includes('HTTP 422'));
    expect(frame).toContain('[invalid_reference] backup_id x names no backup');
    expect(frame).toContain('hint: check the body');
    await press(ui, ESC);
    expect(back).toBe(true);
    await unmount(ui);
  });

  it('shows an errors envelope inside a successful body as readable lines', async () => {
    const ui = await mount(<ResponseView response={{ ...accepted, status: 200, statusText: 'OK', body: { errors: [{ error_code: 'partial', error_message: 'two items skipped' }] } }} onBack={() => undefined} />);
    await until(ui, (f) => f.includes('[partial] two items skipped'));
    await unmount(ui);
  });
});
