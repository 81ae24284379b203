// The explorer's `x` flow on the demo control plane: choose, fill, preview, confirm, response, task.
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';
import { BACKSPACE, DOWN, ENTER, ESC, openScreen, topKind, type OpenScreen } from './harness.js';

const demo = useDemo({ taskSpeed: 60 });

async function setUp(readOnly: boolean) {
  const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, readOnly });
  const list = await session.send(
    await session.prepare({ resource: 'backups', operationId: 'list_backups', query: { limit: '1' } }),
  );
  const backupId = (list.body as { _embedded: { items: { id: string }[] } })._embedded.items[0]!.id;
  return { session, backupId };
}

/** Moves the cursor to the row of the list that mentions `text`. */
async function choose(ui: OpenScreen, text: string): Promise<void> {
  const frame = await ui.waitFor((f) => f.includes(text), text);
  const rows = frame.split('\n').filter((row) => /^[● ] \S/.test(row));
  const index = rows.findIndex((row) => row.includes(text));
  expect(index).toBeGreaterThanOrEqual(0);
  await ui.press(...Array.from({ length: index }, () => DOWN), ENTER);
}

describe('the operation screens', () => {
  it('a filter variable opens the filter builder, with the fields the record schema lists; its filter fills the variable', async () => {
    const { session } = await setUp(false);
    const ui = await openScreen('operations', (origin) => ({ origin, resource: 'tasks', version: 'v1' }), { session });
    await choose(ui, 'list_tasks');
    await ui.waitFor((f) => f.includes('GET tasks v1 · list_tasks') && f.includes('Enter builds it'), 'the form');
    await ui.press(DOWN, DOWN, ENTER);
    const builder = await ui.waitFor((f) => f.includes('initiated_by.type'), 'the filter builder');
    expect(topKind(ui)).toBe('filter');
    expect(builder).toContain('status');
    const state = ui.navigator.top()!.state as {
      apply(conditions: { field: string; operator: string; value: string }[]): void;
    };
    state.apply([{ field: 'status', operator: '$eq', value: 'failed' }]);
    await ui.press(ESC);
    await ui.waitFor((f) => f.includes('filter = {"status":{"$eq":"failed"}}'), 'the filter in its variable');
    await ui.unmount();
  });

  it('starts a restore, confirms it, and follows its task to the end', async () => {
    const { session, backupId } = await setUp(false);
    const ui = await openScreen('operations', (origin) => ({ origin, resource: 'restores', version: 'v1' }), {
      session,
      taskIntervalMs: 50,
    });
    await choose(ui, 'create_restore');
    await ui.waitFor((f) => f.includes('POST restores v1 · create_restore'), 'the screen');
    // Focus the body, clear the template, type a real body.
    await ui.press('b', '\x15');
    await ui.press(`{"backup_id": "${backupId}"}`, ESC);
    await ui.waitFor((f) => !f.includes('✗'), 'the screen');
    await ui.press('p');
    const preview = await ui.waitFor((f) => f.includes('Request preview'), 'the screen');
    expect(preview).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(preview).toContain('authorization: Bearer ***');
    await ui.press(ENTER);
    const confirm = await ui.waitFor((f) => f.includes('Send this POST?'), 'the screen');
    expect(confirm).toContain(`control plane: ${demo.region.baseUrl}`);
    const before = demo.region.requestCount();
    await ui.press('y');
    // The answer itself: "202" alone also stands in any date of 2026 on the screen.
    const response = await ui.waitFor((f) => f.includes('t follow the task'), 'the response screen');
    expect(demo.region.requestCount() - before).toBe(1);
    expect(response).toMatch(/\b202\b/);
    await ui.press('t');
    const done = await ui.waitFor((f) => /finished|ended without success/.test(f), 'the screen');
    expect(done).toMatch(/status (completed|failed)/);
    await ui.unmount();
  });

  it('in read-only mode says so up front and sends nothing', async () => {
    const { session, backupId } = await setUp(true);
    const ui = await openScreen('operations', (origin) => ({ origin, resource: 'restores', version: 'v1' }), {
      session,
    });
    const before = demo.region.requestCount();
    await ui.waitFor((f) => f.includes('read-only: writes'), 'the screen');
    await choose(ui, 'create_restore');
    await ui.waitFor((f) => f.includes('read-only mode: POST changes data and was not sent'), 'the screen');
    await ui.press('b', '\x15', `{"backup_id": "${backupId}"}`, ESC, 'p');
    await ui.waitFor((f) => f.includes('Request preview'), 'the screen');
    await ui.press(ENTER, 'y', ENTER);
    const frame = await ui.waitFor((f) => f.includes('Request preview'), 'the screen');
    expect(frame).toContain('--allow-writes');
    expect(frame).not.toContain('Send this POST?');
    expect(demo.region.requestCount()).toBe(before);
    await ui.unmount();
  });

  it('a DELETE opened from a record asks for its id', async () => {
    const { session } = await setUp(false);
    const record = { id: 'not-a-real-policy' };
    const ui = await openScreen('operations', (origin) => ({ origin, resource: 'policies', version: 'v1', record }), {
      session,
    });
    await choose(ui, 'delete_policy');
    await ui.waitFor((f) => f.includes('DELETE policies v1'), 'the screen');
    await ui.press('p');
    await ui.waitFor((f) => f.includes('Request preview'), 'the screen');
    await ui.press(ENTER);
    await ui.waitFor((f) => f.includes('Type not-a-real-policy to delete it'), 'the screen');
    const before = demo.region.requestCount();
    await ui.press('y', ENTER);
    await ui.waitFor((f) => f.includes('nothing was sent'), 'the screen');
    expect(demo.region.requestCount()).toBe(before);
    await ui.press(BACKSPACE, 'not-a-real-policy', ENTER);
    const answer = await ui.waitFor((f) => f.includes('HTTP 404'), 'the screen');
    expect(answer).toMatch(/\[\w+\] /);
    expect(demo.region.requestCount() - before).toBe(1);
    await ui.unmount();
  });
});
