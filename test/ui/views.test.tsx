// Saved views in the explorer: V lists them and :view NAME opens one as the screen its command line
// describes — a list with its filter and window, a merged list, a count matrix, an x-ray — and a view of
// another command says how to run it.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { saveView } from '../../src/config/views.js';
import type { ListState } from '../../src/ui/screens/list/state.js';
import { demoRequest, useDemo } from '../helpers/demo.js';
import { KEY, mount, type Mounted } from './mount.js';
import { temporaryFolder } from '../helpers/temporary.js';

const demo = useDemo();
let dir: string;
let configPath: string;
let ui: Mounted | undefined;
let backupId = '';

beforeAll(async () => {
  dir = temporaryFolder('dpx-views-');
  configPath = join(dir, 'config.json');
  await writeFile(configPath, '{}\n', { mode: 0o600 });
  backupId = (await demoRequest(demo.region, '/backups?limit=1')).body._embedded.items[0].id;
  const views: [string, string[]][] = [
    ['failed-today', ['list', 'tasks', '--filter', '{"status":{"$eq":"failed"}}', '--since', '24h']],
    ['by-status', ['count', 'tasks', '--by', 'status']],
    ['everywhere', ['list', 'tasks', '--ou', 'all']],
    ['a-backup', ['xray', 'backups', backupId]],
    ['versions', ['diff', 'users', 'someone', '--versions', 'v1,v2']],
    ['elsewhere', ['list', 'tasks', '--trust-origin', 'http://elsewhere.example']],
  ];
  for (const [name, argv] of views) await saveView(configPath, { name, argv, savedAt: new Date().toISOString() });
});
afterEach(async () => {
  await ui?.unmount();
  ui = undefined;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const open = () => mount(demo.region, { rows: 30, context: { configPath } });

describe('saved views in the explorer', () => {
  it('V lists the saved views; Enter opens a list view with its filter and its window, read now', async () => {
    ui = await open();
    await ui.waitFor((f) => f.includes('/ to filter'), 'the catalog');
    await ui.press('V');
    const listed = await ui.waitFor((f) => f.includes('failed-today') && f.includes('by-status'), 'the saved views');
    expect(listed).toContain('dpx list tasks --filter {"status":{"$eq":"failed"}} --since 24h');
    await ui.press('failed-today', KEY.enter);
    const frame = await ui.waitFor(
      (f) => f.includes('view failed-today (filtered)') && /page 1|the list is empty/.test(f),
      'the list of the view',
    );
    const filter = JSON.parse((ui.navigator.top()!.state as ListState).serverFilter!) as Record<
      string,
      Record<string, string>
    >;
    expect(filter['status']).toEqual({ $eq: 'failed' });
    expect(Math.abs(Date.parse(filter['created_timestamp']!['$gte']!) - (Date.now() - 86_400_000))).toBeLessThan(
      60_000,
    );
    expect(frame).not.toContain('not opened');
  });

  it(':view NAME opens a count, a merged list and an x-ray; a view of another command says how to run it', async () => {
    ui = await open();
    await ui.waitFor((f) => f.includes('/ to filter'), 'the catalog');
    await ui.press(':', 'view by-status', KEY.enter);
    await ui.waitFor((f) => f.includes('home › count tasks by status'), 'the count matrix');
    await ui.press(':', 'view everywhere', KEY.enter);
    await ui.waitFor((f) => f.includes('tasks @all') && /records from \d+ units/.test(f), 'the merged list');
    await ui.press(':', 'view a-backup', KEY.enter);
    await ui.waitFor((f) => f.includes('x-ray') && f.includes(backupId.slice(0, 8)), 'the x-ray of the backup');
    await ui.press(':', 'view versions', KEY.enter);
    await ui.waitFor((f) => f.includes('dpx view run versions runs it'), 'how to run it');
  });

  it('a view that holds what a view may not is refused here too, naming the option, and opens nothing', async () => {
    ui = await open();
    await ui.waitFor((f) => f.includes('/ to filter'), 'the catalog');
    const sent = demo.region.requestLog().length;
    await ui.press(':', 'view elsewhere', KEY.enter);
    await ui.waitFor((f) => f.includes('may not hold --trust-origin'), 'the refusal');
    expect(ui.navigator.top()!.kind).toBe('catalog');
    expect(
      demo.region
        .requestLog()
        .slice(sent)
        .some((line) => line.includes('tasks')),
    ).toBe(false);
  });
});
