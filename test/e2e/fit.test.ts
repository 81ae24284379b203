// Every screen of the explorer fits the terminal: at 80×24 and 60×24 on the demo, each screen a
// support engineer reaches is drawn in at most rows − 1 lines of at most the terminal's width, and the
// terminal shows exactly what ink drew (a frame taller than the terminal leaves lines ink cannot erase;
// a line wider than it wraps and is taller than planned).
import { describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { useExplorer } from '../helpers/explorer.js';
import { frameProblems, KEYS, palette, type Running } from '../helpers/pty.js';

const demo = useDemo();

const explorer = useExplorer(demo);

const start = (columns: number, rows: number): Running => explorer({ columns, rows });

const lines = (screen: string) => screen.split('\n');
const home = (app: Running) => app.settled((s) => s.includes('/ to filter') && s.includes('tasks'), 'the catalog');

async function list(app: Running, resource: string): Promise<string> {
  await home(app);
  await palette(app, resource);
  return app.settled((s) => s.includes(`${resource}@`) && /page 1\b/.test(s), `the ${resource} list`);
}

async function record(app: Running, resource: string): Promise<string> {
  await list(app, resource);
  app.pty.write(KEYS.enter);
  return app.settled((s) => /links \(Enter follows\)|fields ·/.test(s), `a ${resource} record`);
}

/** A backup's create_restore form, through its operations (checked with `fits` when given). */
async function restoreForm(app: Running, fits?: () => Promise<void>): Promise<string> {
  await record(app, 'backups');
  app.pty.write('x');
  const operations = await app.settled((s) => s.includes('Operations of backups'), 'the operations of a backup');
  await fits?.();
  const ops = lines(operations).filter((line) => /^[● ] (GET|POST|PUT|PATCH|DELETE)\s/.test(line));
  const index = ops.findIndex((line) => /create_restore/.test(line));
  expect(index, operations).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i++) await app.type(KEYS.down);
  app.pty.write(KEYS.enter);
  // By its title: the operations list names create_restore and backup_id too.
  return app.settled(
    (s) => s.includes('POST restores v1 · create_restore') && s.includes('backup_id'),
    'the create_restore form',
  );
}

/** W, then the word: writes on, as the header says. */
async function writesOn(app: Running): Promise<void> {
  app.pty.write('W');
  await app.waitFor((s) => s.includes('and Enter to allow them'), 'the typed confirmation');
  app.pty.write('writes');
  await app.waitFor((s) => s.includes('› writes'), 'the word typed');
  app.pty.write(KEYS.enter);
  await app.waitFor((s) => (lines(s)[2] ?? '').includes('[WRITES ALLOWED]'), 'writes allowed');
}

/** The restore form with writes on and a body of 40 more lines, previewed (a second p: it has schema problems). */
async function longPreview(app: Running): Promise<string> {
  await restoreForm(app);
  await writesOn(app);
  app.pty.write('b');
  const editor = await app.settled(
    (s) => s.includes('editing: arrows') && s.includes('"backup_id"'),
    'the body editor',
  );
  const backup = /"backup_id": "([0-9a-f-]{36})"/.exec(editor)?.[1];
  expect(backup, editor).toBeDefined();
  const body = {
    backup_id: backup,
    restore_type: 'full',
    options: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`option_${i}`, `value ${i}`])),
  };
  app.pty.write(KEYS.ctrlU + JSON.stringify(body, null, 1).replace(/\n/g, ''));
  await app.waitFor((s) => s.includes('option_39'), 'the body typed');
  app.pty.write(KEYS.escape);
  await app.waitFor((s) => s.includes('Enter edits here'), 'the body edited');
  app.pty.write('p');
  await app.waitFor(
    (s) => /p again\s+previews it/.test(s) || s.includes('Request preview'),
    'the preview, or its second p',
  );
  if (!app.screen().includes('Request preview')) app.pty.write('p');
  return app.settled((s) => s.includes('Request preview'), 'the preview');
}

/**
 * Each screen, reached as a person would; screens on the way are checked too (`fits`). The terminal's own
 * view of those most likely to overflow: test/ui/fit-*.test.tsx draws every screen (the pickers, the palette,
 * the matrix of 40 tenants…) at 80×24, 60×24 and 80×12 and counts its lines; this checks what a terminal
 * shows of the write's screens, a list with its help and the x-ray; at 60 columns (`narrow`) the long
 * body, whose lines are sentences. The form walk above goes down its rows at 80 and back up at 60.
 */
const VISITS: { name: string; narrow?: boolean; open(app: Running, fits: () => Promise<void>): Promise<unknown> }[] = [
  {
    name: 'a task list and its help (?)',
    open: async (app, fits) => {
      await list(app, 'tasks');
      await fits();
      app.pty.write('?');
      await app.settled((s) => s.includes('Esc or ? closes'), 'the help');
    },
  },
  {
    name: "a long body: its request preview, its curl, its confirmation and the server's 400",
    narrow: true,
    open: async (app, fits) => {
      await longPreview(app);
      await fits();
      app.pty.write('c');
      await app.settled((s) => s.includes('curl -X'), 'the curl command');
      await fits();
      app.pty.write(KEYS.escape);
      await app.settled((s) => s.includes('Request preview') && !s.includes('curl -X'), 'the request again');
      app.pty.write(KEYS.enter);
      await app.settled(
        (s) => s.includes('Send this POST?') && /lines 1–\d+ of \d+/.test(s),
        'the confirmation, scrolled',
      );
      await fits();
      app.pty.write('y');
      await app.settled((s) => s.includes('HTTP 400') && s.includes('hint:'), "the server's refusal");
    },
  },
  {
    name: 'a restore started and its task',
    open: async (app, fits) => {
      await restoreForm(app);
      await writesOn(app);
      app.pty.write('p');
      await app.settled((s) => s.includes('Request preview'), 'the preview');
      app.pty.write(KEYS.enter);
      await app.settled((s) => s.includes('Send this POST?'), 'the confirmation');
      app.pty.write('y');
      await app.settled(
        (s) => /^202 /m.test(s) && s.includes('t follow it: this response names a task'),
        'the response',
      );
      await fits();
      app.pty.write('t');
      await app.settled((s) => s.includes('status '), 'the task');
    },
  },
  {
    name: 'the x-ray of a backup and its history',
    open: async (app, fits) => {
      await record(app, 'backups');
      app.pty.write('X');
      await app.settled((s) => s.includes('referred to by') || s.includes('links (depth'), 'the x-ray');
      await fits();
      app.pty.write('h');
      await app.settled((s) => /history|timestamp/.test(s), 'the history');
    },
  },
];

/** The focused row: the one line whose cells are drawn in inverse (a label; the rest of the form has none). */
function focusedRows(app: Running): string[] {
  return app
    .inverse()
    .map((text, row) => ({ text: text.trim(), row }))
    .filter(({ text }) => text !== '')
    .map(({ text }) => text);
}

describe('the create_restore form of a backup at 80×24', () => {
  it('shows a window of its rows around the focused one, saying where it is, and every frame fits as the focus goes down and up', async () => {
    const app = start(80, 24);
    let screen = await restoreForm(app);
    let windowed = 0;
    /** The frame fits, the form's title is on it once, the key hints at its foot, and the focused row in view. */
    const check = async (index: number) => {
      const what = `row ${index + 1}:\n${screen}`;
      expect(await frameProblems(app), what).toEqual([]);
      const shown = lines(screen);
      expect(
        shown.filter((line) => line.includes('POST restores v1 · create_restore')),
        what,
      ).toHaveLength(1);
      expect(shown.findLast((line) => line.trim() !== '') ?? '', what).toContain('↑↓ move');
      const range = /fields (\d+)–(\d+) of (\d+)/.exec(screen);
      if (range) {
        windowed++;
        expect(Number(range[1]), what).toBeLessThanOrEqual(index + 1);
        expect(Number(range[2]), what).toBeGreaterThanOrEqual(index + 1);
      }
      const focused = focusedRows(app);
      expect(focused, what).toHaveLength(1);
      return focused[0]!;
    };
    /** A key that moves the focus, and the screen once it shows the focus moved (the text may not change). */
    const move = async (key: string, what: string) => {
      const before = app.inverse().join('\n');
      app.pty.write(key);
      await app.waitFor(() => app.inverse().join('\n') !== before, what);
      return app.settled(() => true, what);
    };
    const labels: string[] = [await check(0)];
    while (labels.at(-1) !== '[ preview, then confirm ]') {
      expect(labels.length, 'the form has a preview button at its end').toBeLessThan(40);
      screen = await move(KEYS.down, `the focus on row ${labels.length + 1}`);
      labels.push(await check(labels.length));
    }
    expect(labels.slice(0, 5)).toEqual(['OU', 'backup_id*', 'restore_type', 'target', 'body']);
    // Each field's description takes lines under the rows: the rows are windowed then, not pushed off.
    expect(windowed).toBeGreaterThan(0);
    // A narrower terminal: every row is cut to it, none wraps, and the focus stays in view going back up.
    app.resize(60, 24);
    screen = await app.settled(
      (s) => lines(s).every((line) => line.length <= 60) && s.includes('preview, then confirm'),
      'the form at 60 columns',
    );
    expect(await check(labels.length - 1)).toBe('[ preview, then confirm ]');
    for (let index = labels.length - 2; index >= 0; index--) {
      screen = await move(KEYS.up, `the focus back on row ${index + 1}`);
      expect(await check(index)).toBe(labels[index]);
    }
  }, 90_000);
});

describe.each([
  { columns: 80, rows: 24, visits: VISITS },
  { columns: 60, rows: 24, visits: VISITS.filter((visit) => visit.narrow) },
])('at $columns×$rows', ({ columns, rows, visits }) => {
  it.each(visits)(
    '$name fits',
    async ({ open }) => {
      const app = start(columns, rows);
      const fits = async () => expect(await frameProblems(app), app.screen()).toEqual([]);
      await open(app, fits);
      await fits();
    },
    60_000,
  );
});
