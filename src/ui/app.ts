// `dpx` / `dpx --demo`: the full-screen explorer. Owns the terminal for its lifetime and gives it back
// as it found it on every exit path. The discovery index is asked for before the screens, ink, react
// and yoga load, so that the two overlap.
import type { Instance } from 'ink';
import type { Exchange } from '../api/exchange.js';
import type { FilterStore } from '../api/xray/filters.js';
import { HarTrail } from '../api/case/trail.js';
import type { Settings } from '../config/settings.js';
import { configProfiles, connectionFromSettings, type SessionHooks } from './services/connection.js';
import { Services } from './services/services.js';
import { fatalExitCode, takeOverTerminal } from './terminal.js';

/** How long an explorer ended by a signal or an error waits for its trail to close before it exits. */
const TRAIL_CLOSE_MS = 3000;

export interface ExplorerOptions {
  settings: Settings & { baseUrl: string };
  /** What to call a control plane that comes from no profile, such as "demo". */
  label?: string;
  configPath: string;
  /** The --trail file the command line opened; without one the explorer keeps a private one for `T`. */
  trail?: HarTrail;
  /** Called once the first frame is drawn: the command line sizes V8's heap for the explorer then. */
  onFirstFrame?: () => void;
  /** Where an x-ray keeps what each list's filter accepts between runs (the cache folder); none offline. */
  filterStore?: FilterStore;
}

/** Holds stderr while the frame is on screen: stray warnings would tear it. They come back as notices. */
function captureStderr(onText: (text: string) => void): () => void {
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    onText(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stderr.write;
  return () => {
    process.stderr.write = original;
  };
}

export async function runExplorer(options: ExplorerOptions): Promise<void> {
  const stdout = process.stdout;
  const { settings } = options;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  // Every profile's session records into one trail, so that `T` can always write the session so far.
  const trail =
    options.trail ??
    (await HarTrail.temporary(() =>
      [settings.token ?? settings.tokenCommand?.known ?? ''].filter((token) => token !== ''),
    ));
  // The index's warnings can come before the navigator exists; they wait for it.
  const early: string[] = [];
  let notify = (message: string): void => {
    early.push(message);
  };
  const hooks: SessionHooks = {
    onExchange: (exchange: Exchange) => trail.record(exchange),
    onWarning: (message: string) => notify(message),
  };
  const services = new Services({
    connection: connectionFromSettings(settings, hooks, options.label),
    profiles: configProfiles(options.configPath, process.env, hooks),
    configPath: options.configPath,
    trail,
    ...(options.filterStore === undefined ? {} : { filterStore: options.filterStore }),
  });
  // Asked for before the navigator and the registry, which holds every screen, load: the answer is usually in by
  // the first frame, which then draws the catalog rather than a loading screen to be drawn again.
  services.askCatalogEarly();
  const [{ Navigator }, { SCREENS }, { drawExplorer }] = await Promise.all([
    import('./nav/navigator.js'),
    import('./registry.js'),
    import('./draw.js'),
  ]);
  const navigator = new Navigator(services, {
    screens: SCREENS,
    columns: stdout.columns || 80,
    rows: stdout.rows || 24,
    onQuit: () => finish(),
  });
  notify = (message) => navigator.notify(message);
  for (const message of early) navigator.notify(message);

  let releaseStderr: () => void = () => undefined;
  let instance: Instance | undefined;
  const guard = takeOverTerminal(stdout, (reason, error) => {
    navigator.stop();
    instance?.unmount();
    releaseStderr();
    guard.restore();
    if (error !== undefined)
      process.stderr.write(`dpx: ${reason}: ${error instanceof Error ? error.message : String(error)}\n`);
    // Closing the trail removes a temporary one's folder, and adds the session to a --trail case: both are
    // asynchronous, and an exit at once left the folder in the temporary directory (a terminal closed,
    // SIGTERM) and the session out of the case. A case held by another writer's lock is not waited for long.
    const closed = trail.close().catch(() => undefined);
    const late = new Promise((resolve) => setTimeout(resolve, TRAIL_CLOSE_MS));
    void Promise.race([closed, late]).then(() => process.exit(fatalExitCode(reason)));
  });
  releaseStderr = captureStderr((text) => navigator.notify(text.trim()));
  void navigator.start();
  services.screensAsked();
  try {
    instance = drawExplorer(navigator);
    options.onFirstFrame?.();
    await done;
  } finally {
    navigator.stop();
    instance?.unmount();
    await instance?.waitUntilExit().catch(() => undefined);
    releaseStderr();
    guard.restore();
    await trail.close();
  }
}
