import { describe, expect, it } from 'vitest';
import { startDemo } from '../../../src/demo/server.js';
import { demoRequest, expectError, expectList, expectSchema, useDemo } from '../../helpers/demo.js';

const demo = useDemo();
const accept = (media: string) => ({ headers: { Accept: media } });

describe('demo control plane: version negotiation', () => {
  it('lists users v1 and v2 in the index, with list, read and write operations', async () => {
    const { body } = await demoRequest(demo.region, '/');
    expect(body.users.supported_versions).toEqual(['v2', 'v1']);
    expect(body.users.v2.list_users).toEqual({ href: '/users{?limit,start,filter}', type: 'get', templated: true });
    expect(body.users.v1.list_users.href).toBe('/users{?limit,start,filter}');
    expect(body.tasks.v1.get_task).toEqual({ href: '/tasks/{task_id}', type: 'get', templated: true });
    expect(body.restores.v1.create_restore).toMatchObject({ href: '/restores', type: 'post' });
    expect(body.tasks.v1.abort_task).toMatchObject({ type: 'post', templated: true });
    expect(body.users.v2.disable_user).toMatchObject({ type: 'post' });
    for (const name of [
      'organizational-units',
      'roles',
      'audit-trails',
      'alerts',
      'policies',
      'protection-groups',
      'backups',
      'restores',
    ]) {
      expect(body[name], name).toBeDefined();
      const version = body[name].supported_versions[0];
      const ops = Object.entries(body[name][version] as Record<string, { type: string }>);
      expect(
        ops.some(([id, op]) => id.startsWith('list') && op.type === 'get'),
        name,
      ).toBe(true);
    }
  });

  it('serves the newest version without Accept, and names it in Content-Type', async () => {
    const response = await demoRequest(demo.region, '/users?limit=3');
    expect(response.headers.get('content-type')).toBe('application/api.service.users=v2+json');
    expectList('users.v2', response.body);
    const root = await demoRequest(demo.region, '/');
    expect(root.headers.get('content-type')).toBe('application/api.service.*=v1+json');
  });

  it('serves the version a specific media type asks for, with a different record shape', async () => {
    const v1 = await demoRequest(demo.region, '/users?limit=3', accept('application/api.service.users=v1+json'));
    expect(v1.headers.get('content-type')).toBe('application/api.service.users=v1+json');
    expectList('users.v1', v1.body);
    expect(v1.body._embedded.items[0]).toHaveProperty('username');
    expect(v1.body._embedded.items[0]).not.toHaveProperty('email');
    const v2 = await demoRequest(demo.region, '/users?limit=3', accept('application/api.service.users=v2+json'));
    expectList('users.v2', v2.body);
    expect(v2.body._embedded.items[0].email).toBe(v1.body._embedded.items[0].username);
  });

  it('honours the wildcard media type per resource', async () => {
    const users = await demoRequest(demo.region, '/users?limit=1', accept('application/api.service.*=v1+json'));
    expect(users.headers.get('content-type')).toBe('application/api.service.users=v1+json');
    const root = await demoRequest(demo.region, '/', accept('application/api.service.*=v1+json'));
    expect(root.status).toBe(200);
    const task = await demoRequest(demo.region, '/tasks?limit=1', accept('application/api.service.*=v1+json'));
    expectList('tasks.v1', task.body);
  });

  it('answers 406 unsupported_version, and 406 not_acceptable for media types it does not serve', async () => {
    expectError(
      await demoRequest(demo.region, '/users', accept('application/api.service.users=v3+json')),
      406,
      'unsupported_version',
    );
    expectError(
      await demoRequest(demo.region, '/tasks', accept('application/api.service.*=v2+json')),
      406,
      'unsupported_version',
    );
    expectError(
      await demoRequest(demo.region, '/', accept('application/api.service.*=v9+json')),
      406,
      'unsupported_version',
    );
    expectError(
      await demoRequest(demo.region, '/users', accept('application/api.other.users=v2+json')),
      406,
      'not_acceptable',
    );
    expectError(await demoRequest(demo.region, '/users', accept('text/html')), 406, 'not_acceptable');
  });

  it('does not offer an operation in a version that lacks it', async () => {
    const { body } = await demoRequest(demo.region, '/users?limit=1');
    const id = body._embedded.items[0].id as string;
    const response = await demoRequest(demo.region, `/users/${id}/enable`, {
      method: 'POST',
      ...accept('application/api.service.users=v1+json'),
    });
    expectError(response, 404, 'operation_not_available');
  });

  it('takes the vendor token from its options', async () => {
    const acme = await startDemo({ vendor: 'acme', plainListHrefs: true });
    try {
      const region = acme.regions[0]!;
      const root = await demoRequest(region, '/');
      expect(root.headers.get('content-type')).toBe('application/api.acme.*=v1+json');
      expect(root.body.tasks.v1.list_tasks).toEqual({ href: '/tasks', type: 'get', templated: false });
      const tasks = await demoRequest(region, '/tasks?limit=1', accept('application/api.acme.tasks=v1+json'));
      expect(tasks.headers.get('content-type')).toBe('application/api.acme.tasks=v1+json');
      expectError(
        await demoRequest(region, '/tasks', accept('application/api.service.tasks=v1+json')),
        406,
        'not_acceptable',
      );
    } finally {
      await acme.close();
    }
  });

  it('answers errors with the error envelope as application/json', async () => {
    const response = await demoRequest(demo.region, '/users', accept('application/api.service.users=v3+json'));
    expect(response.headers.get('content-type')).toBe('application/json');
    expectSchema('errors', response.body);
  });
});
