// The explorer in a real pseudo-terminal, its output parsed by a headless xterm, so "the screen
// changed" means what a person would see change. Times are taken when the bytes that changed the
// screen have been parsed.
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';

const { Terminal } = xterm;

export class ExplorerPty {
  constructor(bundle, args, env, { cols = 120, rows = 40 } = {}) {
    const childEnv = { ...env, TERM: 'xterm-256color' };
    // With any CI value the app draws no colour, and ink may draw nothing.
    delete childEnv.CI;
    this.terminal = new Terminal({ cols, rows, allowProposedApi: true });
    this.startedAt = performance.now();
    this.process = pty.spawn(process.execPath, [bundle, ...args], {
      name: 'xterm-256color',
      cols,
      rows,
      env: childEnv,
    });
    this.waiters = new Set();
    this.exited = new Promise((resolve) => this.process.onExit(resolve));
    this.process.onData((data) => {
      this.terminal.write(data, () => {
        const at = performance.now();
        for (const waiter of [...this.waiters]) waiter(at);
      });
    });
  }

  get pid() {
    return this.process.pid;
  }

  screen() {
    const buffer = this.terminal.buffer.active;
    const lines = [];
    for (let y = 0; y < this.terminal.rows; y += 1)
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Resolves with the time (performance.now) at which the screen first satisfied `test`. */
  waitFor(test, timeoutMs = 20_000, what = 'a screen') {
    return new Promise((resolve, reject) => {
      const check = (at) => {
        if (!test(this.screen())) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(at);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; the screen shows:\n${this.screen()}`));
      }, timeoutMs);
      this.waiters.add(check);
      check(performance.now());
    });
  }

  /** Writes `keys` and resolves with the milliseconds until the screen differs from what it was. */
  async press(keys, timeoutMs = 10_000) {
    const before = this.screen();
    const sentAt = performance.now();
    const changing = this.waitFor((screen) => screen !== before, timeoutMs, `a change after ${JSON.stringify(keys)}`);
    this.process.write(keys);
    return (await changing) - sentAt;
  }

  /** Waits until no output has arrived for `quietMs`. */
  async settle(quietMs = 150) {
    for (;;) {
      const before = this.screen();
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      if (this.screen() === before) return;
    }
  }

  async quit() {
    this.process.write('q');
    const timer = setTimeout(() => this.process.kill(), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}
