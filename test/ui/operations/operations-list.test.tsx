import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../../src/api/catalog.js';
import { operationsFor, type AvailableOperation } from '../../../src/api/operations/available.js';
import { OperationsList } from '../../../src/ui/operations/operations-list.js';
import { DOWN, ENTER, ESC, mount, press, unmount, until } from './harness.js';

const catalog = parseCatalog(
  {
    tasks: {
      supported_versions: ['v1'],
      v1: {
        list_tasks: { href: '/tasks{?limit,start,filter}', type: 'get', templated: true },
        get_task: { href: '/tasks/{task_id}', type: 'get', templated: true },
        abort_task: { href: '/tasks/{task_id}/abort', type: 'post', templated: true },
      },
    },
  },
  'service',
);

describe('OperationsList', () => {
  it('lists method, id and href, marks what the record fills, and flags writes in read-only mode', async () => {
    const operations = operationsFor(catalog, 'tasks', 'v1', { id: 't-1' });
    const chosen: AvailableOperation[] = [];
    const ui = await mount(<OperationsList resource="tasks" version="v1" operations={operations} hasRecord readOnly onChoose={(op) => chosen.push(op)} onCancel={() => undefined} />);
    const frame = await until(ui, (f) => f.includes('abort_task'));
    const rows = frame.split('\n');
    expect(rows.find((row) => row.includes('list_tasks'))).toMatch(/^\s+GET\s+list_tasks\s+\/tasks\{\?limit,start,filter\}/);
    expect(rows.find((row) => row.includes('get_task'))).toMatch(/^● GET\s+get_task\s+\/tasks\/\{task_id\}/);
    expect(rows.find((row) => row.includes('abort_task'))).toMatch(/^● POST\s+abort_task.*\(read-only\)/);
    expect(frame).toContain('read-only: writes');
    await press(ui, DOWN, DOWN, ENTER);
    expect(chosen.map((op) => op.id)).toEqual(['abort_task']);
    await unmount(ui);
  });

  it('Esc goes back', async () => {
    let cancelled = false;
    const ui = await mount(<OperationsList resource="tasks" version="v1" operations={operationsFor(catalog, 'tasks', 'v1')} hasRecord={false} readOnly={false} onChoose={() => undefined} onCancel={() => (cancelled = true)} />);
    await press(ui, ESC);
    expect(cancelled).toBe(true);
    await unmount(ui);
  });
});
