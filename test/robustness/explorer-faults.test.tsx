// The explorer in front of a misbehaving server: the failure shows in the error panel with its status
// and hint, and the screen stays usable — keys still move, reload and go back.
import { render } from 'ink-testing-library';
import { step } from '../ui/step.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../src/api/session/session.js';
import { ColourProvider } from '../../src/ui/components/theme.js';
import { Frame } from '../../src/ui/components/Frame.js';
import { Navigator } from '../../src/ui/nav/navigator.js';
import { Services } from '../../src/ui/services/services.js';
import * as faults from '../helpers/faults.js';
import { startFaultServer, type Fault, type FaultServer } from '../helpers/faults.js';
import { SCREENS } from '../../src/ui/registry.js';

let server: FaultServer | undefined;
let navigator: Navigator | undefined;
let unmount: (() => void) | undefined;

afterEach(async () => {
  navigator?.stop();
  if (unmount) await step(() => unmount!());
  await server?.close();
  server = navigator = unmount = undefined;
});

async function mount(list: Fault, timeoutMs = 2_000) {
  server = await startFaultServer({ list, items: 30 });
  const session = new Session({
    baseUrl: server.baseUrl,
    token: 'explorer-fault-token',
    timeoutMs,
    maxRetries: 1,
    retryBaseDelayMs: 20,
  });
  navigator = new Navigator(new Services({ connection: { session } }), {
    screens: SCREENS,
    columns: 100,
    rows: 24,
    onQuit: () => undefined,
    watchSeconds: 3600,
  });
  const view = await step(async () =>
    render(
      <ColourProvider enabled={false}>
        <Frame navigator={navigator!} />
      </ColourProvider>,
    ),
  );
  unmount = view.unmount;
  await step(async () => {
    await navigator!.start();
  });
  const frame = () => view.lastFrame() ?? '';
  const until = async (test: (text: string) => boolean, what: string, withinMs = 5_000) => {
    const deadline = performance.now() + withinMs;
    while (!test(frame())) {
      if (performance.now() > deadline) throw new Error(`no ${what} within ${withinMs} ms; the frame is:\n${frame()}`);
      await step(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
    }
  };
  const press = async (keys: string) => {
    await step(async () => {
      view.stdin.write(keys);
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  };
  await until((text) => text.includes(faults.RESOURCE), 'catalog');
  return { frame, until, press };
}

describe('the explorer after a fault', () => {
  it('shows a 503 with its status and hint in the panel, then a reload key recovers the list', async () => {
    const healthy = faults.nextCycle;
    const { frame, until, press } = await mount((response, request, raw) =>
      request.count <= 2 ? faults.status(503)(response, request, raw) : healthy(response, { ...request, page: 1 }, raw),
    );
    await press('\r');
    await until((text) => text.includes('503'), 'error panel');
    expect(frame()).toMatch(/the server or a proxy in front of it failed/);
    await press('r');
    await until((text) => text.includes('thing-1'), 'list after reload');
    expect(frame()).not.toContain('503');
  });

  it('shows a timeout as a network error, and Escape still takes the screen home', async () => {
    const { frame, until, press } = await mount(faults.noResponse, 400);
    await press('\r');
    await until((text) => /no answer .* within 0\.4 s/.test(text), 'timeout panel');
    expect(frame()).toMatch(/raise --timeout/);
    await press('\x1b');
    await until((text) => /resources/.test(text) && !text.includes('no answer'), 'catalog again');
  });
});
