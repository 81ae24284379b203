// The built bundle in a real pseudo-terminal: the alternate screen, keys as a terminal sends them,
// and the terminal given back on the main screen when the explorer quits.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../../src/demo/server.js';
import { buildOnce, root, startDpx, type Running } from '../helpers/pty.js';
import { temporaryFolder } from '../helpers/temporary.js';

const COLUMNS = 120;
const ROWS = 35;

/** dpx in a terminal; `quitsItself`: it ends by a key, and what it writes last is read (see startDpx). */
function start(args: string[], extraEnv: Record<string, string> = {}, quitsItself = false): Running {
  return startDpx(args, { columns: COLUMNS, rows: ROWS, env: extraEnv, lingerAfterExit: quitsItself });
}

let running: Running | undefined;
afterEach(() => {
  try {
    running?.pty.kill();
  } catch {
    // already gone
  }
  running = undefined;
});

beforeAll(() => {
  buildOnce();
}, 60_000);

const cursorLine = (screen: string) => screen.split('\n').find((l) => l.startsWith('›')) ?? '';

describe('dpx --demo in a terminal', () => {
  it('jumps to tasks, pages, opens a record, follows a link, goes back, switches OU, quits to the main screen', async () => {
    const app = (running = start(['--demo'], {}, true));
    await app.waitFor((s) => s.includes('resources') && s.includes('tasks'), 'the catalog');
    expect(app.bufferType()).toBe('alternate');

    app.pty.write(':');
    await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
    app.pty.write('tasks');
    await app.waitFor((s) => /› tasks\s/.test(s), 'tasks in the palette');
    app.pty.write('\r');
    await app.waitFor((s) => s.includes('home › tasks@') && /page 1\b/.test(s), 'the tasks list');

    app.pty.write('n');
    await app.waitFor((s) => /page 2\b/.test(s), 'page 2');
    app.pty.write('n');
    await app.waitFor((s) => /page 3\b/.test(s), 'page 3');

    const idPrefix = (cursorLine(app.screen()).match(/› ([0-9a-f]{8})/) ?? [])[1];
    expect(idPrefix).toBeDefined();
    app.pty.write('\r');
    await app.waitFor((s) => s.includes(`id: "${idPrefix}`) && s.includes('links (Enter follows)'), 'the record');

    // To the links, then up to the organizational-unit link: as many lines up as the settled screen shows
    // between them (every line is a field or a link), not key by key against a screen that names may
    // redraw meanwhile.
    const before = cursorLine(app.screen());
    app.pty.write('\x1b[F');
    const atEnd = (
      await app.settled((s) => cursorLine(s) !== before && cursorLine(s) !== '', 'the cursor on the last link')
    ).split('\n');
    const cursorAt = atEnd.findIndex((line) => line.startsWith('›'));
    const linkAt = atEnd.findIndex((line) => /organizational_unit \//.test(line));
    expect(linkAt, atEnd.join('\n')).toBeGreaterThanOrEqual(0);
    expect(linkAt).toBeLessThanOrEqual(cursorAt);
    for (let i = 0; i < cursorAt - linkAt; i++) app.pty.write('\x1b[A');
    const screen = await app.waitFor(
      (s) => /organizational_unit \//.test(cursorLine(s)),
      'the cursor on the unit link',
    );
    expect(cursorLine(screen)).toMatch(/organizational_unit \//);
    app.pty.write('\r');
    await app.waitFor((s) => s.includes('organizational-units@') && s.includes('fields ·'), 'the linked unit');

    app.pty.write('\x1b');
    await app.waitFor((s) => s.includes(`id: "${idPrefix}`), 'the task again');
    app.pty.write('\x1b');
    // The row by its id: a name may have arrived beside another id of it meanwhile.
    await app.waitFor(
      (s) => /page 3\b/.test(s) && cursorLine(s).startsWith(`› ${idPrefix}`),
      'the list on page 3 with the cursor restored',
    );

    app.pty.write('o');
    await app.waitFor((s) => /\(\d+ units\)/.test(s), 'the OU picker');
    app.pty.write('acme');
    await app.waitFor((s) => /› Acme Corp/.test(s), 'Acme Corp chosen');
    app.pty.write('\r');
    await app.waitFor((s) => s.includes('OU Acme Corp') && /page 1\b/.test(s), 'the list in Acme Corp');

    app.pty.write('q');
    const code = await app.exited;
    expect(code).toBe(0);
    // The last bytes the process wrote may still be on their way through the terminal's parser.
    await app.waitFor(() => app.bufferType() === 'normal', 'the main screen given back');
  });

  it('lays the frame out again when the terminal shrinks, and gives the main screen back on Ctrl-C', async () => {
    const app = (running = start(['--demo'], {}, true));
    const wide = await app.waitFor((s) => s.includes('resources') && s.includes('restores'), 'the catalog');
    const widest = (screen: string) => Math.max(...screen.split('\n').map((line) => line.trimEnd().length));
    expect(widest(wide)).toBeGreaterThan(80);
    app.resize(80, 24);
    const narrow = await app.waitFor(
      (s) => widest(s) <= 80 && s.includes('› users'),
      'the catalog fitted to 80 columns',
    );
    const lastUsed = narrow.split('\n').findLastIndex((line) => line.trim() !== '');
    expect(lastUsed).toBeLessThan(23);
    app.pty.write('\x03');
    const code = await app.exited;
    await app.waitFor(() => app.bufferType() === 'normal', 'the main screen');
    expect(code).toBe(0);
  });

  it.each([
    ['killed with SIGTERM', 'SIGTERM', 143],
    ['its terminal closed (SIGHUP)', 'SIGHUP', 129],
  ])(
    'gives the main screen back when %s, and leaves nothing in the temporary folder',
    async (_how, signal, exitCode) => {
      // The trail `T` writes from, and the demo's token for a copied curl, are kept in the temporary folder
      // while the explorer runs.
      const temporary = temporaryFolder('dpx-e2e-tmp-');
      const app = (running = start(['--demo'], { TMPDIR: temporary }));
      await app.waitFor((s) => s.includes('resources'), 'the catalog');
      expect(app.bufferType()).toBe('alternate');
      expect(readdirSync(temporary).sort()).toEqual([
        expect.stringMatching(/^dpx-demo-/),
        expect.stringMatching(/^dpx-trail-/),
      ]);
      app.pty.kill(signal);
      const code = await app.exited;
      await app.waitFor(() => app.bufferType() === 'normal', 'the main screen');
      expect(code).toBe(exitCode);
      expect(readdirSync(temporary)).toEqual([]);
    },
  );

  it('killed with SIGTERM, adds the session to its --trail case', async () => {
    const folder = temporaryFolder('dpx-e2e-case-');
    const file = join(folder, 'case.har');
    const app = (running = start(['--demo', '--trail', file]));
    await app.waitFor((s) => s.includes('resources') && s.includes('tasks'), 'the catalog');
    app.pty.kill('SIGTERM');
    expect(await app.exited).toBe(143);
    const { log } = JSON.parse(readFileSync(file, 'utf8')) as {
      log: { pages: { title: string }[]; entries: { request: { url: string } }[] };
    };
    expect(log.pages.map((page) => page.title)).toEqual([`dpx --demo --trail ${file}`]);
    expect(log.entries.length).toBeGreaterThan(0);
    expect(readdirSync(folder)).toEqual(['case.har']);
  });
});

describe(':count … where … in a terminal', () => {
  it("counts every unit with the filter typed; the root's total is the server's filtered total", async () => {
    const demo = await startDemo({ frozen: true });
    try {
      const region = demo.regions[0]!;
      const filter = '{"category":{"$eq":"restore"}}';
      const answer = await fetch(`${region.baseUrl}/tasks?limit=1&filter=${encodeURIComponent(filter)}`, {
        headers: { Authorization: `Bearer ${region.tokens.personal}` },
      });
      const expected = ((await answer.json()) as { total_count: number }).total_count;
      const app = (running = start([], {
        DPX_BASE_URL: region.baseUrl,
        DPX_TOKEN: region.tokens.personal,
        DPX_RATE: '10000',
        DPX_CONFIG: join(root, 'no-such-dir', 'config.json'),
      }));
      await app.waitFor((s) => s.includes('resources') && s.includes('tasks'), 'the catalog');
      app.pty.write(':');
      await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
      app.pty.write(`count tasks by status where ${filter}`);
      await app.waitFor(
        (s) => s.includes('› count tasks by status where {') && s.includes(`values of status where ${filter}`),
        'the count in the palette',
      );
      app.pty.write('\r');
      const rootLine = (s: string) => s.split('\n').find((line) => /^›?\s*Global\s/.test(line)) ?? '';
      const screen = await app.waitFor(
        (s) => s.includes(`where ${filter}`) && /Global\s+[\d,]+/.test(rootLine(s)) && !rootLine(s).includes('…'),
        'the root row counted',
      );
      const total = Number(/Global\s+([\d,]+)/.exec(rootLine(screen))![1]!.replace(/,/g, ''));
      expect(total).toBe(expected);
      expect(screen).toContain('count tasks by status (filtered)');
      app.pty.write('q');
      expect(await app.exited).toBe(0);
    } finally {
      await demo.close();
    }
  });
});
