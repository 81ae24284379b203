// X-ray in the explorer, on the demo: a failed restore task's links as a tree that fills in, the tasks
// that name a backup, the history, and Enter opening a record of the tree; N reads id columns as names,
// and byte counts read as KiB/MiB/GiB in lists.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { filterCache } from '../../src/config/cache.js';
import { demoRequest, useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
let ui: Mounted | undefined;
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

const FAILED_RESTORES = '{"category":{"$eq":"restore"},"status":{"$eq":"failed"}}';

/** Opens the first failed restore task's record. */
async function failedRestore(mounted: Mounted): Promise<Record<string, any>> {
  const task = (await demoRequest(demo.region, `/tasks?limit=1&filter=${encodeURIComponent(FAILED_RESTORES)}`)).body
    ._embedded.items[0];
  await mounted.press(':', 'tasks get_task', KEY.enter);
  await mounted.waitFor((f) => f.includes('task_id'), 'the question for the task');
  await mounted.press(task.id, KEY.enter);
  await mounted.waitFor((f) => f.includes(`id: "${task.id}"`), 'the task record');
  return task;
}

describe('x-ray in the explorer', () => {
  it('X on a restore task shows its backup, protection group and unit as a tree; Enter opens the backup', async () => {
    ui = await mount(demo.region, { rows: 45 });
    const task = await failedRestore(ui);
    const backup = (await demoRequest(demo.region, `/backups/${task.backup_id}`)).body;
    await ui.press('X');
    const tree = await ui.waitFor(
      (f) =>
        f.includes('links (depth 2)') &&
        f.includes(`backup → backups`) &&
        f.includes('protection_group → protection-groups') &&
        !f.includes(' …'),
      'the tree',
    );
    expect(tree).toMatch(/organizational_unit → organizational-units/);
    expect(tree).toContain('referred to by');
    expect(tree).toContain(backup.id.slice(0, 13));
    // Down a line at a time until the cursor is on the backup: the tree's second level may still be
    // coming in above it.
    const onBackup = (f: string) =>
      f
        .split('\n')
        .find((line) => line.startsWith('›'))
        ?.includes('backup → backups') === true;
    for (let i = 0; i < 30 && !onBackup(ui.frame()); i++) await ui.press(KEY.down);
    await ui.waitFor(onBackup, 'the cursor on the backup');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes(`id: "${backup.id}"`) && f.includes('x-ray ›'), "the backup's record");
  });

  it('X on a backup finds the tasks that name it, and h shows them as a history', async () => {
    const backup = (await demoRequest(demo.region, '/backups?limit=1')).body._embedded.items[0];
    const naming = (
      await demoRequest(
        demo.region,
        `/tasks?limit=1&filter=${encodeURIComponent(JSON.stringify({ backup_id: { $eq: backup.id } }))}`,
      )
    ).body;
    ui = await mount(demo.region, { rows: 45 });
    await ui.press(':', 'backups', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the backups list');
    await ui.press('X');
    const tree = await ui.waitFor((f) => f.includes('tasks by backup_id:'), 'the inbound tasks');
    expect(tree).toMatch(new RegExp(`tasks by backup_id: ${naming.total_count}\\b`));
    await ui.press('h');
    const history = await ui.waitFor(
      (f) => f.includes('history, newest first') || f.includes('carries a timestamp'),
      'the history',
    );
    if (naming.total_count > 0) expect(history).toMatch(/\d+[smhd] ago/);
  });
});

describe('lists read for people', () => {
  it('a list shows the name of the protection group an id refers to beside the id, by default; N shows the ids alone; the record keeps the id with its name beside it', async () => {
    const backup = (await demoRequest(demo.region, '/backups?limit=1')).body._embedded.items[0];
    const group = (await demoRequest(demo.region, `/protection-groups/${backup.protection_group_id}`)).body;
    const page = (await demoRequest(demo.region, '/backups?limit=30')).body._embedded.items as Record<string, string>[];
    const distinct = new Set(
      page.flatMap((row) =>
        ['protection_group_id', 'organizational_unit_id', 'task_id']
          .map((field) => `${field}:${row[field]}`)
          .filter((key) => !key.endsWith(':null')),
      ),
    );
    ui = await mount(demo.region, { rows: 30 });
    await ui.waitFor((f) => f.includes('/ to filter'), 'the catalog');
    const before = demo.region.requestCount();
    await ui.press(':', 'backups', KEY.enter);
    const named = await ui.waitFor(
      (f) => f.includes(`${group.name} · ${String(backup.protection_group_id).slice(0, 8)}…`),
      "the group's name beside its id",
    );
    expect(named).toMatch(/page 1\//);
    // Only the ids on screen are read, each once: never more than one request per distinct id of the page,
    // besides the pages, the unit tree (units are named from it) and the index.
    expect(demo.region.requestCount() - before).toBeLessThanOrEqual(distinct.size + 6);
    await ui.press('N');
    await ui.waitFor((f) => !f.includes(group.name), 'the ids alone');
    await ui.press(KEY.enter);
    // The record keeps the whole id, and names it from what the list read: no request of its own.
    const beforeRecord = demo.region.requestCount();
    const record = await ui.waitFor(
      (f) => f.includes(`protection_group_id: "${backup.protection_group_id}"`),
      'the id in the record',
    );
    expect(record).toContain(`protection_group_id: "${backup.protection_group_id}" · ${group.name}`);
    expect(demo.region.requestCount()).toBe(beforeRecord);
  });

  it('byte counts read as KiB, MiB or GiB in a list and exactly in the record', async () => {
    const backup = (await demoRequest(demo.region, '/backups?limit=1')).body._embedded.items[0];
    ui = await mount(demo.region, { rows: 30, context: {} });
    await ui.press(':', 'backups', KEY.enter);
    await ui.waitFor((f) => /page 1\//.test(f), 'the backups list');
    // The ids alone leave room at 100 columns for the sizes.
    await ui.press('N');
    await ui.waitFor((f) => /\d+(\.\d)? (KiB|MiB|GiB|TiB)/.test(f), 'the sizes');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes(`size_bytes: ${backup.size_bytes}`), 'the exact size in the record');
  });
});

describe('x-ray in the explorer, between runs', () => {
  it("keeps what each list's filter accepts in the cache, as the command line's x-ray does", async () => {
    const dir = temporaryFolder('dpx-ui-filters-');
    try {
      const store = filterCache(dir);
      ui = await mount(demo.region, { rows: 45, context: { filterStore: store } });
      await failedRestore(ui);
      await ui.press('X');
      await ui.waitFor(
        (f) => f.includes('referred to by') && !f.includes(' …'),
        'the x-ray with what refers to the task',
      );
      // Written once the x-ray's lookups have all answered.
      let kept = await store.read(demo.region.baseUrl);
      for (
        const deadline = Date.now() + 5000;
        kept === undefined && Date.now() < deadline;
        kept = await store.read(demo.region.baseUrl)
      )
        await new Promise((r) => setTimeout(r, 50));
      expect(kept?.form).toBeDefined();
      expect(Object.keys(kept?.lists ?? {}).length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
