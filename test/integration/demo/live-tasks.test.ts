import { describe, expect, it } from 'vitest';
import { demoRequest, expectError, expectList, expectSchema, useDemo } from '../../helpers/demo.js';

// Fifty times faster than real time: a restore takes 3 s + 30 s of demo time, under a second here.
const demo = useDemo({ taskSpeed: 50 });
const FINAL = ['completed', 'completed_with_warnings', 'failed', 'aborted', 'skipped'];

const filtered = (filter: unknown) => `/tasks?limit=100&filter=${encodeURIComponent(JSON.stringify(filter))}`;

async function waitForTask(id: string, done: (task: any) => boolean, timeoutMs = 8000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await demoRequest(demo.region, `/tasks/${id}`);
    expectSchema('records/tasks.v1', body);
    if (done(body) || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('demo control plane: live tasks and actions', () => {
  it('has status, category and type values beyond the spec examples', async () => {
    const { body } = await demoRequest(demo.region, '/tasks?limit=100');
    expectList('tasks.v1', body);
    const statuses = new Set<string>();
    const categories = new Set<string>();
    for (const status of ['completed_with_warnings', 'scheduled', 'skipped']) {
      const response = await demoRequest(demo.region, filtered({ status }));
      if (response.body.current_count > 0) statuses.add(status);
    }
    for (const category of ['snapshot', 'replication', 'discovery']) {
      const response = await demoRequest(demo.region, filtered({ category }));
      if (response.body.current_count > 0) categories.add(category);
    }
    expect([...statuses].sort()).toEqual(['completed_with_warnings', 'scheduled', 'skipped']);
    expect([...categories].sort()).toEqual(['discovery', 'replication', 'snapshot']);
  });

  it('advances in-progress tasks with time', async () => {
    const { body } = await demoRequest(
      demo.region,
      filtered({ status: 'in_progress', progress_percentage: { $lt: 80 } }),
    );
    const task = body._embedded.items[0];
    expect(task).toBeDefined();
    const later = await waitForTask(
      task.id,
      (t) => t.progress_percentage > task.progress_percentage || t.status !== 'in_progress',
    );
    expect(later.progress_percentage > task.progress_percentage || FINAL.includes(later.status)).toBe(true);
  });

  it('starts an on-demand restore: 202 with a task that goes queued → in_progress → a final state', async () => {
    const backups = await demoRequest(demo.region, '/backups?limit=1');
    const backup = backups.body._embedded.items[0];
    const response = await demoRequest(demo.region, '/restores', {
      method: 'POST',
      body: { backup_id: backup.id, restore_type: 'file_level' },
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('application/api.service.tasks=v1+json');
    expectSchema('records/tasks.v1', response.body);
    expect(response.body).toMatchObject({
      status: 'queued',
      category: 'restore',
      backup_id: backup.id,
      progress_percentage: 0,
    });
    expect(response.headers.get('location')).toBe(`/tasks/${response.body.id}`);
    expect(response.body._links.restore.href).toMatch(/^\/restores\//);
    const seen = new Set<string>();
    const final = await waitForTask(response.body.id, (t) => {
      seen.add(t.status);
      return FINAL.includes(t.status);
    });
    expect(['completed', 'failed']).toContain(final.status);
    expect(seen.has('in_progress') || seen.has('queued')).toBe(true);
    expect(final.end_timestamp).not.toBeNull();
    if (final.status === 'completed') expect(final.progress_percentage).toBe(100);
    const restore = await demoRequest(demo.region, final._links.restore.href);
    expectSchema('records/restores.v1', restore.body);
    expect(restore.body).toMatchObject({ status: final.status, task_id: final.id, restore_type: 'file_level' });
  });

  it('rejects a restore of an unknown backup and a body that breaks the schema', async () => {
    expectError(
      await demoRequest(demo.region, '/restores', {
        method: 'POST',
        body: { backup_id: '00000000-0000-4000-8000-000000000000' },
      }),
      422,
      'invalid_reference',
    );
    expectError(
      await demoRequest(demo.region, '/restores', { method: 'POST', body: { backup: 'x' } }),
      400,
      'invalid_body',
    );
    expectError(
      await demoRequest(demo.region, '/restores', { method: 'POST', body: '{"backup_id":' }),
      400,
      'invalid_body',
    );
  });

  it('aborts a running task through aborting to aborted, and refuses to abort a finished one', async () => {
    const { body } = await demoRequest(
      demo.region,
      filtered({ status: 'in_progress', progress_percentage: { $lt: 50 } }),
    );
    const task = body._embedded.items[0];
    expect(task._links.abort).toEqual({ href: `/tasks/${task.id}/abort`, type: 'post' });
    const response = await demoRequest(demo.region, task._links.abort.href, { method: 'POST' });
    expect(response.status).toBe(202);
    expect(response.body.status).toBe('aborting');
    const final = await waitForTask(task.id, (t) => t.status !== 'aborting');
    expect(final.status).toBe('aborted');
    expect(final._links.abort).toBeUndefined();
    expectError(
      await demoRequest(demo.region, `/tasks/${task.id}/abort`, { method: 'POST' }),
      409,
      'task_not_abortable',
    );
  });

  it('disables and enables a user, with the action links following the state', async () => {
    const { body } = await demoRequest(
      demo.region,
      `/users?filter=${encodeURIComponent('{"is_enabled":true}')}&limit=1`,
    );
    const user = body._embedded.items[0];
    const disabled = await demoRequest(demo.region, user._links.disable.href, { method: 'POST' });
    expect(disabled.status).toBe(200);
    expectSchema('records/users.v2', disabled.body);
    expect(disabled.body.is_enabled).toBe(false);
    expect(disabled.body._links.enable).toBeDefined();
    expect(disabled.body._links.disable).toBeUndefined();
    const enabled = await demoRequest(demo.region, disabled.body._links.enable.href, { method: 'POST' });
    expect(enabled.body.is_enabled).toBe(true);
  });

  it('creates, updates and deletes a policy, validating bodies and references', async () => {
    const created = await demoRequest(demo.region, '/policies', {
      method: 'POST',
      body: { name: 'Nightly 7d', schedule: 'daily at 01:00', retention_days: 7 },
    });
    expect(created.status).toBe(201);
    expectSchema('records/policies.v1', created.body);
    const href = created.headers.get('location')!;
    expect(href).toBe(created.body._links.self.href);
    const updated = await demoRequest(demo.region, href, { method: 'PATCH', body: { retention_days: 14 } });
    expect(updated.body).toMatchObject({ name: 'Nightly 7d', retention_days: 14 });
    expectError(
      await demoRequest(demo.region, href, { method: 'PATCH', body: { retention_days: 'long' } }),
      400,
      'invalid_body',
    );
    expectError(
      await demoRequest(demo.region, href, { method: 'PATCH', body: { colour: 'red' } }),
      400,
      'invalid_body',
    );
    expect((await demoRequest(demo.region, href, { method: 'DELETE' })).status).toBe(204);
    expectError(await demoRequest(demo.region, href), 404, 'record_not_found');
    const orphan = await demoRequest(demo.region, '/protection-groups', {
      method: 'POST',
      body: { name: 'x', source_type: 'vmware_vm', policy_id: '00000000-0000-4000-8000-000000000000' },
    });
    expectError(orphan, 422, 'invalid_reference');
  });

  it('refuses a second user with the same e-mail', async () => {
    const roles = await demoRequest(demo.region, '/roles');
    const body = {
      email: 'new.person@demo.example',
      full_name: 'New Person',
      name: 'new.person',
      role_id: roles.body._embedded.items[0].id,
    };
    const first = await demoRequest(demo.region, '/users', { method: 'POST', body });
    expect(first.status).toBe(201);
    expectSchema('records/users.v2', first.body);
    expectError(await demoRequest(demo.region, '/users', { method: 'POST', body }), 409, 'conflict');
  });
});
