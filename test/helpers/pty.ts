// The built bundle in a real pseudo-terminal: what a person sees (an xterm screen), every byte the program
// wrote (for sequences the screen does not show, such as OSC 52), keys as a terminal sends them.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';

export const root = join(import.meta.dirname, '..', '..');
export const bundle = join(root, 'dist', 'dpx.js');

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
  exited: Promise<number>;
  kill(): void;
}

export const KEYS = {
  enter: '\r', escape: '\x1b', up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D',
  home: '\x1b[H', end: '\x1b[F', delete: '\x1b[3~', backspace: '\x7f', ctrlU: '\x15',
};

export function buildOnce(): void {
  if (!existsSync(bundle)) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}

export function startDpx(args: string[], options: { columns?: number; rows?: number; env?: Record<string, string> } = {}): Running {
  const columns = options.columns ?? 120;
  const rows = options.rows ?? 40;
  const env = { ...process.env, TERM: 'xterm-256color', ...options.env } as Record<string, string>;
  delete env['CI'];
  delete env['NO_COLOR'];
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  const pty = spawn(process.execPath, [bundle, ...args], { name: 'xterm-256color', cols: columns, rows, cwd: root, env });
  let written = '';
  let pending = Promise.resolve();
  pty.onData((data) => {
    written += data;
    pending = pending.then(() => new Promise<void>((resolve) => terminal.write(data, resolve)));
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  const screen = () => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < terminal.rows; i++) lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const running: Running = {
    pty,
    screen,
    output: () => written,
    bufferType: () => terminal.buffer.active.type,
    resize(columns, rows) {
      terminal.resize(columns, rows);
      pty.resize(columns, rows);
    },
    exited,
    async waitFor(check, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await pending;
        const current = screen();
        if (check(current)) return current;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the terminal shows:\n${current}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async settled(check, what, timeoutMs = 10_000) {
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
          await pending;
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
