// A form taller than the terminal, at 80×24 and 80×12: its rows are shown as a window around the focused
// one, which says where it is; the title, the problems, the focused field's description (cut to the
// width) and the key hints stay on screen; moving through every row keeps the focused one in view, and
// scrolls the window a row at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { formLayout } from '../../../src/ui/screens/operations/form-layout.js';
import { rowsOf } from '../../../src/ui/screens/operations/form-rows.js';
import type { FormState } from '../../../src/ui/screens/operations/form.js';
import { sendJson, startServer, type TestServer } from '../../helpers/servers.js';
import { fitProblems } from '../fit.js';
import { DOWN, ENTER, ESC, openOperationForm, rowLabel } from './harness.js';

const INDEX = {
  widgets: {
    supported_versions: ['v1'],
    v1: { create_widget: { href: '/api/widgets{?dry_run}', type: 'post', templated: true } },
  },
};
const LONG =
  'a description long enough to be cut to the width of any terminal this test draws the form in, and then some more words';
const properties = Object.fromEntries([
  ['name', { type: 'string', minLength: 1, description: 'What to call it' }],
  ['kind', { type: 'string', enum: ['small', 'medium', 'large'], description: 'How big' }],
  ...Array.from({ length: 10 }, (_, i) => [
    `setting_${i}`,
    { type: 'integer', minimum: 0, description: `Setting ${i}: ${LONG}` },
  ]),
]);
const schema = { type: 'object', required: ['name', 'kind'], additionalProperties: false, properties };

let server: TestServer;
beforeAll(async () => {
  server = await startServer((request, response) =>
    sendJson(response, request.url === '/api/' ? 200 : 404, request.url === '/api/' ? INDEX : { errors: [] }),
  );
});
afterAll(() => server.close());

async function openForm(rows: number) {
  const session = new Session({ baseUrl: `${server.baseUrl}/api`, readOnly: true });
  const operation = (await session.catalog()).resources[0]!.versions[0]!.operations[0]!;
  return openOperationForm(session, { resource: 'widgets', version: 'v1', operation }, schema, { rows, columns: 80 });
}

const state = (ui: Awaited<ReturnType<typeof openForm>>) => ui.navigator.top()!.state as FormState;
const lines = (frame: string) => frame.split('\n');

describe.each([24, 12])('a form of 16 rows in 80×%i', (rows) => {
  it('keeps the focused row in view, says which rows are shown, and fits, from the first row to the last and back', async () => {
    const ui = await openForm(rows);
    await ui.waitFor((f) => f.includes('POST widgets v1 · create_widget'), 'the form');
    const count = rowsOf(state(ui).form).length;
    expect(count).toBe(16);
    let previous: { top: number; end: number } | undefined;
    const check = async (focus: number) => {
      const frame = ui.frame();
      const what = `row ${focus + 1} at 80×${rows}:\n${frame}`;
      expect(await fitProblems(ui.navigator, frame), what).toEqual([]);
      expect(
        lines(frame).filter((line) => line.includes('POST widgets v1 · create_widget')),
        what,
      ).toHaveLength(1);
      expect(lines(frame).at(-1), what).toContain('↑↓ move');
      const range = /fields (\d+)–(\d+) of 16/.exec(frame);
      expect(range, what).not.toBeNull();
      expect(Number(range![1]), what).toBeLessThanOrEqual(focus + 1);
      expect(Number(range![2]), what).toBeGreaterThanOrEqual(focus + 1);
      const row = rowsOf(state(ui).form)[focus]!;
      expect(frame, what).toContain(rowLabel(row));
      // The focused field's description, cut to the width.
      if (row.kind === 'body-field' && rows === 24)
        expect(frame, what).toContain(`${row.field.name}: ${row.field.description!.slice(0, 20)}`);
      // A window that still holds the focused row stays where it was.
      const shown = { top: Number(range![1]), end: Number(range![2]) };
      if (previous && previous.top <= focus + 1 && focus + 1 <= previous.end && !frame.includes('body JSON'))
        expect(shown.top, what).toBe(previous.top);
      previous = shown;
    };
    for (let focus = 0; focus < count; focus++) {
      if (focus > 0) await ui.press(DOWN);
      expect(state(ui).focus).toBe(focus);
      await check(focus);
    }
    for (let focus = count - 2; focus >= 0; focus--) {
      await ui.press('\x1b[A');
      await check(focus);
    }
    await ui.unmount();
  });

  it('the enum pick-list, a field being typed in and the body editor stay inside the terminal', async () => {
    const ui = await openForm(rows);
    await ui.waitFor((f) => f.includes('create_widget'), 'the form');
    // The rows: dry_run, the OU, name, kind, …
    await ui.press(DOWN, DOWN, DOWN, ENTER);
    const pick = await ui.waitFor((f) => f.includes('› small') && f.includes('large'), 'the pick-list');
    expect(await fitProblems(ui.navigator, pick)).toEqual([]);
    await ui.press('med', ENTER);
    await ui.waitFor((f) => /kind\*\s+= "medium"/.test(f), 'the value chosen');
    await ui.press(DOWN, ENTER, '42');
    const typing = await ui.waitFor((f) => /setting_0\s+= 42/.test(f), 'the field typed in');
    expect(await fitProblems(ui.navigator, typing)).toEqual([]);
    await ui.press(ENTER, 'b');
    const editing = await ui.waitFor((f) => f.includes('editing: arrows'), 'the body editor');
    expect(await fitProblems(ui.navigator, editing)).toEqual([]);
    // The editor has what the window leaves, the line with the cursor (the last) among those shown, and
    // says which lines it shows when it has room for that.
    const layout = formLayout(state(ui), 80, ui.navigator.contextOf(ui.navigator.top()!.id).bodyHeight());
    expect(layout.body.lines).toBeGreaterThanOrEqual(1);
    expect(editing).toMatch(/│ }\s+│/);
    const lines = state(ui).form.body.split('\n').length;
    if (layout.body.position) expect(editing).toMatch(new RegExp(`│ lines \\d+–${lines} of ${lines}`));
    else
      expect(layout.body.lines === 5 || rows < 24, 'only a short terminal leaves no line to say which lines').toBe(
        true,
      );
    await ui.press(ESC);
    await ui.unmount();
  });
});
