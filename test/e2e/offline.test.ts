// A case file end to end, in real pseudo-terminals: the explorer records a trail while someone browses
// the demo, the demo stops, and the trail is browsed offline — the same pages and record, the header's
// OFFLINE badge, and "not in this case" for anything not recorded, with no connection made.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the bench's plain ES module, without type declarations
import { ExplorerPty } from '../../bench/lib/pty.mjs';
import { startDemo, type DemoHandle } from '../../src/demo/server.js';
import { temporaryFolder } from '../helpers/temporary.js';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'dpx.js');
const dir = temporaryFolder('dpx-case-');
const trail = join(dir, 'case-42.har');

interface Pty {
  screen(): string;
  waitFor(test: (screen: string) => boolean, timeoutMs?: number, what?: string): Promise<number>;
  settle(quietMs?: number): Promise<void>;
  quit(): Promise<void>;
  process: { write(keys: string): void; kill(): void };
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  const base = { PATH: process.env['PATH'] ?? '', HOME: dir, DPX_CONFIG: join(dir, 'config.json'), ...extra };
  return base;
}

async function keys(pty: Pty, ...sequence: string[]): Promise<void> {
  for (const key of sequence) {
    pty.process.write(key);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

let demo: DemoHandle | undefined;
let recorded: { taskId: string; page2: string } | undefined;

beforeAll(async () => {
  if (!existsSync(bundle)) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  demo = await startDemo({ port: 0 });
  const region = demo.regions[0]!;
  const online: Pty = new ExplorerPty(
    bundle,
    ['--trail', trail],
    env({ DPX_BASE_URL: region.baseUrl, DPX_TOKEN: region.tokens.personal }),
    { cols: 120, rows: 35 },
  );
  try {
    await online.waitFor((s) => s.includes('resources') && s.includes('tasks'), 30_000, 'the catalog');
    await keys(online, ':', 'tasks', '\r');
    await online.waitFor((s) => /page 1\//.test(s), 30_000, 'page 1');
    await online.settle(300);
    await keys(online, 'n');
    await online.waitFor((s) => /page 2\//.test(s), 30_000, 'page 2');
    await online.settle(300);
    const row =
      online
        .screen()
        .split('\n')
        .find((line) => line.startsWith('›')) ?? '';
    await keys(online, '\r');
    await online.waitFor((s) => s.includes('fields ·'), 30_000, 'the record');
    const taskId = /id: "([0-9a-f-]{36})"/.exec(online.screen())?.[1] ?? '';
    recorded = { taskId, page2: row.slice(2, 16) };
    await online.settle(300);
    await online.quit();
  } finally {
    online.process.kill();
  }
  await demo.close();
  demo = undefined;
}, 90_000);

afterAll(async () => {
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dpx --offline FILE in a terminal', () => {
  it('browses what was recorded after the demo has stopped, and says what the trail does not hold', async () => {
    expect(recorded?.taskId).toMatch(/^[0-9a-f-]{36}$/);
    // No base URL, no token: everything comes from the trail.
    const offline: Pty = new ExplorerPty(bundle, ['--offline', trail], env(), { cols: 120, rows: 35 });
    try {
      const catalog = await offline
        .waitFor((s) => s.includes('resources') && s.includes('tasks'), 30_000, 'the recorded catalog')
        .then(() => offline.screen());
      expect(catalog).toContain('OFFLINE · case-42.har');
      expect(catalog).toContain('nothing is sent and no token is read');
      await keys(offline, ':', 'tasks', '\r');
      await offline.waitFor((s) => /page 1\//.test(s), 30_000, 'the recorded first page');
      await offline.settle(300);
      await keys(offline, 'n');
      await offline.waitFor(
        (s) => /page 2\//.test(s) && s.includes(recorded!.page2),
        30_000,
        'the recorded second page',
      );
      await keys(offline, '\r');
      await offline.waitFor((s) => s.includes(`id: "${recorded!.taskId}"`), 30_000, 'the recorded record');
      await keys(offline, '\x1b');
      await offline.waitFor((s) => /page 2\//.test(s), 30_000, 'the list again');
      // The header names the version the case answered in.
      expect(offline.screen()).toMatch(/tasks@v\d/);
      await keys(offline, 'G');
      await offline.waitFor((s) => s.includes('not in this case'), 30_000, 'a page that was never recorded');
      // A list the case never recorded still shows which version was asked for.
      await keys(offline, ':', 'alerts', '\r');
      await offline.waitFor(
        (s) => /alerts@v\d/.test(s) && s.includes('not in this case'),
        30_000,
        'a list never recorded, with its version',
      );
      await offline.quit();
    } finally {
      offline.process.kill();
    }
  });
});
