// The explorer at 80×24 on the 40-tenant demo, in a real pseudo-terminal: `>` reaches a task list's last
// columns with the first one kept, the count matrix keeps its units and totals on screen with the
// values that mean trouble first, and a column choice made with `c` is there after a restart.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RATE, useDemo } from '../helpers/demo.js';
import { buildOnce, bundle, KEYS, palette, startDpx, type Running } from '../helpers/pty.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo({ tenants: 40, frozen: true });
let dir = '';
let running: Running | undefined;

beforeAll(async () => {
  buildOnce();
  dir = temporaryFolder('dpx-columns-');
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  running?.kill();
  running = undefined;
});

const lines = (screen: string) => screen.split('\n');
const header = (screen: string) => lines(screen)[2] ?? '';
/** The table's heading: the line after the breadcrumb. */
const heading = (screen: string) => lines(screen)[4] ?? '';

const env = () => ({
  DPX_BASE_URL: demo.region.baseUrl,
  DPX_TOKEN: demo.region.tokens.personal,
  DPX_CONFIG: join(dir, 'config.json'),
  DPX_RATE: LOCAL_RATE,
});

function explorer(): Running {
  return (running = startDpx([], { columns: 80, rows: 24, env: env() }));
}

/** Opens a view through the palette, once the catalog is there. */
async function open(app: Running, words: string): Promise<void> {
  await app.waitFor((s) => s.includes('tasks'), 'the catalog');
  await palette(app, words);
}

interface PickerItem {
  field: string;
  on: boolean;
}

/** The picker's lines on screen: each field, whether it is ticked, and the one under the cursor. */
function pickerOn(screen: string): { items: PickerItem[]; cursor?: string } {
  const items: PickerItem[] = [];
  let cursor: string | undefined;
  for (const line of lines(screen)) {
    const match = /^(›| ) \[(x| )\] (\S+)/.exec(line);
    if (!match) continue;
    items.push({ field: match[3]!, on: match[2] === 'x' });
    if (match[1] === '›') cursor = match[3];
  }
  return { items, cursor };
}

/**
 * `c`, then only the first two columns ticked, the second moved first; the fields chosen (Enter is left to
 * the caller). Each key is sent once the picker shows what the one before did, checked against a model of
 * the picker: a busy explorer may take longer than any fixed wait to draw a key.
 */
async function keepFirstTwoSwapped(app: Running, resource: string): Promise<string[]> {
  app.pty.write('c');
  // Settled: a frame is written in parts, and the model is every field the picker lists.
  const opened = await app.settled(
    (s) => s.includes(`columns of ${resource}`) && pickerOn(s).cursor !== undefined,
    'the column picker',
  );
  const model = { items: pickerOn(opened).items, cursor: 0 };
  const agrees = (screen: string) => {
    const shown = pickerOn(screen);
    return (
      shown.cursor === model.items[model.cursor]!.field &&
      shown.items.every((item) => model.items.find((known) => known.field === item.field)?.on === item.on)
    );
  };
  const press = async (key: string, what: string, change: () => void) => {
    change();
    app.pty.write(key);
    await app.waitFor(agrees, what);
  };
  const down = () =>
    press(KEYS.down, 'the cursor down', () => (model.cursor = Math.min(model.items.length - 1, model.cursor + 1)));
  const up = () => press(KEYS.up, 'the cursor up', () => (model.cursor = Math.max(0, model.cursor - 1)));
  const ticked = model.items.filter((item) => item.on).length;
  await down();
  await down();
  for (let i = 2; i < ticked; i++) {
    await press(' ', 'a column unticked', () => (model.items[model.cursor]!.on = false));
    await down();
  }
  while (model.cursor > 1) await up();
  await press('K', 'the second column moved first', () => {
    model.items = [model.items[1]!, model.items[0]!, ...model.items.slice(2)];
    model.cursor = 0;
  });
  return model.items.filter((item) => item.on).map((item) => item.field);
}

async function taskList(app: Running): Promise<string> {
  await open(app, 'tasks');
  return app.waitFor((s) => /page 1/.test(s) && / ID /.test(heading(s)), 'the task list');
}

describe('an 80×24 terminal on the 40-tenant demo', () => {
  it("> scrolls a task list's columns to error_code, the id column kept and the header saying where", async () => {
    const app = explorer();
    await taskList(app);
    // Ids alone: names filling in redraw the list, which the loops below would take for a scroll.
    app.pty.write('N');
    const first = await app.settled((s) => / ID /.test(heading(s)) && /page 1/.test(s), 'the list with ids alone');
    expect(heading(first)).not.toContain('ERROR_CODE');
    expect(header(first)).toMatch(/\[cols 2–\d+ of \d+\]/);
    let screen = first;
    for (let i = 0; i < 30 && !heading(screen).includes('ERROR_CODE'); i++) {
      app.pty.write('>');
      const before = screen;
      screen = await app.waitFor((s) => s !== before, 'the columns scrolled');
    }
    expect(heading(screen)).toContain('ERROR_CODE');
    expect(heading(screen)).toMatch(/^ {2}ID /);
    expect(header(screen)).toMatch(/\[cols \d+–\d+ of \d+\]/);
    // `<` comes back to the first columns.
    for (let i = 0; i < 30 && !header(screen).includes('[cols 2–'); i++) {
      app.pty.write('<');
      const before = screen;
      screen = await app.waitFor((s) => s !== before, 'the columns scrolled back');
    }
    // Back at the first window: the id frozen, the columns after it from the second on.
    expect(header(screen)).toMatch(/\[cols 2–\d+ of \d+\]/);
    expect(heading(screen)).toMatch(/^ {2}ID /);
  });

  it('the count matrix shows failed and the total on one screen, the values that mean trouble first', async () => {
    const app = explorer();
    await open(app, 'count tasks by status');
    const screen = await app.waitFor(
      (s) => /^UNIT\s+total\s+failed\s/m.test(s) && /^Global\s+[\d,]+ \S\s+[\d,]+ /m.test(s),
      'the root row with its total and failed',
    );
    expect(lines(screen).every((line) => line.length <= 80)).toBe(true);
    expect(header(screen)).toMatch(/\[cols 3–\d+ of \d+\]/);
    // The unit tree keeps its indent in the frozen column.
    expect(screen).toMatch(/^ {2}\S/m);
  });

  it("a column choice made with c is kept for the next run, and dpx list's table uses it", async () => {
    let app = explorer();
    const listed = await taskList(app);
    // Ids alone, so that the columns shown do not change while the picker is open.
    app.pty.write('N');
    await app.waitFor((s) => s !== listed, 'the ids alone');
    const chosen = await keepFirstTwoSwapped(app, 'tasks');
    expect(chosen).toEqual(['name', 'id']);
    app.pty.write(KEYS.enter);
    const kept = await app.waitFor((s) => s.includes('kept for'), 'the choice kept');
    expect(heading(kept).trim().split(/\s+/)).toEqual(chosen.map((field) => field.toUpperCase()));
    app.pty.write('q');
    await app.exited;

    app = explorer();
    await taskList(app);
    await app.waitFor(
      (s) => heading(s).trim().split(/\s+/).join(' ') === chosen.map((field) => field.toUpperCase()).join(' '),
      'the chosen columns after a restart',
    );

    // The command line's table takes the choice as its default --fields; csv and json keep every field.
    // (Asynchronously: the demo answers from this process.)
    const list = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, [bundle, 'list', 'tasks', '--page-size', '3', ...args], {
          env: { ...process.env, ...env(), NO_COLOR: '1' },
        })
      ).stdout;
    expect(
      lines(await list())[0]!
        .trim()
        .split(/\s+/),
    ).toEqual(chosen);
    expect(lines(await list('--output', 'csv'))[0]!.split(',').length).toBeGreaterThan(2);
    expect(Object.keys(JSON.parse(await list('--output', 'json')).items[0]).length).toBeGreaterThan(2);
  });

  it('c in a merged list (users @all) makes the choice for the resource: kept for the next run, in its merged list and its list', async () => {
    let app = explorer();
    await open(app, 'users @all');
    await app.waitFor(
      (s) => s.includes('users @all') && /[1-9][\d,]* records from \d+ units/.test(s),
      'the merged list',
    );
    const chosen = await keepFirstTwoSwapped(app, 'users');
    // The unit a merged row was read in is dpx's, not a field of the resource: never offered.
    expect(app.screen()).not.toContain('@unit');
    app.pty.write(KEYS.enter);
    const merged = (s: string) => heading(s).trim().split(/\s+/).join(' ');
    // The first chosen column stays first (it is frozen), the unit comes after it, then the others.
    const mergedHeading = [chosen[0]!.toUpperCase(), '@UNIT', chosen[1]!.toUpperCase()].join(' ');
    await app.waitFor((s) => s.includes('kept for') && merged(s) === mergedHeading, 'the choice used and kept');
    app.pty.write('q');
    await app.exited;

    app = explorer();
    await open(app, 'users');
    await app.waitFor(
      (s) => /page 1/.test(s) && merged(s) === chosen.map((field) => field.toUpperCase()).join(' '),
      'the list of users with the columns chosen in the merged list',
    );
    app.pty.write(KEYS.escape);
    await open(app, 'users @all');
    await app.waitFor(
      (s) => s.includes('users @all') && merged(s) === mergedHeading,
      'the merged list with them after a restart',
    );
  });
});
