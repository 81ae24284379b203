// The explorer at 80×24 on the 40-tenant demo, as a support engineer drives it: the keys do what the
// screen says (f and / in a merged list, Enter on a highlighted suggestion, ? for the screen you are on,
// the global keys on home and on an operation form), and the screen in front is served first.
import { describe, expect, it } from 'vitest';
import { KEYS, palette, type Running } from '../helpers/pty.js';
import { useDemo } from '../helpers/demo.js';
import { useExplorer } from '../helpers/explorer.js';

const demo = useDemo({ tenants: 40, frozen: true });

const explorer = useExplorer(demo);

const home = (app: Running) => app.waitFor((s) => s.includes('/ to filter') && s.includes('tasks'), 'the catalog');

describe('the explorer at 80×24 on 40 tenants', () => {
  it("a list opened from a cell of a matrix still counting sends its first request before the matrix's queued ones", async () => {
    const app = explorer({ rate: '' });
    await home(app);
    // A request per cell (2,394 here): the matrix keeps hundreds queued at the default rate. (The scan the
    // planner picks by itself reads the root's list a page ahead, and has little queued at any time.)
    await palette(app, 'count tasks by status plan cells');
    await app.waitFor((s) => /Global\s+[\d,]+/.test(s), "the root's total");
    app.pty.write(KEYS.right);
    await new Promise((r) => setTimeout(r, 100));
    const asked = demo.region.requestLog().length;
    const opened = Date.now();
    app.pty.write(KEYS.enter);
    const list = await app.waitFor(
      (s) => /count tasks by status › tasks/.test(s) && /page 1/.test(s),
      'the list of the cell',
    );
    const waited = Date.now() - opened;
    const log = demo.region.requestLog().slice(asked);
    // The list's pages carry the cell's value in their filter; the matrix's requests (one page of one
    // record per cell, or the pages of its scan and one-record checks) never a filter with a page of more.
    const filterOf = (line: string) =>
      new URL(line.slice(line.indexOf(' ') + 1), 'http://demo').searchParams.get('filter') ?? '';
    const isList = (line: string) =>
      line.startsWith('GET /tasks?') && filterOf(line).includes('"status"') && !/[?&]limit=1(&|$)/.test(line);
    const first = log.findIndex(isList);
    // The list's first page went out before the requests the matrix still had queued (hundreds at the
    // default rate; behind them it waited 13 s): only those in flight or started while the key travelled
    // came before it, and the matrix went on after it.
    expect(list).toContain('(filtered)');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(30);
    const matrix = () =>
      demo.region
        .requestLog()
        .slice(asked + first + 1)
        .filter((line) => line.startsWith('GET /tasks?') && !isList(line)).length;
    // The list in front reads its rows' names first; the matrix behind goes on once they are sent.
    for (const deadline = Date.now() + 12_000; matrix() < 5 && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 50));
    expect(matrix()).toBeGreaterThanOrEqual(5);
    expect(waited).toBeLessThan(3000);
  });

  it('f in tasks @all opens the filter builder; Enter takes the highlighted suggestion; / searches the loaded rows', async () => {
    const app = explorer();
    await home(app);
    await palette(app, 'tasks @all');
    await app.waitFor(
      (s) => s.includes('tasks @all') && /[1-9][\d,]* records from \d+ units/.test(s),
      'the merged list',
    );
    app.pty.write('f');
    await app.waitFor((s) => s.includes('server-side filter · field'), 'the filter builder');
    app.pty.write('status');
    await app.waitFor((s) => /› status\b/.test(s), 'status offered');
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => s.includes('operator for status'), 'the operators');
    app.pty.write(KEYS.enter);
    const highlightedIn = (screen: string) => /^› (\w+)/m.exec(screen.split('\n').slice(8).join('\n'))?.[1];
    const values = await app.settled(
      (s) => s.includes('value for status') && highlightedIn(s) !== undefined,
      'the values offered',
    );
    // Move to the second suggestion: Enter takes it, though nothing was typed.
    app.pty.write(KEYS.down);
    const moved = await app.settled(
      (s) => highlightedIn(s) !== undefined && highlightedIn(s) !== highlightedIn(values),
      'the second value highlighted',
    );
    const highlighted = highlightedIn(moved)!;
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => s.includes(`1. status $eq ${highlighted}`), `the condition with ${highlighted}`);
    app.pty.write('\x01');
    await app.waitFor(
      (s) => s.includes('tasks @all (filtered)') && /[1-9][\d,]* records from \d+ units/.test(s),
      'the merged list filtered',
    );
    // The units are asked again with the highlighted value as the server-side filter.
    const asked = encodeURIComponent(JSON.stringify({ status: { $eq: highlighted } }));
    expect(
      demo.region.requestLog().filter((line) => line.startsWith('GET /tasks?') && line.includes(asked)).length,
    ).toBeGreaterThan(0);

    app.pty.write('/');
    await app.waitFor((s) => /\/▏/.test(s), 'the quick filter');
    app.pty.write('zzz-no-such-row');
    await app.waitFor((s) => s.includes('no loaded row matches "zzz-no-such-row"'), 'no row matches');
  });

  it("? from a list starts with the list's keys, then the global ones", async () => {
    const app = explorer();
    await home(app);
    app.pty.write('/');
    app.pty.write('tasks');
    await app.waitFor((s) => /› tasks\s/.test(s), 'tasks chosen');
    app.pty.write(KEYS.enter);
    await app.waitFor((s) => s.includes('home › tasks@v1') && /page 1/.test(s), 'the list');
    app.pty.write('?');
    const help = await app.waitFor((s) => s.includes('Esc or ? closes'), 'the help');
    const lines = help.split('\n');
    const heading = lines.findIndex((line) => line.includes('Esc or ? closes'));
    expect(lines[heading + 1]!.trim()).toBe('list');
    expect(lines.slice(heading + 2, heading + 6).join('\n')).toMatch(/quick filter|open the record/);
    app.pty.write(KEYS.end);
    const end = await app.waitFor((s) => s.includes('everywhere'), 'the global keys at the end');
    expect(end).not.toContain('catalog (home)');
  });

  it('E and o work on the home screen and on an operation form', async () => {
    const app = explorer();
    await home(app);
    app.pty.write('E');
    await app.waitFor((s) => s.includes('home › last exchange'), 'the last exchange from home');
    app.pty.write(KEYS.escape);
    await home(app);
    app.pty.write('o');
    await app.waitFor((s) => /\(\d+ units\)/.test(s), 'the unit picker from home');
    app.pty.write(KEYS.escape);
    await home(app);

    await palette(app, 'restores create_restore');
    const form = (s: string) => s.includes('operations › create_restore') && s.includes('URL http');
    await app.waitFor(form, 'the form');
    app.pty.write('E');
    await app.waitFor((s) => s.includes('create_restore › last exchange'), 'the last exchange from the form');
    app.pty.write(KEYS.escape);
    await app.waitFor(form, 'the form again');
    app.pty.write('o');
    await app.waitFor((s) => /\(\d+ units\)/.test(s), 'the unit picker from the form');
  });
});
