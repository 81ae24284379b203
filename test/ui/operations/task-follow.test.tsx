// A task followed live on the demo until it ends; Enter then opens its record in the record view.
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import type { RecordState } from '../../../src/ui/screens/record/state.js';
import { useDemo } from '../../helpers/demo.js';
import { ENTER, openScreen, topKind } from './harness.js';

// A restore queues 3 s and runs 30 s of the demo's time: at 10 times its speed, 3.3 s. At 30 times (1.1 s)
// a busy machine took longer to mount the explorer, and the first poll found the task already ended.
const demo = useDemo({ taskSpeed: 10 });

describe('the task screen', () => {
  it('polls a running task with a progress bar until it is final, then opens the record', async () => {
    const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const backups = await session.send(
      await session.prepare({ resource: 'backups', operationId: 'list_backups', query: { limit: '1' } }),
    );
    const backupId = (backups.body as { _embedded: { items: { id: string }[] } })._embedded.items[0]!.id;
    const started = await session.send(
      await session.prepare({
        resource: 'restores',
        operationId: 'create_restore',
        body: JSON.stringify({ backup_id: backupId }),
      }),
    );
    const taskId = (started.body as { id: string }).id;
    const request = await session.prepare({
      resource: 'tasks',
      operationId: 'get_task',
      variables: { task_id: taskId },
    });
    const ui = await openScreen(
      'task',
      (origin, navigator) => ({ flow: { origin, start: navigator.top()!.id }, request }),
      { session, taskIntervalMs: 40 },
    );
    const first = await ui.waitFor((f) => f.includes('status '), 'the first poll');
    expect(first).toMatch(/status (queued|in_progress)/);
    expect(first).toMatch(/[█░]+\s+\d+%/);
    const last = await ui.waitFor((f) => f.includes('final'), 'the end');
    expect(last).toMatch(/status (completed|failed)/);
    expect(last).toContain(`id: ${taskId}`);
    await ui.press(ENTER);
    expect(topKind(ui)).toBe('record');
    expect((ui.navigator.top()!.state as RecordState).record['id']).toBe(taskId);
    await ui.unmount();
  });
});
