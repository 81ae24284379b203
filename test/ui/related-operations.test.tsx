// x on an open backup record offers the restore of another resource that takes the backup's id, and
// its form starts with that id in the body; in read-only mode the preview sends nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { visibleRows, type ListState } from '../../src/ui/screens/list/state.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo();
let ui: Mounted | undefined;

afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

describe('related operations of an open record', () => {
  it('a backup record offers the restore with backup_id filled from the record', async () => {
    ui = await mount(demo.region, { rows: 40 });
    await ui.press(':', 'backups', KEY.enter);
    await ui.waitFor((f) => /page 1/.test(f) && f.includes('backups@'), 'the backups list');
    const [row] = visibleRows(ui.navigator.getState().stack.at(-1)!.state as ListState) as { id: string }[];
    // Ids alone: the names the list would read in the background are no requests this test counts.
    await ui.press('N', KEY.enter);
    await ui.waitFor((f) => f.includes('fields ·') && f.includes(row!.id), 'the backup record');
    await ui.press('x');
    const list = await ui.waitFor((f) => f.includes('Operations of backups'), 'the operations list');
    const rows = list.split('\n').filter((line) => /^[● ] (GET|HEAD|POST|PUT|PATCH|DELETE) /.test(line));
    const related = rows.findIndex(
      (line) => line.includes('restores create_restore') && line.includes('backup_id ← this record'),
    );
    expect(related, list).toBeGreaterThan(0);
    expect(
      rows.slice(0, related).every((line) => !line.includes('← this record')),
      list,
    ).toBe(true);
    await ui.press(...Array.from({ length: related }, () => KEY.down), KEY.enter);
    const form = await ui.waitFor((f) => f.includes('POST restores v1 · create_restore'), 'the restore form');
    expect(form).toContain(`"backup_id": "${row!.id}"`);
    expect(form).not.toMatch(/✗ \//);
    const before = demo.region.requestCount();
    await ui.press('p');
    const preview = await ui.waitFor((f) => f.includes('Request preview'), 'the request preview');
    expect(preview).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(preview).toContain(row!.id);
    expect(preview).toContain('--allow-writes');
    await ui.press(KEY.enter);
    expect(ui.frame()).not.toContain('Send this POST?');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(demo.region.requestCount()).toBe(before);
  });
});
