// The unit picker (`o`) at 60×24 on the 40-tenant demo: opened from the catalog and from a list, typed
// into, moved to its last unit, and opened at 80 columns then narrowed to 60, its frame always fits the
// terminal, the header on the first row and nothing left of an earlier frame above or beside it.
import { describe, expect, it } from 'vitest';
import { useDemo } from '../helpers/demo.js';
import { useExplorer } from '../helpers/explorer.js';
import { frameProblems, KEYS, palette, type Running } from '../helpers/pty.js';

const demo = useDemo({ tenants: 40, frozen: true });

const explorer = useExplorer(demo);

const start = (columns: number, rows: number): Running => explorer({ columns, rows });

const home = (app: Running) => app.settled((s) => s.includes('/ to filter') && s.includes('tasks'), 'the catalog');
const picker = (app: Running) =>
  app.settled((s) => /organizational units as a tree \(\d+ units\)/.test(s) && s.includes('Global'), 'the unit picker');

async function fits(app: Running, where: string): Promise<void> {
  expect(await frameProblems(app), where).toEqual([]);
}

describe('the unit picker at 60×24', () => {
  it('fits when opened from the catalog and a list, typed into and moved to its end', async () => {
    const app = start(60, 24);
    await home(app);
    app.pty.write('o');
    await picker(app);
    await fits(app, 'opened from the catalog');
    await app.type('w', 'a', 'r');
    await app.settled((s) => s.includes('OU war') && s.includes('Warsaw'), 'the units named like war');
    await fits(app, 'typed into');
    for (let i = 0; i < 60; i++) app.pty.write(KEYS.down);
    await app.settled((s) => /› \S/.test(s), 'the cursor moved down');
    await fits(app, 'moved to the end of the matches');
    app.pty.write(KEYS.escape);
    await home(app);
    await palette(app, 'tasks');
    await app.settled((s) => s.includes('tasks@') && /page 1\b/.test(s), 'the tasks list');
    app.pty.write('o');
    await picker(app);
    await fits(app, 'opened from a list');
    for (let i = 0; i < 300; i++) app.pty.write(KEYS.down);
    await app.settled((s) => !s.includes('(no OU'), 'the tree scrolled');
    await fits(app, 'moved to the end of the tree');
  }, 90_000);

  it('fits when narrowed from 80 to 60 columns while open: no stale line on the first row', async () => {
    const app = start(80, 24);
    await home(app);
    await palette(app, 'tasks');
    await app.settled((s) => s.includes('tasks@') && /page 1\b/.test(s), 'the tasks list');
    app.pty.write('o');
    await picker(app);
    await fits(app, 'opened at 80 columns');
    app.resize(60, 24);
    await app.settled(
      (s) => s.split('\n').every((line) => line.length <= 60) && s.includes('Global'),
      'the picker at 60',
    );
    await fits(app, 'narrowed to 60 columns');
  }, 90_000);
});
