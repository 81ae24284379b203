// Mounts the explorer on a session against the demo control plane, in ink-testing-library, and gives
// tests keys to press and a way to wait for what the screen shows.
import { step } from './step.js';
import { render } from 'ink-testing-library';
import { Session } from '../../src/api/session/session.js';
import type { DemoRegion } from '../../src/demo/server.js';
import { ColourProvider } from '../../src/ui/components/theme.js';
import { Frame } from '../../src/ui/components/Frame.js';
import { Navigator } from '../../src/ui/nav/navigator.js';
import type { Connection } from '../../src/ui/services/connection.js';
import { Services, type ServiceOptions } from '../../src/ui/services/services.js';
import { SCREENS } from '../../src/ui/registry.js';

export interface Mounted {
  navigator: Navigator;
  /** The session of the control plane the explorer is on now. */
  readonly session: Session;
  frame(): string;
  press(...inputs: string[]): Promise<void>;
  /** The terminal resized, as a resize event would: drawn at once, like a key. */
  resize(columns: number, rows: number): Promise<void>;
  waitFor(check: (frame: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  quits: number;
  unmount(): Promise<void>;
}

export const KEY = {
  enter: '\r',
  escape: '\x1b',
  backspace: '\x7f',
  tab: '\t',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  end: '\x1b[F',
  home: '\x1b[H',
};

export interface MountOptions {
  token?: string;
  rows?: number;
  columns?: number;
  ou?: string;
  readOnly?: boolean;
  /** The connection and services the explorer is given; `session` replaces the demo's. */
  context?: Partial<Connection> & Partial<Omit<ServiceOptions, 'connection'>>;
}

/** The explorer's frame on `navigator`, in ink-testing-library, started. */
export async function mountNavigator(
  navigator: Navigator,
  onQuit?: { quits: number },
): Promise<Omit<Mounted, 'session'>> {
  let instance!: ReturnType<typeof render>;
  await step(async () => {
    instance = render(
      <ColourProvider enabled={false}>
        <Frame navigator={navigator} />
      </ColourProvider>,
    );
  });
  await step(async () => {
    await navigator.start();
  });
  const frame = () => instance.lastFrame() ?? '';
  return {
    navigator,
    frame,
    get quits() {
      return onQuit?.quits ?? 0;
    },
    async press(...inputs) {
      for (const input of inputs) {
        await step(async () => {
          instance.stdin.write(input);
        });
        // Escape is held back by ink's input parser until it knows no sequence follows.
        if (input === KEY.escape) await step(() => new Promise((r) => setTimeout(r, 30)));
      }
    },
    async resize(columns, rows) {
      await step(async () => navigator.resize(columns, rows));
    },
    async waitFor(check, what, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = frame();
        if (check(current)) return current;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows:\n${current}`);
        await step(() => new Promise((r) => setTimeout(r, 20)));
      }
    },
    async unmount() {
      navigator.stop();
      await step(async () => instance.unmount());
    },
  };
}

export async function mount(region: DemoRegion, options: MountOptions = {}): Promise<Mounted> {
  const token = options.token ?? region.tokens.personal;
  const { session: given, profile, schemaDir, pageSize, offline: _offline, ...serviceOptions } = options.context ?? {};
  const session =
    given ??
    new Session({
      baseUrl: region.baseUrl,
      token,
      readOnly: options.readOnly ?? true,
      ...(options.ou ? { ou: options.ou } : {}),
    });
  const connection: Connection = {
    session,
    token: options.context?.token ?? token,
    profile: profile ?? 'test',
    ...(schemaDir ? { schemaDir } : {}),
    ...(pageSize ? { pageSize } : {}),
  };
  const quitCount = { quits: 0 };
  const services = new Services({ connection, ...serviceOptions });
  const navigator = new Navigator(services, {
    screens: SCREENS,
    columns: options.columns ?? 100,
    rows: options.rows ?? 30,
    onQuit: () => {
      quitCount.quits++;
    },
    watchSeconds: 0.3,
  });
  const mounted = await mountNavigator(navigator, quitCount);
  return Object.defineProperty(mounted, 'session', { get: () => navigator.services.connection.session }) as Mounted;
}
