// `dpx` / `dpx --demo`: the full-screen explorer. Owns the terminal for its lifetime and gives it back
// as it found it on every exit path. The discovery index is asked for before ink and react load, so
// that the two overlap.
import type { Instance } from 'ink';
import type { Exchange } from '../api/exchange.js';
import { HarTrail } from '../api/trail.js';
import type { Settings } from '../config/settings.js';
import { Navigator } from './nav/navigator.js';
import { configProfiles, connectionFromSettings, type SessionHooks } from './services/connection.js';
import { Services } from './services/services.js';
import { fatalExitCode, takeOverTerminal } from './terminal.js';

export interface ExplorerOptions {
  settings: Settings & { baseUrl: string };
  /** What to call a control plane that comes from no profile, such as "demo". */
  label?: string;
  configPath: string;
  /** The --trail file the command line opened; without one the explorer keeps a private one for `T`. */
  trail?: HarTrail;
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
  const trail = options.trail ?? (await HarTrail.temporary(() => (settings.token ? [settings.token] : [])));
  const hooks: SessionHooks = {
    onExchange: (exchange: Exchange) => trail.record(exchange),
    // Called only once requests run, after the navigator below exists.
    onWarning: (message: string) => navigator.notify(message),
  };
  const services = new Services({
    connection: connectionFromSettings(settings, hooks, options.label),
    profiles: configProfiles(options.configPath, process.env, hooks),
    configPath: options.configPath,
    trail,
  });
  const navigator = new Navigator(services, { columns: stdout.columns || 80, rows: stdout.rows || 24, onQuit: () => finish() });

  let releaseStderr: () => void = () => undefined;
  let instance: Instance | undefined;
  const guard = takeOverTerminal(stdout, (reason, error) => {
    navigator.stop();
    void trail.close();
    instance?.unmount();
    releaseStderr();
    guard.restore();
    if (error !== undefined) process.stderr.write(`dpx: ${reason}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(fatalExitCode(reason));
  });
  releaseStderr = captureStderr((text) => navigator.notify(text.trim()));
  void navigator.start();
  try {
    const { drawExplorer } = await import('./draw.js');
    instance = drawExplorer(navigator);
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
