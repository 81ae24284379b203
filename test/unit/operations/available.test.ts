import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/api/hal/catalog.js';
import { operationsFor } from '../../../src/api/operations/available.js';

const index = {
  tasks: {
    supported_versions: ['v1'],
    v1: {
      list_tasks: { href: '/tasks{?limit,start,filter}', type: 'get', templated: true },
      abort_task: { href: '/tasks/{task_id}/abort', type: 'post', templated: true },
      get_task: { href: '/tasks/{task_id}', type: 'get', templated: true },
      list_group_tasks: { href: '/groups/{group_id}/tasks{?limit,start}', type: 'get', templated: true },
    },
  },
  policies: {
    supported_versions: ['v1'],
    v1: { delete_policy: { href: '/policies/{policy_id}', type: 'delete', templated: true } },
  },
  users: {
    supported_versions: ['v1', 'v2'],
    v2: {
      get_user: { href: '/users/{user_id}', type: 'get', templated: true },
      role_of_user: { href: '/roles/{role_id}/members/{user_id}', type: 'get', templated: true },
      by_id: { href: '/users/{id}', type: 'get', templated: true },
    },
    v1: { get_user: { href: '/users/{user_id}', type: 'get', templated: true } },
  },
};
const catalog = parseCatalog(index, 'service');

describe('operationsFor', () => {
  it('lists reads before writes with method, id and href', () => {
    const ops = operationsFor(catalog, 'tasks', 'v1');
    expect(ops.map((op) => `${op.method} ${op.id} ${op.href}`)).toEqual([
      'GET list_tasks /tasks{?limit,start,filter}',
      'GET get_task /tasks/{task_id}',
      'GET list_group_tasks /groups/{group_id}/tasks{?limit,start}',
      'POST abort_task /tasks/{task_id}/abort',
    ]);
    expect(ops.every((op) => !op.fillsFromRecord)).toBe(true);
  });

  it('fills task_id from a task record and marks only operations with path variables', () => {
    const ops = operationsFor(catalog, 'tasks', undefined, { id: 't-42', status: 'queued' });
    const byId = Object.fromEntries(ops.map((op) => [op.id, op]));
    expect(byId['get_task']!.prefill).toEqual({ task_id: 't-42' });
    expect(byId['get_task']!.fillsFromRecord).toBe(true);
    expect(byId['abort_task']!.fillsFromRecord).toBe(true);
    expect(byId['list_tasks']!.fillsFromRecord).toBe(false);
  });

  it("fills a list under a parent from the record's field naming the parent, never with the record's own id", () => {
    const inGroup = operationsFor(catalog, 'tasks', undefined, { id: 't-42', group_id: 'g-1' }).find(
      (op) => op.id === 'list_group_tasks',
    )!;
    expect(inGroup.prefill).toEqual({ group_id: 'g-1' });
    const alone = operationsFor(catalog, 'tasks', undefined, { id: 't-42' }).find(
      (op) => op.id === 'list_group_tasks',
    )!;
    expect(alone.prefill).toEqual({});
    expect(alone.missing).toEqual(['group_id']);
  });

  it('fills a plural resource whose singular ends in y (policy_id from a policy record)', () => {
    const [remove] = operationsFor(catalog, 'policies', 'v1', { id: 'p-1' });
    expect(remove!.prefill).toEqual({ policy_id: 'p-1' });
  });

  it('takes same-named fields of the record, and reports what is still missing', () => {
    const ops = operationsFor(catalog, 'users', 'v2', { id: 'u-7', role_id: 'r-3' });
    const byId = Object.fromEntries(ops.map((op) => [op.id, op]));
    expect(byId['role_of_user']!.prefill).toEqual({ role_id: 'r-3', user_id: 'u-7' });
    expect(byId['by_id']!.prefill).toEqual({ id: 'u-7' });
    const withoutRole = operationsFor(catalog, 'users', 'v2', { id: 'u-7' }).find((op) => op.id === 'role_of_user')!;
    expect(withoutRole.missing).toEqual(['role_id']);
    expect(withoutRole.fillsFromRecord).toBe(false);
  });

  it('uses the named version and is empty for unknown resources or versions', () => {
    expect(operationsFor(catalog, 'users', 'v1').map((op) => op.id)).toEqual(['get_user']);
    expect(operationsFor(catalog, 'nothing', undefined)).toEqual([]);
    expect(operationsFor(catalog, 'users', 'v9')).toEqual([]);
  });
});
