// Every screen of the explorer fits the terminal: visited on the 40-tenant demo at 80×24, then with the
// terminal resized to 60×24 and 80×12, each screen's view draws at most the lines the Frame gives it,
// none wider than the terminal, and the whole frame stays under the terminal's height (test/ui/fit.tsx
// measures the view uncut). Four files (fit-browse, fit-fan-out, fit-operations, fit-writes) share the visits, so
// four forks run them side by side: each walks a newly mounted explorer from the catalog, every frame drawn.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import { sendableBody } from '../../src/api/operations/jsonc.js';
import { useDemo } from '../helpers/demo.js';
import { fitProblems } from './fit.js';
import { KEY, mount, type Mounted } from './mount.js';

export interface Visit {
  name: string;
  open(m: Mounted): Promise<void>;
}

const home = (m: Mounted) => m.waitFor((f) => f.includes('resources') && f.includes('tasks'), 'the catalog');
const top = (m: Mounted) => m.navigator.top()?.kind;
/** Waits for the screen `kind`, showing what `also` looks for and, unless it goes on loading (`loaded` false), loaded. */
const on = (m: Mounted, kind: string, also: (f: string) => boolean = () => true, loaded = true) =>
  m.waitFor((f) => top(m) === kind && also(f) && (!loaded || !m.navigator.top()?.state.loading), kind);

async function list(m: Mounted, resource: string): Promise<void> {
  await home(m);
  await m.press(':', resource, KEY.enter);
  await on(m, 'list', (f) => /page 1\b/.test(f));
}

async function record(m: Mounted, resource: string): Promise<void> {
  await list(m, resource);
  await m.press(KEY.enter);
  await on(m, 'record');
}

async function operations(m: Mounted): Promise<void> {
  await record(m, 'backups');
  await m.press('x');
  await on(m, 'operations');
}

/** The backup's create_restore: the related operation, offered after the backup's own ones. */
async function restoreForm(m: Mounted): Promise<void> {
  await operations(m);
  await m.press(KEY.end, KEY.enter);
  await on(m, 'operation-form');
  expect((m.navigator.top()!.state as { form: { operation: { id: string } } }).form.operation.id).toBe(
    'create_restore',
  );
}

async function writesOn(m: Mounted): Promise<void> {
  await m.press('W');
  await on(m, 'prompt');
  await m.press('writes', KEY.enter);
  await m.waitFor((f) => f.includes('[WRITES ALLOWED]'), 'writes allowed');
}

/** The restore form, writes on, a body long enough to scroll, previewed (twice: it has schema problems). */
async function longPreview(m: Mounted): Promise<void> {
  await restoreForm(m);
  await writesOn(m);
  const form = m.navigator.top()!.state as { form: { body: string } };
  const body = JSON.parse(sendableBody(form.form.body)!) as Record<string, unknown>;
  const long = {
    ...body,
    restore_type: 'full',
    target: 'restored-by-dpx',
    options: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`option_${i}`, `value ${i}`])),
  };
  await m.press('b', '\x15', JSON.stringify(long), KEY.escape);
  await m.press('p');
  if (top(m) === 'operation-form') await m.press('p');
  await on(m, 'request-preview');
}

/** The restore form as it comes, writes on, previewed, confirmed and sent: the response. */
async function restoreSent(m: Mounted): Promise<void> {
  await restoreForm(m);
  await writesOn(m);
  await m.press('p');
  if (top(m) === 'operation-form') await m.press('p');
  await on(m, 'request-preview');
  await m.press(KEY.enter);
  await on(m, 'write-confirm');
  await m.press('y');
  await on(m, 'response', (f) => /\b[245]\d\d\b/.test(f));
}

/** The catalog, lists and what opens from a list or a record. */
export const BROWSE: Visit[] = [
  { name: 'home', open: async (m) => void (await home(m)) },
  {
    name: 'the palette and its suggestions',
    open: async (m) => {
      await home(m);
      await m.press(':', 't');
      await on(m, 'palette');
    },
  },
  { name: 'a task list', open: (m) => list(m, 'tasks') },
  {
    name: 'help (?)',
    open: async (m) => {
      await list(m, 'tasks');
      await m.press('?');
      await on(m, 'help');
    },
  },
  {
    name: 'the filter builder',
    open: async (m) => {
      await list(m, 'tasks');
      await m.press('f');
      await on(m, 'filter');
    },
  },
  {
    name: "the filter builder's values",
    open: async (m) => {
      await list(m, 'tasks');
      await m.press('f', 'status', KEY.enter, '$eq', KEY.enter);
      await on(m, 'filter', (f) => f.includes('value for status'));
    },
  },
  {
    name: 'the column picker',
    open: async (m) => {
      await list(m, 'tasks');
      await m.press('c');
      await on(m, 'columns');
    },
  },
  {
    name: 'the version picker',
    open: async (m) => {
      await list(m, 'users');
      await m.press('v');
      await on(m, 'version');
    },
  },
  {
    name: 'the OU picker',
    open: async (m) => {
      await list(m, 'tasks');
      await m.press('o');
      await on(m, 'ou-picker', (f) => /\(\d+ units\)/.test(f));
    },
  },
  { name: 'a task record', open: (m) => record(m, 'tasks') },
  { name: 'a backup record', open: (m) => record(m, 'backups') },
  {
    name: 'the x-ray of a task',
    open: async (m) => {
      await record(m, 'tasks');
      await m.press('X');
      await on(m, 'xray');
    },
  },
  {
    name: 'a record as raw JSON',
    open: async (m) => {
      await record(m, 'tasks');
      await m.press('y');
      await on(m, 'record', (f) => f.includes('raw JSON ('));
    },
  },
  {
    name: "the x-ray's history",
    open: async (m) => {
      await record(m, 'backups');
      await m.press('X');
      await on(m, 'xray');
      await m.press('h');
      await on(m, 'xray', (f) => /history|timestamp/.test(f), false);
    },
  },
  {
    name: 'a diff',
    open: async (m) => {
      await record(m, 'users');
      await m.press('d');
      await on(m, 'choose');
      await m.press(KEY.enter);
      await on(m, 'diff', (f) => !f.includes('reading both sides'));
    },
  },
];

/** The screens that ask every unit at once: the count matrix and a merged list. */
export const FAN_OUT: Visit[] = [
  {
    name: 'the count matrix',
    open: async (m) => {
      await home(m);
      await m.press(':', 'count tasks by status', KEY.enter);
      // Its rows and columns, planned: the counts fill in afterwards, in cells whose width is planned already.
      await on(m, 'count', (f) => /^UNIT\s/m.test(f) && f.includes('Global'), false);
    },
  },
  {
    name: 'a merged list',
    open: async (m) => {
      await home(m);
      await m.press(':', 'tasks @all', KEY.enter);
      await on(m, 'merged-list', (f) => /records from \d+ units/.test(f), false);
    },
  },
];

/** An operation: its variables, the last exchange, the operations of a record and the forms they open. */
export const OPERATIONS: Visit[] = [
  {
    name: 'the variables of an operation',
    open: async (m) => {
      await home(m);
      await m.press(':', 'tasks get_task', KEY.enter);
      await on(m, 'template');
    },
  },
  {
    name: 'the last exchange',
    open: async (m) => {
      await list(m, 'tasks');
      await m.press('E');
      await on(m, 'exchange');
    },
  },
  { name: 'the operations of a backup', open: operations },
  { name: 'the create_restore form', open: restoreForm },
  {
    name: 'the enum pick-list',
    open: async (m) => {
      await restoreForm(m);
      const index = (m.navigator.top()!.state as { form: { bodyFields: { name: string }[]; fields: unknown[] } }).form;
      const at = index.fields.length + 1 + index.bodyFields.findIndex((field) => field.name === 'restore_type');
      for (let i = 0; i < at; i++) await m.press(KEY.down);
      await m.press(KEY.enter);
      await on(m, 'choose');
    },
  },
  {
    name: 'the writes prompt',
    open: async (m) => {
      await restoreForm(m);
      await m.press('W');
      await on(m, 'prompt');
    },
  },
  { name: 'the request preview of a long body', open: longPreview },
];

/** A write previewed, copied, confirmed and sent, and what it answered. */
export const WRITES: Visit[] = [
  {
    name: 'the curl of a long body',
    open: async (m) => {
      await longPreview(m);
      await m.press('c');
      await m.waitFor((f) => f.includes('curl'), 'the curl');
    },
  },
  {
    name: 'the confirmation of a long body',
    open: async (m) => {
      await longPreview(m);
      await m.press(KEY.enter);
      await on(m, 'write-confirm');
    },
  },
  {
    name: 'the response',
    open: async (m) => {
      await longPreview(m);
      await m.press(KEY.enter);
      await on(m, 'write-confirm');
      await m.press('y');
      await on(m, 'response', (f) => /\b[245]\d\d\b/.test(f));
    },
  },
  { name: "the restore's response", open: restoreSent },
  {
    name: "the restore's task",
    open: async (m) => {
      await restoreSent(m);
      await m.press('t');
      await on(m, 'task', (f) => f.includes('status '), false);
    },
  },
];

/**
 * At 12 rows (a terminal split in two), the screens whose content outgrows the room and must window it;
 * the others are a frame and a few lines at any height, drawn at 24 rows above.
 */
const WINDOWED = new Set([
  'help (?)',
  "the filter builder's values",
  'the column picker',
  'the OU picker',
  'a task record',
  'the x-ray of a task',
  "the x-ray's history",
  'the create_restore form',
  'the enum pick-list',
  'the confirmation of a long body',
  'the response',
  "the restore's task",
  'the count matrix',
  'a merged list',
  'the palette and its suggestions',
  'the curl of a long body',
]);

/** The sizes each screen must fit: opened at the first, then the terminal resized to the others. */
const SIZES = [
  { columns: 80, rows: 24 },
  { columns: 60, rows: 24 },
  { columns: 80, rows: 12 },
];

/** Each visit a test of its own, on a 40-tenant demo that the file starts once. */
export function fitEach(visits: Visit[]): void {
  const demo = useDemo({ tenants: 40, frozen: true });
  let ui: Mounted | undefined;
  afterEach(async () => {
    await ui?.unmount();
    ui = undefined;
  });

  describe('at 80×24, then resized to 60×24 and 80×12', () => {
    it.each(visits)('$name fits', async ({ name, open }) => {
      // Read as fast as the demo answers: the count matrix asks hundreds of questions.
      const session = new Session({
        baseUrl: demo.region.baseUrl,
        token: demo.region.tokens.personal,
        readOnly: true,
        ratePerSecond: 10_000,
      });
      const [first, ...others] = SIZES;
      ui = await mount(demo.region, { ...first!, context: { session } });
      await open(ui);
      const problems: string[] = [];
      const check = async ({ columns, rows }: { columns: number; rows: number }) => {
        problems.push(
          ...(await fitProblems(ui!.navigator, ui!.frame())).map((problem) => `at ${columns}×${rows}: ${problem}`),
        );
      };
      await check(first!);
      for (const size of others.filter(({ rows }) => rows === 24 || WINDOWED.has(name))) {
        await ui.resize(size.columns, size.rows);
        await check(size);
      }
      expect(problems).toEqual([]);
    });
  });
}
