// The last question before a write: y sends, n and Esc cancel, and a DELETE sends only once its id is
// typed exactly.
import { describe, expect, it } from 'vitest';
import { BACKSPACE, ENTER, ESC, openScreen, topKind } from './harness.js';

const lines = ['DELETE http://127.0.0.1:9/policies/p-123', 'operation: policies delete_policy (v1)', 'control plane: http://127.0.0.1:9', 'organizational unit: Finance (ou-1)'];

function open(method: string, calls: string[], expectedWord?: string) {
  return openScreen('write-confirm', () => ({ method, lines, ...(expectedWord ? { expectedWord } : {}), confirm: () => calls.push('confirm') }));
}

describe('the write confirmation', () => {
  it('shows what will be written where, and sends on y', async () => {
    const calls: string[] = [];
    const ui = await open('POST', calls);
    const frame = await ui.waitFor((f) => f.includes('Send this POST?'), 'the question');
    expect(frame).toContain('control plane: http://127.0.0.1:9');
    expect(frame).toContain('Finance (ou-1)');
    await ui.press('x');
    expect(calls).toEqual([]);
    await ui.press('y');
    expect(calls).toEqual(['confirm']);
    await ui.unmount();
  });

  it.each(['n', ESC])('cancels on %j, sending nothing', async (key) => {
    const calls: string[] = [];
    const ui = await open('PATCH', calls);
    await ui.waitFor((f) => f.includes('Send this PATCH?'), 'the question');
    await ui.press(key);
    expect(topKind(ui)).toBe('catalog');
    expect(calls).toEqual([]);
    await ui.unmount();
  });

  it('a DELETE sends only after the id is typed exactly', async () => {
    const calls: string[] = [];
    const ui = await open('DELETE', calls, 'p-123');
    await ui.waitFor((f) => f.includes('Type p-123 to delete it'), 'the question');
    await ui.press('y', ENTER);
    expect(calls).toEqual([]);
    await ui.waitFor((f) => f.includes('that is not p-123; nothing was sent'), 'the refusal');
    await ui.press(BACKSPACE, 'p-12', ENTER);
    expect(calls).toEqual([]);
    await ui.press('3');
    await ui.waitFor((f) => f.includes('> p-123'), 'the id typed');
    await ui.press(ENTER);
    expect(calls).toEqual(['confirm']);
    await ui.unmount();
  });
});
