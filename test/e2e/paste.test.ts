// Pastes are text (issue 38): the explorer turns bracketed paste on, and what comes between the paste
// marks goes into the field with the focus as text — line breaks dropped in a one-line field, kept in the
// body editor — and is never taken as keys: a line break does not end the typing, `e` does not open the
// editor, `:` does not open the palette. Where no field has the focus, nothing of a paste is taken.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, KEYS, startDpx, type Running } from '../helpers/pty.js';

let running: Running | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

beforeAll(() => buildOnce(), 60_000);

const pasted = (text: string) => `\x1b[200~${text}\x1b[201~`;
const TITLE = 'POST restores v1 · create_restore';

async function openForm(app: Running): Promise<void> {
  await app.waitFor((s) => s.includes('resources') && s.includes('restores'), 'the catalog');
  app.pty.write(':');
  await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
  app.pty.write('restores create_restore');
  await app.waitFor((s) => s.includes('› restores create_restore'), 'the words in the palette');
  app.pty.write(KEYS.enter);
  await app.settled((s) => s.includes(TITLE) && /target\s+= —/.test(s), 'the form');
}

/** Moves the focus down onto the row whose line matches. */
async function focusRow(app: Running, pattern: RegExp): Promise<void> {
  const rows = app
    .screen()
    .split('\n')
    .filter((line) => /^(path |query|OU |[\w.]+\*?\s+= )/.test(line));
  const index = rows.findIndex((line) => pattern.test(line));
  expect(index).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i++) app.pty.write(KEYS.down);
  await new Promise((resolve) => setTimeout(resolve, 150));
}

describe('a paste in the explorer (real terminal, bracketed paste)', () => {
  it('turns bracketed paste on, and off again on the way out', async () => {
    const app = (running = startDpx(['--demo'], { lingerAfterExit: true }));
    await app.waitFor((s) => s.includes('resources'), 'the catalog');
    expect(app.output()).toContain('\x1b[?2004h');
    app.pty.write('\x03');
    await app.exited;
    const output = app.output();
    expect(output.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(output.lastIndexOf('\x1b[?2004h'));
  }, 60_000);

  it('puts a paste with a line break into a one-line field as text, its rest never run as keys', async () => {
    const app = (running = startDpx(['--demo']));
    await openForm(app);
    await focusRow(app, /^target/);
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => /target\s+= ""/.test(s) || s.includes('Esc done'), 'typing in target');
    app.pty.write(pasted('abc\r\ne:q'));
    const screen = await app.settled(
      (s) => /target\s+= abce:q\s/.test(s) && s.includes('"target": "abce:q"'),
      'the paste in the field, one line',
    );
    expect(screen).toContain(TITLE);
    expect(screen).not.toContain('Tab completes');
    // Still typing: the line break did not end it, so a typed letter goes on into the field.
    app.pty.write('z');
    await app.waitFor((s) => /target\s+= abce:qz\s/.test(s), 'typing goes on');
  }, 60_000);

  it('keeps the line breaks of a paste in the body editor', async () => {
    const app = (running = startDpx(['--demo']));
    await openForm(app);
    app.pty.write('b');
    await app.waitFor((s) => s.includes('editing: arrows, Home/End, Delete, paste'), 'the editor');
    app.pty.write(KEYS.ctrlU);
    await app.waitFor((s) => !s.includes('"backup_id": ""'), 'the body cleared');
    app.pty.write(pasted('{\r\n  "target": "pasted-here"\r\n}'));
    const screen = await app.settled(
      (s) => /│ \{\s+│/.test(s) && /│ {3}"target": "pasted-here"\s+│/.test(s) && /│ \}\s+│/.test(s),
      'three lines in the body',
    );
    expect(screen).toContain(TITLE);
  }, 60_000);

  it('takes nothing of a paste where no field has the focus: no editor, no palette, no quit', async () => {
    const app = (running = startDpx(['--demo']));
    await openForm(app);
    app.pty.write(pasted('e:q\r'));
    const screen = await app.settled(
      (s) => s.includes('a paste goes into a text field: none has the focus here'),
      'the paste refused',
    );
    expect(screen).toContain(TITLE);
    expect(screen).not.toContain('Tab completes');
    // The form is still answering keys as keys.
    app.pty.write(':');
    await app.waitFor((s) => s.includes('Tab completes'), 'the palette, typed');
    app.pty.write(pasted('users\r\n'));
    await app.waitFor((s) => /› users\s/.test(s), 'the paste typed into the palette, not run');
    expect(app.screen()).toContain('Tab completes');
  }, 60_000);
});
