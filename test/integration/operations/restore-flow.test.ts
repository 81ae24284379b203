// The whole "try an operation" flow against the demo control plane over HTTP, without the UI.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError, SafetyError } from '../../../src/api/errors.js';
import { operationsFor } from '../../../src/api/operations/available.js';
import { loadBodySchema } from '../../../src/api/operations/body.js';
import {
  createOperationForm,
  formProblems,
  toRequestTarget,
  withBody,
  withOu,
} from '../../../src/api/operations/form.js';
import { previewRequest } from '../../../src/api/operations/preview.js';
import { confirmationLines, writeRefusal } from '../../../src/api/security/safety.js';
import { findFollowableTask, followTask, taskRequest, type TaskState } from '../../../src/api/operations/task.js';
import { toCurl } from '../../../src/api/security/curl.js';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';

const run = promisify(execFile);
const demo = useDemo({ taskSpeed: 60 });

function session(readOnly: boolean): Session {
  return new Session({
    baseUrl: demo.region.baseUrl,
    token: demo.region.tokens.personal,
    readOnly,
    retryBaseDelayMs: 10,
  });
}

/** The create operation of the restores resource, found the way the explorer finds it: from the index. */
async function restoreForm(s: Session) {
  const catalog = await s.catalog();
  const resource = catalog.resources.find((r) => r.name === 'restores')!;
  const version = resource.defaultVersion;
  const create = operationsFor(catalog, resource.name, version).find(
    (op) => op.method === 'POST' && op.operation.pathVariables.length === 0,
  )!;
  const schema = await loadBodySchema({ resource: resource.name, version, operationId: create.id });
  const form = createOperationForm({
    resource: resource.name,
    version,
    operation: create.operation,
    ...(schema ? { bodySchema: schema.schema } : {}),
  });
  return { catalog, form, schema };
}

async function someBackupId(s: Session): Promise<string> {
  const list = await s.send(
    await s.prepare({ resource: 'backups', operationId: 'list_backups', query: { limit: '1' } }),
  );
  const items = (list.body as { _embedded: { items: { id: string }[] } })._embedded.items;
  return items[0]!.id;
}

describe('restore → task, end to end', () => {
  it('starts a restore discovered in the index and follows its task to a final state', async () => {
    const s = session(false);
    const { catalog, form, schema } = await restoreForm(s);
    expect(schema, 'the demo ships a body schema for the restore').toBeDefined();
    // The template from the schema is not yet a valid body: the backup id is a placeholder.
    expect(formProblems(form, schema).map((p) => p.where)).toContain('/backup_id');
    const filled = withBody(form, JSON.stringify({ backup_id: await someBackupId(s) }));
    expect(formProblems(filled, schema)).toEqual([]);

    const request = await s.prepare(toRequestTarget(filled));
    expect(request.method).toBe('POST');
    const response = await s.send(request);
    expect(response.status).toBe(202);

    const followable = findFollowableTask(response, catalog);
    expect(followable).toBeDefined();
    const taskId = (response.body as { id: string }).id;
    expect(followable!.taskId).toBe(taskId);

    const states: TaskState[] = [];
    for await (const state of followTask(s, await taskRequest(s, followable!), { intervalMs: 50 })) states.push(state);
    const last = states[states.length - 1]!;
    expect(last.final).toBe(true);
    expect(['completed', 'failed']).toContain(last.status);
    expect(last.record['id']).toBe(taskId);
    expect(states.slice(0, -1).every((state) => !state.final)).toBe(true);
    const progress = states.map((state) => state.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    if (last.status === 'completed') expect(last.progress).toBe(100);
  });

  it('stops following when the signal aborts', async () => {
    const s = session(false);
    const { catalog, form } = await restoreForm(s);
    const response = await s.send(
      await s.prepare(toRequestTarget(withBody(form, JSON.stringify({ backup_id: await someBackupId(s) })))),
    );
    const controller = new AbortController();
    const seen: TaskState[] = [];
    const following = (async () => {
      for await (const state of followTask(s, await taskRequest(s, findFollowableTask(response, catalog)!), {
        intervalMs: 10_000,
        signal: controller.signal,
      }))
        seen.push(state);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(following).rejects.toThrow(/abort/i);
    expect(seen).toHaveLength(1);
  });
});

describe('read-only mode', () => {
  it('refuses a write before anything reaches the server', async () => {
    const s = session(true);
    const { form } = await restoreForm(s);
    const request = await s.prepare(
      toRequestTarget(withBody(form, '{"backup_id":"00000000-0000-0000-0000-000000000000"}')),
    );
    const refusal = writeRefusal(request.method, s.readOnly);
    expect(refusal).toBeInstanceOf(SafetyError);
    expect(refusal!.message).toContain('POST');
    expect(refusal!.hint).toContain('--allow-writes');
    const before = demo.region.requestCount();
    await expect(s.send(request)).rejects.toBeInstanceOf(SafetyError);
    expect(demo.region.requestCount()).toBe(before);
  });

  it('lets reads through', () => {
    expect(writeRefusal('GET', true)).toBeUndefined();
    expect(writeRefusal('HEAD', true)).toBeUndefined();
    expect(writeRefusal('DELETE', false)).toBeUndefined();
  });
});

describe('confirmation and preview', () => {
  it('names method, resource, control plane and OU; the preview masks the token', async () => {
    const s = session(false);
    const { form } = await restoreForm(s);
    const ou = '11111111-2222-3333-4444-555555555555';
    const request = await s.prepare(toRequestTarget(withOu(withBody(form, '{"backup_id":"x"}'), ou)));
    const text = confirmationLines(request, { baseUrl: s.baseUrl, ouName: 'Finance' }).join('\n');
    expect(text).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(text).toContain('operation: restores create_restore');
    expect(text).toContain(demo.region.baseUrl);
    expect(text).toContain(`Finance (${ou})`);

    const preview = previewRequest(request, { authenticated: true, ouName: 'Finance' });
    const shown = preview.lines.join('\n');
    expect(shown).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(shown).toContain('authorization: Bearer ***');
    expect(shown).toContain(`${s.ouHeader.toLowerCase()}: ${ou}`);
    expect(shown).toContain(`OU: Finance (${ou})`);
    expect(shown).toContain('"backup_id": "x"');
    expect(text).toContain('body (17 bytes, shown indented; sent as given):');
    expect(text).toContain('authorization: Bearer ***');
    expect(shown + preview.curl).not.toContain(demo.region.tokens.personal);
  });
});

describe('the copied curl command', () => {
  async function viaCurl(command: string): Promise<{ status: number; body: unknown }> {
    const { stdout } = await run('bash', ['-c', `${command} -sS -w '\\n%{http_code}'`], {
      env: { ...process.env, DPX_TOKEN: demo.region.tokens.personal },
    });
    const cut = stdout.lastIndexOf('\n');
    return { status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) };
  }

  it('gets the same response as dpx for a read', async () => {
    const s = session(false);
    const catalog = await s.catalog();
    const read = operationsFor(catalog, 'backups', undefined, { id: await someBackupId(s) }).find(
      (op) => op.method === 'GET' && op.fillsFromRecord,
    )!;
    const request = await s.prepare({ resource: 'backups', operationId: read.id, variables: read.prefill });
    const mine = await s.send(request);
    const theirs = await viaCurl(toCurl(request));
    expect(theirs.status).toBe(mine.status);
    expect(theirs.body).toEqual(mine.body);
  });

  it('gets the same error as dpx for a write the server rejects', async () => {
    const s = session(false);
    const { form } = await restoreForm(s);
    const request = await s.prepare(
      toRequestTarget(withBody(form, '{"backup_id":"00000000-0000-4000-8000-000000000000"}')),
    );
    const mine = await s.send(request).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(mine).toBeInstanceOf(ApiError);
    const theirs = await viaCurl(toCurl(request));
    expect(theirs.status).toBe((mine as ApiError).status);
    const envelope = (theirs.body as { errors: { error_code: string; error_message: string }[] }).errors;
    expect(envelope.map((e) => ({ code: e.error_code, message: e.error_message }))).toEqual((mine as ApiError).errors);
  });
});
