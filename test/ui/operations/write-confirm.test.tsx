// The last question before a write: y sends, n and Esc cancel, and a DELETE sends only once its id is
// typed exactly.
import { describe, expect, it } from 'vitest';
import { fitProblems } from '../fit.js';
import { BACKSPACE, DOWN, ENTER, ESC, NOWHERE, openScreen, topKind } from './harness.js';

const PAGE_DOWN = '\x1b[6~';
const PAGE_UP = '\x1b[5~';
const END = '\x1b[F';

const lines = [
  `DELETE ${NOWHERE}/policies/p-123`,
  'operation: policies delete_policy (v1)',
  `control plane: ${NOWHERE}`,
  'organizational unit: Finance (ou-1)',
];

function open(method: string, calls: string[], expectedWord?: string) {
  return openScreen('write-confirm', () => ({
    method,
    lines,
    ...(expectedWord ? { expectedWord } : {}),
    confirm: () => calls.push('confirm'),
  }));
}

describe('the write confirmation', () => {
  it('shows what will be written where, and sends on y', async () => {
    const calls: string[] = [];
    const ui = await open('POST', calls);
    const frame = await ui.waitFor((f) => f.includes('Send this POST?'), 'the question');
    expect(frame).toContain(`control plane: ${NOWHERE}`);
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

  describe.each([24, 12])('a long body in 80×%i', (rows) => {
    const body = Array.from({ length: 60 }, (_, i) => `    "option_${i}": "value ${i}",`);
    const long = [
      ...lines,
      'headers:',
      '  authorization: Bearer ***',
      'body (1234 bytes, shown indented; sent as given):',
      '  {',
      ...body,
      '  }',
    ];
    const warning =
      "the body has 2 problems with the schema: it goes anyway, for the server's own validation to answer";

    async function openLong(expectedWord?: string) {
      const calls: string[] = [];
      const ui = await openScreen(
        'write-confirm',
        () => ({
          method: expectedWord ? 'DELETE' : 'POST',
          lines: long,
          warning,
          ...(expectedWord ? { expectedWord } : {}),
          confirm: () => calls.push('confirm'),
        }),
        { rows, columns: 80 },
      );
      return { ui, calls };
    }

    it('is shown a window at a time, saying which lines, with the question and the answer always on screen', async () => {
      const { ui, calls } = await openLong();
      let frame = await ui.waitFor((f) => f.includes('Send this POST?'), 'the question');
      const range = () => /lines (\d+)–(\d+) of (\d+)/.exec(frame);
      const fits = async () => {
        expect(await fitProblems(ui.navigator, frame), frame).toEqual([]);
        expect(frame).toContain('Send this POST?');
        expect(frame).toContain('y send · n or Esc cancel');
        expect(frame).toContain('⚠ the body has 2 problems');
      };
      await fits();
      expect(range()?.slice(1).map(Number)).toEqual([1, expect.any(Number), long.length]);
      const page = Number(range()![2]);
      expect(page).toBeLessThan(long.length);
      // Down a line, down a page, to the end: the last line of the body is reached, and no further.
      await ui.press(DOWN);
      frame = await ui.waitFor((f) => /lines 2–/.test(f), 'a line down');
      await fits();
      await ui.press(PAGE_DOWN);
      frame = await ui.waitFor((f) => new RegExp(`lines ${2 + page}–`).test(f), 'a page down');
      await fits();
      await ui.press(END);
      frame = await ui.waitFor((f) => new RegExp(`lines \\d+–${long.length} of ${long.length}`).test(f), 'the end');
      await fits();
      expect(frame).toContain('  }');
      expect(frame).toContain('"option_59": "value 59"');
      await ui.press(PAGE_UP);
      frame = await ui.waitFor((f) => !new RegExp(`–${long.length} of`).test(f), 'a page up');
      await fits();
      await ui.press('y');
      expect(calls).toEqual(['confirm']);
      await ui.unmount();
    });

    it('a DELETE keeps the id to type and the line typed in on screen', async () => {
      const { ui, calls } = await openLong('p-123');
      await ui.press('p-12');
      let frame = await ui.waitFor((f) => f.includes('> p-12'), 'the id being typed');
      expect(await fitProblems(ui.navigator, frame), frame).toEqual([]);
      expect(frame).toContain('Type p-123 to delete it');
      await ui.press(ENTER);
      frame = await ui.waitFor((f) => f.includes('that is not p-123'), 'the refusal');
      expect(await fitProblems(ui.navigator, frame), frame).toEqual([]);
      expect(frame).toContain('> p-12');
      expect(calls).toEqual([]);
      await ui.unmount();
    });
  });
});
