// Mounts the explorer on a session against the demo control plane, in ink-testing-library, and gives
// tests keys to press and a way to wait for what the screen shows.
import { act } from 'react';
import { render } from 'ink-testing-library';
import { Session } from '../../src/api/session.js';
import type { DemoRegion } from '../../src/demo/server.js';
import { ColourProvider } from '../../src/ui/components/theme.js';
import { ExplorerView } from '../../src/ui/components/ExplorerView.js';
import { Explorer, type ExplorerContext } from '../../src/ui/explorer.js';

export interface Mounted {
  explorer: Explorer;
  session: Session;
  frame(): string;
  press(...inputs: string[]): Promise<void>;
  waitFor(check: (frame: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  quits: number;
  unmount(): Promise<void>;
}

export const KEY = { enter: '\r', escape: '\x1b', backspace: '\x7f', tab: '\t', up: '\x1b[A', down: '\x1b[B', left: '\x1b[D', right: '\x1b[C', end: '\x1b[F', home: '\x1b[H' };

export interface MountOptions {
  token?: string;
  rows?: number;
  ou?: string;
  readOnly?: boolean;
  /** Anything else the explorer is given (a trail, profiles, a config file); `session` replaces the demo's. */
  context?: Partial<ExplorerContext>;
}

export async function mount(region: DemoRegion, options: MountOptions = {}): Promise<Mounted> {
  const token = options.token ?? region.tokens.personal;
  const session = options.context?.session
    ?? new Session({ baseUrl: region.baseUrl, token, readOnly: options.readOnly ?? true, ...(options.ou ? { ou: options.ou } : {}) });
  let quits = 0;
  const explorer = new Explorer({
    session, token, profile: 'test', columns: 100, rows: options.rows ?? 30, onQuit: () => { quits++; }, watchSeconds: 0.3, ...options.context,
  });
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(<ColourProvider enabled={false}><ExplorerView explorer={explorer} /></ColourProvider>);
  });
  await act(async () => {
    await explorer.start();
  });
  const frame = () => instance.lastFrame() ?? '';
  const mounted: Mounted = {
    explorer,
    session,
    frame,
    get quits() {
      return quits;
    },
    async press(...inputs) {
      for (const input of inputs) {
        await act(async () => {
          instance.stdin.write(input);
        });
        // Escape is held back by ink's input parser until it knows no sequence follows.
        if (input === KEY.escape) await act(() => new Promise((r) => setTimeout(r, 30)));
      }
    },
    async waitFor(check, what, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = frame();
        if (check(current)) return current;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows:\n${current}`);
        await act(() => new Promise((r) => setTimeout(r, 20)));
      }
    },
    async unmount() {
      explorer.stop();
      await act(async () => instance.unmount());
    },
  };
  return mounted;
}
