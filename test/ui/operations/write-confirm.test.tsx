import { describe, expect, it } from 'vitest';
import { WriteConfirm } from '../../../src/ui/operations/write-confirm.js';
import { BACKSPACE, ENTER, ESC, mount, press, unmount, until } from './harness.js';

const lines = ['DELETE policies (delete_policy, v1)', 'control plane: http://127.0.0.1:9', 'organizational unit: Finance (ou-1)'];

function spy() {
  const calls: string[] = [];
  return { calls, onConfirm: () => calls.push('confirm'), onCancel: () => calls.push('cancel') };
}

describe('WriteConfirm', () => {
  it('shows what will be written where, and sends on y', async () => {
    const s = spy();
    const ui = await mount(<WriteConfirm method="POST" lines={['POST restores (create_restore, v1)', ...lines.slice(1)]} onConfirm={s.onConfirm} onCancel={s.onCancel} />);
    const frame = await until(ui, (f) => f.includes('Send this POST?'));
    expect(frame).toContain('control plane: http://127.0.0.1:9');
    expect(frame).toContain('Finance (ou-1)');
    await press(ui, 'x');
    expect(s.calls).toEqual([]);
    await press(ui, 'y');
    expect(s.calls).toEqual(['confirm']);
    await unmount(ui);
  });

  it('cancels on n and on Esc', async () => {
    const s = spy();
    const ui = await mount(<WriteConfirm method="PATCH" lines={lines} onConfirm={s.onConfirm} onCancel={s.onCancel} />);
    await press(ui, 'n', ESC);
    expect(s.calls).toEqual(['cancel', 'cancel']);
    await unmount(ui);
  });

  it('a DELETE sends only after the id is typed exactly', async () => {
    const s = spy();
    const ui = await mount(<WriteConfirm method="DELETE" lines={lines} expectedWord="p-123" onConfirm={s.onConfirm} onCancel={s.onCancel} />);
    await until(ui, (f) => f.includes('Type p-123 to delete it'));
    await press(ui, 'y', ENTER);
    expect(s.calls).toEqual([]);
    await until(ui, (f) => f.includes('that is not p-123; nothing was sent'));
    await press(ui, BACKSPACE, 'p-12', ENTER);
    expect(s.calls).toEqual([]);
    await press(ui, '3');
    await until(ui, (f) => f.includes('> p-123'));
    await press(ui, ENTER);
    expect(s.calls).toEqual(['confirm']);
    await unmount(ui);
  });
});
