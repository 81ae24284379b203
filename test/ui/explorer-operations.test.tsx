// Issue 5 inside the explorer, on the demo control plane: x → operations → form → preview → confirm →
// 202 → task, the read-only refusal with nothing sent, a DELETE that needs the typed id, the frame
// staying inside the terminal while a long response is shown, and the body offered for editing naming
// every field of the schema (here and in $EDITOR) while an untouched one sends the required fields only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormState } from '../../src/ui/screens/operations/form.js';
import { useDemo } from '../helpers/demo.js';
import { visibleRows, type ListState } from '../../src/ui/screens/list/state.js';
import { KEY, mount, type Mounted } from './mount.js';

const demo = useDemo({ taskSpeed: 60 });
let ui: Mounted | undefined;

afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});

async function firstBackupId(): Promise<string> {
  const response = await fetch(`${demo.region.baseUrl}/backups?limit=1`, {
    headers: { authorization: `Bearer ${demo.region.tokens.personal}` },
  });
  const body = (await response.json()) as { _embedded: { items: { id: string }[] } };
  return body._embedded.items[0]!.id;
}

/** Opens a resource's list from the palette and waits for its rows. */
async function openList(mounted: Mounted, resource: string): Promise<void> {
  await mounted.press(':', resource, KEY.enter);
  await mounted.waitFor((f) => /page 1/.test(f) && f.includes(`${resource}@`), `the ${resource} list`);
  // Ids alone: the names a list reads in the background are no requests these tests count.
  if ((mounted.navigator.top()!.state as ListState).names) await mounted.press('N');
}

/** Moves the operations list to the row naming `operation` and opens its form. */
async function chooseOperation(mounted: Mounted, operation: string): Promise<void> {
  const frame = await mounted.waitFor(
    (f) => f.includes('Operations of') && f.includes(operation),
    'the operations list',
  );
  const rows = frame.split('\n').filter((row) => /^[● ] (GET|POST|PUT|PATCH|DELETE|HEAD) /.test(row));
  const index = rows.findIndex((row) => row.includes(` ${operation} `));
  expect(index, frame).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i++) await mounted.press(KEY.down);
  await mounted.press(KEY.enter);
}

/** In a POST form: focus the body, clear it, type `body`, leave the editor, preview. */
async function fillBodyAndPreview(mounted: Mounted, body: string): Promise<string> {
  await mounted.waitFor((f) => f.includes('body JSON'), 'the body field');
  await mounted.press('b', '\x15', body, KEY.escape);
  await mounted.waitFor((f) => !f.includes('✗ /'), 'a valid body');
  await mounted.press('p');
  return mounted.waitFor((f) => f.includes('Request preview'), 'the request preview');
}

describe('operations inside the explorer', () => {
  it('x on a list opens its operations; a restore is previewed, confirmed, sent once and its task followed to the end', async () => {
    const backupId = await firstBackupId();
    ui = await mount(demo.region, { readOnly: false, rows: 40, context: { taskIntervalMs: 50 } });
    expect(ui.frame()).toContain('[WRITES ALLOWED]');
    await openList(ui, 'restores');
    await ui.press('x');
    await chooseOperation(ui, 'create_restore');
    const preview = await fillBodyAndPreview(ui, `{"backup_id": "${backupId}"}`);
    expect(preview).toContain(`POST ${demo.region.baseUrl}/restores`);
    expect(preview).toContain('Bearer ***');
    expect(preview).not.toContain(demo.region.tokens.personal);
    await ui.press(KEY.enter);
    const confirm = await ui.waitFor((f) => f.includes('Send this POST?'), 'the confirmation');
    expect(confirm).toMatch(/restores/);
    expect(confirm).toContain(demo.region.baseUrl);
    expect(confirm).toMatch(/OU/);
    const before = demo.region.requestCount();
    await ui.press('y');
    const response = await ui.waitFor((f) => /\b202\b/.test(f), 'the 202 response');
    expect(demo.region.requestCount() - before).toBe(1);
    expect(response).toContain('t follow');
    await ui.press('t');
    const done = await ui.waitFor((f) => /finished|ended without success/.test(f), 'the task to finish');
    expect(done).toMatch(/status (completed|failed)/);
    // Enter opens the final task record in the explorer's own detail view; Esc comes back to the list.
    await ui.press(KEY.enter);
    const detail = await ui.waitFor(
      (f) => f.includes('tasks@') || (f.includes('› ') && !f.includes('operations ›') && /status/.test(f)),
      'the task record',
    );
    expect(ui.navigator.top()?.kind).toBe('record');
    expect(detail).not.toContain('Operations of');
  });

  it('in read-only mode the write is refused on screen and no request reaches the server', async () => {
    const backupId = await firstBackupId();
    ui = await mount(demo.region, { rows: 40 });
    expect(ui.frame()).toContain('[READ-ONLY]');
    await openList(ui, 'restores');
    await ui.press('x');
    await ui.waitFor((f) => f.includes('read-only: writes'), 'the read-only notice in the list');
    await chooseOperation(ui, 'create_restore');
    await fillBodyAndPreview(ui, `{"backup_id": "${backupId}"}`);
    const before = demo.region.requestCount();
    await ui.press(KEY.enter, 'y', KEY.enter);
    const frame = await ui.waitFor((f) => f.includes('--allow-writes'), 'the refusal');
    expect(frame).toMatch(/read-only/i);
    expect(frame).not.toContain('Send this POST?');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(demo.region.requestCount()).toBe(before);
  });

  it('a DELETE from the row under the cursor must be confirmed by typing its id', async () => {
    ui = await mount(demo.region, { readOnly: false, rows: 40 });
    await openList(ui, 'policies');
    const [row] = visibleRows(ui.navigator.getState().stack.at(-1)!.state as ListState) as { id: string }[];
    await ui.press('x');
    await chooseOperation(ui, 'delete_policy');
    await ui.waitFor((f) => f.includes('DELETE policies v1') && f.includes('(from the record)'), 'the prefilled form');
    await ui.press('p');
    await ui.waitFor((f) => f.includes('Request preview'), 'the preview');
    await ui.press(KEY.enter);
    await ui.waitFor((f) => f.includes(`Type ${row!.id} to delete it`), 'the typed confirmation');
    const before = demo.region.requestCount();
    await ui.press('y', KEY.enter);
    await ui.waitFor((f) => f.includes('nothing was sent'), 'the wrong word refused');
    expect(demo.region.requestCount()).toBe(before);
    await ui.press(KEY.backspace, row!.id, KEY.enter);
    await ui.waitFor((f) => /\b204\b|\b200\b/.test(f), 'the DELETE answered');
    expect(demo.region.requestCount() - before).toBe(1);
    // Back on the list that held it: read again, the record gone.
    await ui.press(KEY.escape, KEY.escape, KEY.escape);
    const list = await ui.waitFor(
      (f) => f.includes('policies changed by a write: list read again'),
      'the list read again',
    );
    const shown = ui;
    await shown.waitFor(
      () =>
        !(visibleRows(shown.navigator.getState().stack.at(-1)!.state as ListState) as { id: string }[]).some(
          (r) => r.id === row!.id,
        ),
      'the deleted row gone',
    );
    expect(list).not.toContain('DELETE policies v1');
  });

  it("the palette opens a write operation's form, and a long response stays inside the terminal", async () => {
    ui = await mount(demo.region, { readOnly: false, rows: 24 });
    await ui.press(':', 'alerts acknowledge', KEY.enter);
    await ui.waitFor((f) => f.includes('POST alerts v1 · acknowledge_alert'), 'the form of the operation');
    await ui.press(KEY.escape, KEY.escape);
    await ui.waitFor((f) => !f.includes('acknowledge_alert'), 'the operations closed');
    await ui.press(':', 'tasks list_tasks', KEY.enter);
    await ui.waitFor((f) => f.includes('tasks@') && /page 1/.test(f), 'a GET list opens as a list');
    await ui.press('x');
    await chooseOperation(ui, 'list_tasks');
    await ui.waitFor((f) => f.includes('GET tasks v1'), 'the form');
    await ui.press('p');
    await ui.waitFor((f) => f.includes('Request preview'), 'the preview');
    await ui.press(KEY.enter);
    const frame = await ui.waitFor((f) => /\b200\b/.test(f), 'the response');
    expect(frame.split('\n').length).toBeLessThanOrEqual(23);
  });

  it('the body offered names every field of the schema, here and in $EDITOR; untouched, it sends the required fields only', async () => {
    const schema = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../fixtures/schemas/bodies/restores.v1.create_restore.json'), 'utf8'),
    ) as { required: string[]; properties: Record<string, unknown> };
    const optional = Object.keys(schema.properties).filter((name) => !schema.required.includes(name));
    expect(optional.length).toBeGreaterThan(0);
    const backupId = await firstBackupId();
    let offered = '';
    const edit = async (text: string) => {
      offered = text;
      return text.replace('"backup_id": ""', `"backup_id": "${backupId}"`);
    };
    ui = await mount(demo.region, {
      readOnly: false,
      rows: 40,
      context: { terminal: { copy: () => undefined, edit } },
    });
    await openList(ui, 'restores');
    await ui.press('x');
    await chooseOperation(ui, 'create_restore');
    const form = await ui.waitFor(
      (f) => f.includes('POST restores v1 · create_restore') && f.includes('"backup_id": ""'),
      'the form',
    );
    // In the body box: the required field set, each optional one a commented-out line.
    for (const name of schema.required) expect(form).toContain(`"${name}": `);
    for (const name of optional) expect(form).toContain(`// "${name}": `);
    const { body } = (ui.navigator.top()!.state as FormState).form;
    for (const name of Object.keys(schema.properties)) expect(body).toContain(`"${name}": `);

    // Untouched: the preview (after the second p its schema problem asks for) sends the required fields only.
    await ui.press('p');
    await ui.waitFor((f) => f.includes('p again previews it to send anyway'), 'the schema problem named');
    await ui.press('p');
    const untouched = await ui.waitFor((f) => f.includes('Request preview'), 'the preview of the untouched body');
    const sent = untouched.slice(untouched.indexOf('body ('));
    expect(sent).toContain('"backup_id": ""');
    for (const name of optional) expect(sent).not.toContain(`"${name}"`);
    expect(sent).not.toContain('//');
    expect(sent).not.toContain('null');

    // $EDITOR is offered the same body; what comes back is sent without its comments.
    await ui.press(KEY.escape);
    await ui.waitFor((f) => f.includes('POST restores v1 · create_restore'), 'back on the form');
    await ui.press('e');
    await ui.waitFor((f) => f.includes('body edited in $EDITOR'), 'the body edited');
    for (const name of schema.required) expect(offered).toMatch(new RegExp(`^  "${name}": `, 'm'));
    for (const name of optional) expect(offered).toMatch(new RegExp(`^  // "${name}": `, 'm'));
    await ui.press('p');
    const edited = await ui.waitFor((f) => f.includes('Request preview'), 'the preview of the edited body');
    expect(edited).toContain(`"backup_id": "${backupId}"`);
    for (const name of optional) expect(edited).not.toContain(`"${name}"`);
  });
});
