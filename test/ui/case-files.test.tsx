// Case files in the explorer, on the demo: watch mode highlights what changed and asks with
// If-None-Match; a watched record keeps its versions, each showing what changed since the one before;
// d shows a record beside itself in another version.
import { afterEach, describe, expect, it } from 'vitest';
import type { ListState } from '../../src/ui/screens/list/state.js';
import type { RecordState } from '../../src/ui/screens/record/state.js';
import { demoRequest, useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo({ taskSpeed: 40 });
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const RUNNING = encodeURIComponent('{"status":{"$eq":"in_progress"}}');
const top = (mounted: Mounted) => mounted.navigator.top()!;

describe('watching', () => {
  it('w on a list highlights the cells that changed since the last refresh, and asks with If-None-Match', async () => {
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'tasks', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the tasks list');
    await ui.press('f', 'status', KEY.enter, '$eq', KEY.enter, 'in_progress', KEY.enter, KEY.enter);
    await ui.waitFor((f) => f.includes('(filtered)') && /page 1\//.test(f), 'the running tasks');
    await ui.press('w');
    await ui.waitFor(
      () => ((top(ui!).state as ListState).changes?.fields.size ?? 0) > 0,
      'a refresh that changed a row',
    );
    const { changes, pages } = top(ui).state as ListState;
    const [row, fields] = [...changes!.fields][0]!;
    expect(pages[0]!.items).toContain(row);
    expect([...fields]).toContain('progress_percentage');
    // Once the page's self link has been read with an ETag, every poll after it is conditional.
    await ui.waitFor(
      () => /^W\//.test(ui!.session.lastExchange?.request.headers['if-none-match'] ?? ''),
      'a poll with If-None-Match',
    );
  });

  it('w on a record keeps its versions; [ and ] go through them, each with what changed since the one before', async () => {
    const task = (await demoRequest(demo.region, `/tasks?limit=1&filter=${RUNNING}`)).body._embedded.items[0];
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'tasks get_task', KEY.enter);
    await ui.waitFor((f) => f.includes('task_id'), 'the question for the task');
    await ui.press(task.id, KEY.enter);
    await ui.waitFor((f) => f.includes(`id: "${task.id}"`), 'the task');
    await ui.press('w');
    await ui.waitFor(() => (top(ui!).state as RecordState).versions.length >= 3, 'three versions');
    // Watching stops with w again, and the versions kept stay: with no read on its way (a poll in flight
    // would add one more), the versions are what the keys below go through.
    await ui.press('w');
    await ui.waitFor(
      (f) =>
        f.includes('watch stopped') &&
        !(top(ui!).state as RecordState).watch &&
        (top(ui!).state as RecordState).loading === undefined,
      'the watch stopped, no read on its way',
    );
    const kept = (top(ui).state as RecordState).versions.length;
    expect(kept).toBeGreaterThanOrEqual(3);
    const newest = await ui.waitFor(
      (f) => f.includes(`version ${kept} of ${kept} (newest)`),
      'the newest version on show',
    );
    expect(newest).toMatch(/progress_percentage: \d+ {2}\(was \d+\)/);
    await ui.press('[');
    const older = await ui.waitFor(
      (f) => /version \d+ of \d+ ·/.test(f) && !f.includes('(newest)'),
      'an older version',
    );
    const state = top(ui).state as RecordState;
    expect(state.shown).toBe(state.versions.length - 2);
    expect(older).toContain(`progress_percentage: ${state.versions[state.shown]!['progress_percentage']}`);
    await ui.press(']');
    await ui.waitFor((f) => f.includes('(newest)'), 'the newest again');
  });
});

describe('d on a record', () => {
  /** The first user, opened in v2, and d's choice of v1 taken: the diff on its way. */
  async function diffOfFirstUser(size: {
    rows: number;
    columns?: number;
  }): Promise<{ user: { id: string }; view: Mounted }> {
    const user = (await demoRequest(demo.region, '/users?limit=1')).body._embedded.items[0] as { id: string };
    ui = await mount(demo.region, { rows: size.rows });
    if (size.columns !== undefined) ui.navigator.resize(size.columns, size.rows);
    await ui.press(':', 'users', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the users list');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes(`id: "${user.id}"`), 'the user');
    await ui.press('d');
    await ui.waitFor((f) => f.includes('compare users') && f.includes('version v1'), 'the choice');
    await ui.press('version v1', KEY.enter);
    return { user, view: ui };
  }
  it('shows a user in v2 beside the same user in v1: fields of one side only, and renamed fields paired by value', async () => {
    const { user, view } = await diffOfFirstUser({ rows: 40 });
    const diff = await view.waitFor((f) => f.includes('diff v2 ↔ v1') && f.includes('FIELD'), 'the diff');
    expect(diff).toMatch(/≈ email \/ username/);
    expect(diff).toMatch(/renamed/);
    await view.press('a');
    await view.waitFor((f) => /^ {2}id +\S/m.test(f) && f.includes(user.id.slice(0, 20)), 'every field');
  });

  it('at 80 columns, every field shows both sides at once, each value cut to fit, and Enter shows a row whole', async () => {
    const { user, view } = await diffOfFirstUser({ rows: 24, columns: 80 });
    // Every field: the ids (a whole UUID on each side) make the two sides wider than 80 columns together.
    await view.waitFor((f) => f.includes('FIELD') && f.includes('renamed'), 'the diff');
    await view.press('a');
    const lines = (frame: string) => frame.split('\n');
    const heading = (frame: string) => lines(frame).find((line) => line.trimStart().startsWith('FIELD')) ?? '';
    const idRow = new RegExp(`^ {2}id +${user.id.slice(0, 8)}\\S*… +${user.id.slice(0, 8)}\\S*…`, 'm');
    const all = await view.waitFor((f) => /^ {2}id +\S/m.test(f), 'every field');
    expect(lines(all).every((line) => line.length <= 80)).toBe(true);
    // Both sides on screen, the field kept: no side is scrolled off; a value that does not fit is cut.
    expect(heading(all)).toMatch(/^ {2}FIELD +v2 +v1/);
    expect(all).toMatch(idRow);
    expect(all).not.toMatch(/\[cols/);
    await view.press('>');
    expect(heading(await view.waitFor((f) => idRow.test(f), 'both sides still'))).toMatch(/^ {2}FIELD +v2 +v1/);
    // The whole value is one key away: Enter on the id row shows it on each side, uncut.
    const rowsBefore = lines(all).slice(lines(all).indexOf(heading(all)) + 1);
    const index = rowsBefore.findIndex((line) => idRow.test(line));
    for (let i = 0; i < index; i++) await view.press('j');
    await view.press(KEY.enter);
    const whole = await view.waitFor(
      (f) => lines(f).filter((line) => line.trim() === user.id).length === 2,
      "the id row's values whole",
    );
    expect(whole).toMatch(/^ {2}id · Enter or Esc: the table/m);
    await view.press(KEY.escape);
    await view.waitFor((f) => idRow.test(f), 'the table again');
  });
});
