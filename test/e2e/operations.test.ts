// Trying an operation in the explorer, as a person would, in a real pseudo-terminal against the demo: the
// form built from the body schema with an enum pick-list, the body editor's cursor, PATCH prefilled from
// the record, the confirmation showing the body and the unit, an empty required variable keeping you on
// the form, copy as curl as a plain OSC 52, and writes turned on and off in place.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, KEYS, startDpx, type Running } from '../helpers/pty.js';

let running: Running | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

beforeAll(() => buildOnce(), 60_000);

const lines = (screen: string) => screen.split('\n');
const header = (screen: string) => lines(screen)[2] ?? '';

/** Opens an operation's form through the palette. */
async function openForm(app: Running, words: string, title: string): Promise<string> {
  await app.waitFor((s) => s.includes('resources') && s.includes('restores'), 'the catalog');
  app.pty.write(':');
  await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
  app.pty.write(words);
  await app.waitFor((s) => s.includes(`› ${words}`), `${words} in the palette`);
  app.pty.write(KEYS.enter);
  return app.waitFor((s) => s.includes(title), `the form of ${words}`);
}

/** Moves the form's cursor onto the row whose line matches, counting rows from the first variable or the OU. */
async function focusRow(app: Running, pattern: RegExp): Promise<void> {
  const screen = app.screen();
  const rows = lines(screen).filter((line) => /^(path |query|OU |[\w.]+\*?\s+= )/.test(line));
  const index = rows.findIndex((line) => pattern.test(line));
  expect(index, `a row matching ${pattern} in:\n${screen}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i++) app.pty.write(KEYS.down);
  await new Promise((r) => setTimeout(r, 150));
}

/** W, then the word: writes on, as the header says. */
async function writesOn(app: Running): Promise<void> {
  app.pty.write('W');
  await app.waitFor((s) => s.includes('Type "writes" and Enter to allow them'), 'the typed confirmation');
  app.pty.write('writes');
  await app.waitFor((s) => s.includes('› writes'), 'the word typed');
  app.pty.write(KEYS.enter);
  await app.waitFor((s) => header(s).includes('[WRITES ALLOWED]'), 'writes allowed in the header');
}

describe('trying an operation in the explorer', () => {
  it('builds the form from the schema: an enum picked from its values, each field described; the body editor has a cursor', async () => {
    const app = (running = startDpx(['--demo']));
    const form = await openForm(app, 'restores create_restore', 'POST restores v1 · create_restore');
    expect(form).toMatch(/backup_id\*\s+= ""\s+string · a UUID · The backup to restore from/);
    expect(form).toMatch(/restore_type\s+= —\s+one of full \| file_level \| database \| mailbox_item/);
    expect(form).toMatch(/target\s+= —\s+string · 1–300 characters/);
    expect(form).toContain('✗ /backup_id: must be a UUID, e.g. ');

    await focusRow(app, /^restore_type/);
    app.pty.write(KEYS.enter);
    const pick = await app.waitFor(
      (s) => s.includes('› full') && s.includes('mailbox_item') && s.includes('(leave it out)'),
      'the pick-list',
    );
    expect(pick).toContain('restore_type: What to restore');
    app.pty.write('datab');
    await app.waitFor((s) => s.includes('› database'), 'database chosen');
    app.pty.write(KEYS.enter);
    await app.waitFor(
      (s) => s.includes('"restore_type": "database"') && /restore_type\s+= "database"/.test(s),
      'the value in the body',
    );

    // The body editor: the cursor moves by arrows and Home/End, Delete and Backspace erase at it, a paste
    // of several lines goes in whole, and a wide character moves and erases as one.
    app.pty.write('b');
    await app.waitFor((s) => s.includes('editing: arrows, Home/End, Delete, paste'), 'the editor');
    app.pty.write(KEYS.ctrlU);
    await app.waitFor((s) => !s.includes('"restore_type"'), 'the body cleared');
    app.pty.write('{"target": "日本"}');
    await app.waitFor((s) => s.includes('{"target": "日本"}'), 'typed');
    app.pty.write(KEYS.left + KEYS.left + KEYS.left);
    app.pty.write('x');
    await app.waitFor((s) => s.includes('{"target": "日x本"}'), 'x between the wide characters');
    app.pty.write(KEYS.home + KEYS.delete);
    await app.waitFor(
      (s) => s.includes('"target": "日x本"}') && !s.includes('{"target"'),
      'Delete at Home took the brace',
    );
    app.pty.write('{\n  "restore_type": "full",\n  ');
    await app.waitFor(
      (s) => /│ \{\s+│/.test(s) && s.includes('"restore_type": "full",') && s.includes('"target": "日x本"}'),
      'a pasted block of lines',
    );
    app.pty.write(KEYS.end + KEYS.backspace + KEYS.backspace);
    await app.waitFor((s) => s.includes('"target": "日x本') && !s.includes('"target": "日x本"'), 'Backspace at End');
    app.pty.write('"}');
    app.pty.write(KEYS.escape);
    const done = await app.waitFor(
      (s) => s.includes('Enter edits here') && /target\s+= "日x本"/.test(s),
      'the edited body in the form',
    );
    expect(done).toMatch(/restore_type\s+= "full"/);
  });

  it("PATCH starts from the record's values the schema accepts, and sends only what changed", async () => {
    const app = (running = startDpx(['--demo']));
    await app.waitFor((s) => s.includes('resources') && s.includes('users'), 'the catalog');
    app.pty.write(':');
    await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
    app.pty.write('users');
    await app.waitFor((s) => /› users\s/.test(s), 'users in the palette');
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => s.includes('users@v2') && /page 1\b/.test(s), 'the users list');
    app.pty.write(KEYS.enter);
    const record = await app.waitFor(
      (s) => s.includes('full_name:') && s.includes('links (Enter follows)'),
      'a user record',
    );
    const fullName = /full_name: "([^"]+)"/.exec(record)?.[1];
    expect(fullName).toBeDefined();
    app.pty.write('x');
    // Its rows, not the title alone: a busy machine can show the title a frame before them.
    const operations = await app.waitFor(
      (s) => s.includes('Operations of users v2') && /^[● ] PATCH\s.*\bupdate_user\b/m.test(s),
      'the operations, update_user among them',
    );
    const ops = lines(operations).filter((line) => /^[● ] (GET|POST|PUT|PATCH|DELETE)\s/.test(line));
    const index = ops.findIndex((line) => /\bupdate_user\b/.test(line));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < index; i++) app.pty.write(KEYS.down);
    await new Promise((r) => setTimeout(r, 150));
    app.pty.write(KEYS.enter);
    // Settled: the form is a tall frame, and a screen read while it is written shows its top alone.
    const form = await app.settled((s) => s.includes('PATCH users v2 · update_user'), 'the PATCH form');
    expect(form).toContain(`"full_name": "${fullName}"`);
    expect(form).toMatch(/user_id\* = [0-9a-f-]{36}\s+\(from the record\)/);
    // Only fields the schema accepts: never the id, timestamps or links.
    expect(form).not.toContain('"id":');
    expect(form).not.toContain('created_timestamp');
    expect(form).not.toContain('"_links"');
    expect(form).toContain('this PATCH sends only what changed: nothing yet');

    await focusRow(app, /^full_name/);
    app.pty.write(KEYS.enter + KEYS.ctrlU + 'Grace Hopper' + KEYS.enter);
    await app.waitFor(
      (s) => s.includes('"full_name": "Grace Hopper"') && s.includes('sends only what changed: full_name'),
      'the change',
    );
    app.pty.write('p');
    const preview = await app.waitFor((s) => s.includes('Request preview'), 'the preview');
    expect(preview).toContain('"full_name": "Grace Hopper"');
    expect(preview).not.toContain('"role_id"');
    expect(preview).not.toContain('"is_enabled"');
  });

  it('an empty required variable keeps you where you are, naming it', async () => {
    const app = (running = startDpx(['--demo']));
    await app.waitFor((s) => s.includes('resources') && s.includes('tasks'), 'the catalog');
    app.pty.write(':');
    await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
    app.pty.write('tasks get_task');
    await app.waitFor((s) => s.includes('› tasks get_task'), 'the operation in the palette');
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => s.includes('tasks get_task: fill in the variables'), 'the variables');
    app.pty.write(KEYS.enter);
    const stayed = await app.waitFor((s) => s.includes('✗ task_id is required'), 'the problem named');
    expect(stayed).toContain('tasks get_task: fill in the variables');
    expect(stayed).not.toContain('fields ·');
    app.pty.write(KEYS.escape + KEYS.escape);

    await openForm(app, 'users update_user', 'PATCH users v2 · update_user');
    app.pty.write('p');
    const form = await app.waitFor((s) => s.includes('fix the'), 'the refusal to preview');
    expect(form).toContain('user_id: is required');
    expect(form).toContain('PATCH users v2 · update_user');
    expect(form).not.toContain('Request preview');
  });

  it('writes are turned on and off in place with a typed confirmation; the header shows the mode; --read-only stays read-only', async () => {
    const app = (running = startDpx(['--demo']));
    const form = await openForm(app, 'restores create_restore', 'POST restores v1 · create_restore');
    expect(header(form)).toContain('[READ-ONLY]');
    expect(form).toContain('read-only mode: POST changes data and was not sent');
    app.pty.write('W');
    await app.waitFor((s) => s.includes('Type "writes" and Enter to allow them'), 'the typed confirmation');
    app.pty.write('yes' + KEYS.enter);
    const refused = await app.waitFor(
      (s) => s.includes('writes stay off: "yes" is not "writes"'),
      'a wrong word refused',
    );
    expect(header(refused)).toContain('[READ-ONLY]');
    await writesOn(app);
    const on = app.screen();
    expect(on).toContain('POST restores v1 · create_restore');
    expect(on).not.toContain('read-only mode: POST');
    app.pty.write('W');
    const off = await app.waitFor((s) => header(s).includes('[READ-ONLY]'), 'writes off again');
    expect(off).toContain('POST restores v1 · create_restore');
    app.kill();

    const locked = (running = startDpx(['--demo', '--read-only']));
    await openForm(locked, 'restores create_restore', 'POST restores v1 · create_restore');
    locked.pty.write('W');
    const stays = await locked.waitFor((s) => s.includes('writes stay off: started with --read-only'), 'the lock');
    expect(header(stays)).toContain('[READ-ONLY]');
  });

  it('the confirmation shows the body and the unit by name; copy as curl sends a plain OSC 52 and shows the command', async () => {
    // TMUX set: the sequence must still go out plain, as tmux's set-clipboard takes it.
    const app = (running = startDpx(['--demo'], { env: { TMUX: '/tmp/tmux-0/default,1,0' } }));
    await app.waitFor((s) => s.includes('resources') && s.includes('backups'), 'the catalog');
    app.pty.write(':');
    await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
    app.pty.write('backups');
    await app.waitFor((s) => /› backups\s/.test(s), 'backups in the palette');
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => s.includes('backups@v1') && /page 1\b/.test(s), 'the backups list');
    app.pty.write(KEYS.enter);
    const record = await app.waitFor((s) => s.includes('links (Enter follows)'), 'a backup');
    const backupId = /id: "([0-9a-f-]{36})"/.exec(record)?.[1];
    expect(backupId).toBeDefined();
    app.pty.write('x');
    const operations = await app.settled(
      (s) => s.includes('Operations of backups') && /restores create_restore/.test(s),
      'the operations',
    );
    const ops = lines(operations).filter((line) => /^[● ] (GET|POST|PUT|PATCH|DELETE)\s/.test(line));
    const index = ops.findIndex((line) => /restores create_restore/.test(line));
    expect(index, operations).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < index; i++) app.pty.write(KEYS.down);
    await new Promise((r) => setTimeout(r, 150));
    app.pty.write(KEYS.enter);
    await app.waitFor(
      (s) => s.includes('POST restores v1 · create_restore') && s.includes(`"backup_id": "${backupId}"`),
      'the restore form, filled from the backup',
    );
    await writesOn(app);

    // The unit by name, as --ou takes it.
    await focusRow(app, /^OU /);
    app.pty.write(KEYS.enter + 'acme corp' + KEYS.enter);
    await app.waitFor((s) => /OU = acme corp/.test(s), 'the unit typed');
    app.pty.write('p');
    const preview = await app.waitFor((s) => s.includes('Request preview'), 'the preview');
    const acme = /OU: Acme Corp \(([0-9a-f-]{36})\)/.exec(preview)?.[1];
    expect(acme, preview).toBeDefined();
    expect(preview).toContain(`organizationalunit-context: ${acme}`);
    expect(preview).toContain('authorization: Bearer ***');

    app.pty.write('c');
    const copied = await app.waitFor(
      (s) => s.includes("sent to the terminal's clipboard as OSC 52 — if the terminal accepts it"),
      'the copy',
    );
    expect(copied).toContain("curl -X 'POST'");
    const output = app.output();
    expect(output).not.toContain('\x1bPtmux;');
    const osc = /\x1b\]52;c;([A-Za-z0-9+/=]+)\x07/.exec(output);
    expect(osc, 'a plain OSC 52 in the bytes written').not.toBeNull();
    const curl = Buffer.from(osc![1]!, 'base64').toString('utf8');
    expect(curl).toMatch(/^curl -X 'POST' 'http:\/\/127\.0\.0\.1:\d+\/restores'/);
    expect(curl).toMatch(/-H "Authorization: Bearer \$\(cat '[^']+'\)"/);
    expect(curl).toContain(backupId!);
    expect(curl).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);

    app.pty.write(KEYS.enter);
    const confirm = await app.waitFor((s) => s.includes('Send this POST?'), 'the confirmation');
    expect(confirm).toContain(`organizational unit: Acme Corp (${acme})`);
    expect(confirm).toMatch(/body \(\d+ bytes/);
    expect(confirm).toContain(`"backup_id": "${backupId}"`);
    expect(confirm).toContain('authorization: Bearer ***');
    app.pty.write(KEYS.escape);
    await app.waitFor((s) => s.includes('Request preview'), 'cancelled: back to the preview');
  });
});
