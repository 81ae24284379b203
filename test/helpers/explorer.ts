// The explorer as a support engineer runs it: the built bundle in a pty on the demo's first region, with no
// config file. The bundle is built once before the file's tests; the explorer a test started is killed after it.
import { join } from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { type DemoFixture, LOCAL_RATE } from './demo.js';
import { buildOnce, root, startDpx, type Running } from './pty.js';

export interface ExplorerOptions {
  columns?: number;
  rows?: number;
  /** DPX_RATE: '' is the default request rate (the one a real plane gets). */
  rate?: string;
}

/** Registers the build and the cleanup; the function returned starts the explorer (80×24 unless told). */
export function useExplorer(demo: DemoFixture): (options?: ExplorerOptions) => Running {
  let running: Running | undefined;
  afterEach(() => {
    running?.kill();
    running = undefined;
  });
  beforeAll(() => buildOnce(), 60_000);
  return ({ columns = 80, rows = 24, rate = LOCAL_RATE } = {}) => {
    const env: Record<string, string> = {
      DPX_BASE_URL: demo.region.baseUrl,
      DPX_TOKEN: demo.region.tokens.personal,
      DPX_CONFIG: join(root, 'no-such-dir', 'config.json'),
      DPX_RATE: rate,
    };
    running = startDpx([], { columns, rows, env });
    return running;
  };
}
