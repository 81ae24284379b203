import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/api/hal/catalog.js';
import { editInEditor, withTerminalSuspended } from '../../../src/ui/editor.js';
import { deleteConfirmationWord } from '../../../src/api/security/safety.js';
import { findFollowableTask, type ResponseLike } from '../../../src/api/operations/task.js';

const catalog = parseCatalog(
  {
    jobs: {
      supported_versions: ['v1', 'v2'],
      v2: { get_job: { href: '/jobs/{job_id}', type: 'get' } },
      v1: { get_job: { href: '/jobs/{job_id}', type: 'get' } },
    },
    backups: { supported_versions: ['v1'], v1: { get_backup: { href: '/backups/{backup_id}', type: 'get' } } },
    exports: { supported_versions: ['v1'], v1: { create_export: { href: '/exports', type: 'post' } } },
  },
  'acme',
);

function accepted(body: unknown, extra: Partial<ResponseLike> = {}): ResponseLike {
  return { status: 202, headers: {}, body, url: 'http://h:1/api/exports', contentType: 'application/json', ...extra };
}

describe('findFollowableTask', () => {
  it('follows a Location header into a resource of the index', () => {
    expect(findFollowableTask(accepted({}, { headers: { Location: '/api/jobs/j-1' } }), catalog)).toMatchObject({
      kind: 'link',
      href: 'http://h:1/api/jobs/j-1',
      resource: 'jobs',
      version: 'v2',
      taskId: 'j-1',
    });
  });

  it('prefers a link whose relation names its resource over other links', () => {
    const body = {
      id: 'e-1',
      _links: { self: { href: '/exports/e-1' }, source: { href: '/backups/b-1' }, job: { href: '/jobs/j-2' } },
    };
    expect(findFollowableTask(accepted(body), catalog)).toMatchObject({
      kind: 'link',
      resource: 'jobs',
      taskId: 'j-2',
      reason: 'link "job"',
    });
  });

  it('reads a task body by the resource its media type names', () => {
    const found = findFollowableTask(
      accepted({ id: 'j-3', status: 'queued' }, { contentType: 'application/api.acme.jobs=v1+json' }),
      catalog,
    );
    expect(found).toMatchObject({
      kind: 'operation',
      resource: 'jobs',
      version: 'v1',
      operationId: 'get_job',
      variables: { job_id: 'j-3' },
    });
  });

  it('uses a single <x>_id field that addresses a resource, and gives up when several do', () => {
    expect(findFollowableTask(accepted({ job_id: 'j-4' }), catalog)).toMatchObject({
      kind: 'operation',
      resource: 'jobs',
      variables: { job_id: 'j-4' },
    });
    expect(findFollowableTask(accepted({ job_id: 'j-4', backup_id: 'b-1' }), catalog)).toBeUndefined();
  });

  it('names nothing outside a 202 or without evidence', () => {
    expect(findFollowableTask({ ...accepted({ job_id: 'j' }), status: 200 }, catalog)).toBeUndefined();
    expect(findFollowableTask(accepted({ id: 'x', status: 'queued' }), catalog)).toBeUndefined();
    expect(findFollowableTask(accepted('text'), catalog)).toBeUndefined();
  });
});

describe('deleteConfirmationWord', () => {
  const request = {
    method: 'DELETE',
    url: 'http://h:1/policies/p%20one',
    headers: {},
    resource: 'policies',
    version: 'v1',
    operationId: 'delete_policy',
  };
  it('is the record id when the URL addresses it, else the last path segment decoded', () => {
    expect(deleteConfirmationWord(request, { id: 'p one' })).toBe('p one');
    expect(deleteConfirmationWord(request, { id: 'other' })).toBe('p one');
    expect(deleteConfirmationWord(request)).toBe('p one');
  });
});

describe('editInEditor', () => {
  it('runs $VISUAL through the shell with the file, and reads it back', async () => {
    const edited = await editInEditor('{"a": 1}', { ...process.env, VISUAL: "sed -i 's/1/2/'", EDITOR: 'false' });
    expect(edited).toBe('{"a": 2}');
  });

  it('reports an editor that fails and keeps nothing', async () => {
    await expect(editInEditor('x', { PATH: process.env['PATH'], EDITOR: 'false' })).rejects.toThrow(
      /exited with status 1; the body is unchanged/,
    );
  });

  it('hands the terminal back even when the work fails', async () => {
    const events: string[] = [];
    const control = { suspend: () => events.push('suspend'), resume: () => events.push('resume') };
    await expect(withTerminalSuspended(control, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(events).toEqual(['suspend', 'resume']);
  });
});
