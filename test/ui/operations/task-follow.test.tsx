import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session.js';
import { TaskFollow } from '../../../src/ui/operations/task-follow.js';
import { useDemo } from '../../helpers/demo.js';
import { ENTER, mount, press, unmount, until } from './harness.js';

const demo = useDemo({ taskSpeed: 30 });

describe('TaskFollow', () => {
  it('polls a running task with a progress bar until it is final, then offers the record', async () => {
    const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const backups = await session.send(await session.prepare({ resource: 'backups', operationId: 'list_backups', query: { limit: '1' } }));
    const backupId = (backups.body as { _embedded: { items: { id: string }[] } })._embedded.items[0]!.id;
    const started = await session.send(await session.prepare({ resource: 'restores', operationId: 'create_restore', body: JSON.stringify({ backup_id: backupId }) }));
    const taskId = (started.body as { id: string }).id;
    const request = await session.prepare({ resource: 'tasks', operationId: 'get_task', variables: { task_id: taskId } });
    const opened: Record<string, unknown>[] = [];
    const ui = await mount(<TaskFollow session={session} request={request} intervalMs={40} onOpenResult={(r) => opened.push(r)} onBack={() => undefined} />);
    const first = await until(ui, (f) => f.includes('status '));
    expect(first).toMatch(/status (queued|in_progress)/);
    expect(first).toMatch(/[█░]+\s+\d+%/);
    const last = await until(ui, (f) => f.includes('final'), 10_000);
    expect(last).toMatch(/status (completed|failed)/);
    expect(last).toContain(`id: ${taskId}`);
    await press(ui, ENTER);
    expect(opened.map((r) => r['id'])).toEqual([taskId]);
    await unmount(ui);
  });
});
