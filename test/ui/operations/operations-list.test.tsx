// `x`: the operations of a resource version, drawn from the index, with the record's marks and the
// read-only flags; Enter opens the chosen one's form, Esc closes the list.
import { describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';
import { DOWN, ENTER, ESC, openScreen, topKind } from './harness.js';

const demo = useDemo();

describe('the operations screen', () => {
  it('lists method, id and href, marks what the record fills, and flags writes in read-only mode', async () => {
    const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, readOnly: true });
    const ui = await openScreen(
      'operations',
      (origin) => ({ origin, resource: 'tasks', version: 'v1', record: { id: 't-1' } }),
      { session },
    );
    const frame = await ui.waitFor((f) => f.includes('abort_task'), 'the operations');
    const rows = frame.split('\n').filter((row) => /^[● ] (GET|POST|PUT|PATCH|DELETE) /.test(row));
    expect(rows.find((row) => row.includes('list_tasks'))).toMatch(/^\s+GET\s+list_tasks\s+\/tasks\{\?/);
    expect(rows.find((row) => row.includes('get_task'))).toMatch(/^● GET\s+get_task\s+\/tasks\/\{task_id\}/);
    expect(rows.find((row) => row.includes('abort_task'))).toMatch(/^● POST\s+abort_task.*\(read-only\)/);
    expect(frame).toContain('read-only: writes');
    const index = rows.findIndex((row) => row.includes('abort_task'));
    await ui.press(...Array.from({ length: index }, () => DOWN), ENTER);
    await ui.waitFor((f) => f.includes('POST tasks v1 · abort_task'), 'the abort form');
    expect(ui.frame()).toMatch(/path\s+task_id\* = t-1\s+\(from the record\)/);
    await ui.unmount();
  });

  it('Esc goes back to where x was pressed', async () => {
    const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const ui = await openScreen('operations', (origin) => ({ origin, resource: 'tasks', version: 'v1' }), { session });
    await ui.waitFor((f) => f.includes('Operations of tasks v1'), 'the operations');
    await ui.press(ESC);
    await ui.waitFor((f) => f.includes('resources'), 'the catalog again');
    expect(topKind(ui)).toBe('catalog');
    await ui.unmount();
  });
});
