// The built bundle in a real pseudo-terminal: what a person sees (an xterm screen), every byte the program
// wrote (for sequences the screen does not show, such as OSC 52), keys as a terminal sends them.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { untilExited } from './temporary.js';

export const root = join(import.meta.dirname, '..', '..');
export const bundle = join(root, 'dist', 'dpx.js');
/** How long a wait for a screen lasts before it fails: room for a busy machine (test/ui/mount.tsx). */
const WAIT_MS = 60_000;

export interface Running {
  pty: IPty;
  screen(): string;
  /** Everything written to the terminal so far, escape sequences included. */
  output(): string;
  bufferType(): string;
  waitFor(check: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /**
   * Like waitFor, and then until the screen has stopped changing: a screen is drawn in several writes,
   * and one read between them sees its title before its rows (or half a word).
   */
  settled(check: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Writes keys, then waits until the screen changed or a short time passed. */
  type(...keys: string[]): Promise<void>;
  /** The terminal and the program's pseudo-terminal resized together, as a window resize does. */
  resize(columns: number, rows: number): void;
  /** The terminal's size now. */
  size(): { columns: number; rows: number };
  /**
   * The last frame ink wrote, as ink believes it stands on the screen: its lines, styles included, from
   * the last synchronized update (ink wraps each frame in `CSI ? 2026 h` … `l`), without the erasing
   * that comes before it. Undefined before the first frame.
   */
  inkFrame(): string[] | undefined;
  /** Per row of the screen, the text of its cells drawn in inverse (a focused field, a chosen line). */
  inverse(): string[];
  /** Once the terminal has taken in everything written so far, and nothing more came meanwhile. */
  drained(): Promise<void>;
  exited: Promise<number>;
  kill(): void;
}

export const KEYS = {
  enter: '\r',
  escape: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  delete: '\x1b[3~',
  backspace: '\x7f',
  ctrlU: '\x15',
};

/** Types `words` into the explorer's palette (`:`), waits for them to show, and presses Enter. */
export async function palette(app: Running, words: string): Promise<void> {
  app.pty.write(':');
  await app.waitFor((s) => s.includes('Tab completes'), 'the palette');
  app.pty.write(words);
  await app.waitFor((s) => s.includes(`› ${words}`), `${words} in the palette`);
  app.pty.write(KEYS.enter);
}

export function buildOnce(): void {
  if (!existsSync(bundle)) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}

/**
 * Linux may drop what a process wrote to its pseudo-terminal just before it exited, when the reader had
 * not taken it yet (node-pty's issues 72 and 85): the last frame and the sequence that gives the main
 * screen back. With `lingerAfterExit`, dpx runs under a shell that holds the terminal open a moment after
 * dpx exits, and exits with its code. Not for a test that signals the process: the signal would reach
 * the shell.
 */
const LINGER = '"$0" "$@"; code=$?; sleep 0.3; exit $code';

export function startDpx(
  args: string[],
  options: {
    columns?: number;
    rows?: number;
    env?: Record<string, string>;
    lingerAfterExit?: boolean;
    /** Where dpx runs (the repository by default): where `T` writes its case file. */
    cwd?: string;
  } = {},
): Running {
  const columns = options.columns ?? 120;
  const rows = options.rows ?? 40;
  const env = { ...process.env, TERM: 'xterm-256color', ...options.env } as Record<string, string>;
  delete env['CI'];
  delete env['NO_COLOR'];
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  const [file, argv] = options.lingerAfterExit
    ? ['/bin/sh', ['-c', LINGER, process.execPath, bundle, ...args]]
    : [process.execPath, [bundle, ...args]];
  const pty = spawn(file, argv, { name: 'xterm-256color', cols: columns, rows, cwd: options.cwd ?? root, env });
  let written = '';
  let pending = Promise.resolve();
  pty.onData((data) => {
    written += data;
    pending = pending.then(() => new Promise<void>((resolve) => terminal.write(data, resolve)));
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  untilExited(exited);
  // Until the terminal has drawn everything received so far: data that arrives while an earlier write is
  // drawn chains a new promise, and a screen read after only the earlier one would show a frame's top over
  // the last frame's bottom although `written` already holds the frame's end.
  const caughtUp = async () => {
    for (let drawn = pending; ; drawn = pending) {
      await drawn;
      if (drawn === pending) return;
    }
  };
  const screen = () => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < terminal.rows; i++) lines.push(rowText(buffer.getLine(buffer.viewportY + i), terminal.cols));
    return lines.join('\n');
  };
  /** Whether ink is in the middle of a frame: it writes one as a few writes between its sync marks. */
  const inFrame = () => written.lastIndexOf(BEGIN_SYNC) > written.lastIndexOf(END_SYNC);
  let size = { columns, rows };
  const running: Running = {
    pty,
    screen,
    size: () => size,
    inkFrame: () => lastInkFrame(written),
    inverse() {
      const buffer = terminal.buffer.active;
      const rowsShown: string[] = [];
      for (let i = 0; i < terminal.rows; i++) {
        const line = buffer.getLine(buffer.viewportY + i);
        let text = '';
        for (let x = 0; line && x < terminal.cols; x++) {
          const cell = line.getCell(x);
          if (cell?.isInverse()) text += cell.getChars() || ' ';
        }
        rowsShown.push(text);
      }
      return rowsShown;
    },
    async drained() {
      for (;;) {
        const length = written.length;
        await caughtUp();
        if (written.length === length && !inFrame()) return;
        if (written.length === length) await new Promise((r) => setTimeout(r, 10));
      }
    },
    output: () => written,
    bufferType: () => terminal.buffer.active.type,
    resize(columns, rows) {
      size = { columns, rows };
      terminal.resize(columns, rows);
      pty.resize(columns, rows);
    },
    exited,
    async waitFor(check, what, timeoutMs = WAIT_MS) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await caughtUp();
        const current = screen();
        // Only whole frames, as a terminal that honours ink's synchronized updates shows them: one read
        // while ink is writing a frame shows its top over the last frame's bottom.
        if (!inFrame() && check(current)) return current;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the terminal shows:\n${current}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async settled(check, what, timeoutMs = WAIT_MS) {
      let seen = await running.waitFor(check, what, timeoutMs);
      for (;;) {
        await new Promise((r) => setTimeout(r, 120));
        const again = screen();
        if (again === seen && check(again)) return again;
        seen = check(again) ? again : await running.waitFor(check, what, timeoutMs);
      }
    },
    async type(...keys) {
      for (const key of keys) {
        const before = screen();
        pty.write(key);
        const deadline = Date.now() + 300;
        while (Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 15));
          await caughtUp();
          if (screen() !== before) break;
        }
      }
    },
    kill() {
      try {
        pty.kill();
      } catch {
        // already gone
      }
    },
  };
  return running;
}

/**
 * A row's text up to its last written cell (a space written is kept, a cell never written or erased is
 * not), within the terminal's width: a line written before the terminal was narrowed keeps cells past it.
 */
function rowText(line: xterm.IBufferLine | undefined, columns: number): string {
  if (!line) return '';
  let end = 0;
  for (let x = 0; x < Math.min(columns, line.length); x++) if (line.getCell(x)?.getChars()) end = x + 1;
  return line.translateToString(false, 0, end);
}

const BEGIN_SYNC = '\x1b[?2026h';
const END_SYNC = '\x1b[?2026l';
// What ink writes before a frame: erase the previous one line by line (2K, 1A … G), or clear the
// terminal (2J 3J H) when the previous one filled it; and the cursor hidden or shown.
const ERASING = /^(?:\x1b\[(?:2K|1A|G|2J|3J|H|\?25[hl]))+/;

export function lastInkFrame(written: string): string[] | undefined {
  const end = written.lastIndexOf(END_SYNC);
  if (end === -1) return undefined;
  const begin = written.lastIndexOf(BEGIN_SYNC, end);
  if (begin === -1) return undefined;
  const frame = written.slice(begin + BEGIN_SYNC.length, end).replace(ERASING, '');
  const lines = frame.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The screen of a terminal of this size that was sent only `lines`: what a clean screen would show, each row with its width in cells. */
async function drawnAlone(lines: string[], columns: number, rows: number): Promise<{ text: string; cells: number }[]> {
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  await new Promise<void>((resolve) => terminal.write(lines.join('\r\n'), resolve));
  const buffer = terminal.buffer.active;
  const shown: { text: string; cells: number }[] = [];
  for (let i = 0; i < rows; i++) {
    const line = buffer.getLine(buffer.viewportY + i);
    let cells = 0;
    for (let x = 0; line && x < columns; x++)
      if (line.getCell(x)?.getChars()) cells = x + 1 + Math.max(0, (line.getCell(x)?.getWidth() ?? 1) - 1);
    shown.push({ text: rowText(line, columns), cells });
  }
  terminal.dispose();
  return shown;
}

/**
 * What is wrong with the screen as it stands (none: it is well-formed). The frame ink last drew is at most
 * rows − 1 lines of at most `columns` cells (taller, ink cannot erase what scrolled off; at the full height
 * it clears the screen on every frame), and the terminal shows exactly that frame, as a clean terminal
 * would (nothing left of an earlier one, no line wrapped); the header's first line is on the first row
 * and nowhere else.
 */
export async function frameProblems(app: Running): Promise<string[]> {
  await app.drained();
  // The frame and the screen read together, before anything else can arrive: a screen that keeps
  // changing (a count filling in) is compared with the frame that made it.
  const { columns, rows } = app.size();
  const frame = app.inkFrame();
  const screen = app.screen().split('\n');
  if (!frame) return ['ink has drawn no frame'];
  const problems: string[] = [];
  if (frame.length > rows - 1)
    problems.push(`ink drew ${frame.length} lines in a terminal of ${rows} rows (at most ${rows - 1})`);
  // Each line measured by a terminal as wide as three of these: one wider than this terminal would wrap.
  const wide = await drawnAlone(frame, columns * 3, Math.max(rows, frame.length));
  wide.forEach((line, index) => {
    if (line.cells > columns)
      problems.push(`line ${index + 1} is ${line.cells} cells wide in ${columns} columns: ${line.text}`);
  });
  const clean = (await drawnAlone(frame, columns, rows)).map((line) => line.text);
  const differ = clean
    .map((line, index) => (line === screen[index] ? undefined : index))
    .filter((index) => index !== undefined);
  if (differ.length > 0) {
    const rows = differ.map((i) => `  drawn  : ${clean[i]}\n  showing: ${screen[i]}`);
    problems.push(
      `the terminal does not show what ink drew, at rows ${differ.map((i) => i + 1).join(', ')}:\n${rows.join('\n')}`,
    );
  }
  const headers = screen.filter((line) => /^dpx /.test(line)).length;
  if (!/^dpx /.test(screen[0] ?? '') || headers !== 1)
    problems.push(
      `the header line shows ${headers} times${/^dpx /.test(screen[0] ?? '') ? '' : ', not on the first row'}`,
    );
  return problems;
}
