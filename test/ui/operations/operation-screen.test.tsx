// The explorer's `x` flow on the demo control plane: choose, fill, preview, confirm, response, task.
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session.js';
import { OperationScreen } from '../../../src/ui/operations/operation-screen.js';
import { useDemo } from '../../helpers/demo.js';
import { BACKSPACE, DOWN, ENTER, ESC, mount, press, unmount, until } from './harness.js';

const demo = useDemo({ taskSpeed: 60 });

async function setUp(readOnly: boolean) {
  const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, readOnly });
  const catalog = await session.catalog();
  const list = await session.send(await session.prepare({ resource: 'backups', operationId: 'list_backups', query: { limit: '1' } }));
  const backupId = (list.body as { _embedded: { items: { id: string }[] } })._embedded.items[0]!.id;
  return { session, catalog, backupId };
}

/** Moves the cursor to the row of the list that mentions `text`. */
async function choose(ui: Awaited<ReturnType<typeof mount>>, text: string): Promise<void> {
  const frame = await until(ui, (f) => f.includes(text));
  const rows = frame.split('\n').filter((row) => /^[● ] \S/.test(row));
  const index = rows.findIndex((row) => row.includes(text));
  expect(index).toBeGreaterThanOrEqual(0);
  await press(ui, ...Array.from({ length: index }, () => DOWN), ENTER);
}

describe('OperationScreen', () => {
  it('starts a restore, confirms it, and follows its task to the end', async () => {
    const { session, catalog, backupId } = await setUp(false);
    const ui = await mount(<OperationScreen session={session} catalog={catalog} resource="restores" version="v1" copy={() => undefined} taskIntervalMs={50} onClose={() => undefined} />);
    await choose(ui, 'create_restore');
    await until(ui, (f) => f.includes('POST restores v1 · create_restore'));
    // Focus the body, clear the template, type a real body.
    await press(ui, DOWN, ENTER, '\x15');
    await press(ui, `{"backup_id": "${backupId}"}`, ESC);
    await until(ui, (f) => !f.includes('✗'));
    await press(ui, 'p');
    const preview = await until(ui, (f) => f.includes('Request preview'));
    expect(preview).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(preview).toContain('authorization: Bearer ***');
    await press(ui, ENTER);
    const confirm = await until(ui, (f) => f.includes('Send this POST?'));
    expect(confirm).toContain(`control plane: ${demo.region.baseUrl}`);
    const before = demo.region.requestCount();
    await press(ui, 'y');
    const response = await until(ui, (f) => f.includes('202'));
    expect(demo.region.requestCount() - before).toBe(1);
    expect(response).toContain('t follow the task');
    await press(ui, 't');
    const done = await until(ui, (f) => /finished|ended without success/.test(f), 15_000);
    expect(done).toMatch(/status (completed|failed)/);
    await unmount(ui);
  });

  it('in read-only mode says so up front and sends nothing', async () => {
    const { session, catalog, backupId } = await setUp(true);
    const before = demo.region.requestCount();
    const ui = await mount(<OperationScreen session={session} catalog={catalog} resource="restores" version="v1" copy={() => undefined} onClose={() => undefined} />);
    await until(ui, (f) => f.includes('read-only: writes'));
    await choose(ui, 'create_restore');
    await until(ui, (f) => f.includes('read-only mode: POST changes data and was not sent'));
    await press(ui, DOWN, ENTER, '\x15', `{"backup_id": "${backupId}"}`, ESC, 'p');
    await until(ui, (f) => f.includes('Request preview'));
    await press(ui, ENTER, 'y', ENTER);
    const frame = await until(ui, (f) => f.includes('Request preview'));
    expect(frame).toContain('--allow-writes');
    expect(frame).not.toContain('Send this POST?');
    expect(demo.region.requestCount()).toBe(before);
    await unmount(ui);
  });

  it('a DELETE opened from a record asks for its id', async () => {
    const { session, catalog } = await setUp(false);
    const record = { id: 'not-a-real-policy' };
    const ui = await mount(<OperationScreen session={session} catalog={catalog} resource="policies" version="v1" record={record} copy={() => undefined} onClose={() => undefined} />);
    await choose(ui, 'delete_policy');
    await until(ui, (f) => f.includes('DELETE policies v1'));
    await press(ui, 'p');
    await until(ui, (f) => f.includes('Request preview'));
    await press(ui, ENTER);
    await until(ui, (f) => f.includes('Type not-a-real-policy to delete it'));
    const before = demo.region.requestCount();
    await press(ui, 'y', ENTER);
    await until(ui, (f) => f.includes('nothing was sent'));
    expect(demo.region.requestCount()).toBe(before);
    await press(ui, BACKSPACE, 'not-a-real-policy', ENTER);
    const answer = await until(ui, (f) => f.includes('HTTP 404'));
    expect(answer).toMatch(/\[\w+\] /);
    expect(demo.region.requestCount() - before).toBe(1);
    await unmount(ui);
  });
});
