import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowestFirst from './test/sequencer.js';

// The suite reaches no host but 127.0.0.1, with certificates of its own; a test of the machine's extra
// authorities sets NODE_EXTRA_CA_CERTS itself. Where the machine sets it (220 KiB of PEM here), every Node
// process the suite starts reads it first: 40 ms of CPU for each fork, explorer and command run.
delete process.env['NODE_EXTRA_CA_CERTS'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // A browser is not needed for `npm test`: `npm run test:browser` (vitest.browser.config.ts) runs these.
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    // Builds dist/ once, before any file runs: several files run the bundle, and a build started from
    // one of them would replace dist/chunks under another.
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // Forks, as @lydell/node-pty (test/e2e) must load in a process of its own, not a worker thread.
    pool: 'forks',
    // ink's string-width and ansi-tokenize through the bundle's wrappers, as the explorer runs them
    // (test/render-shims/hooks.mjs).
    execArgv: ['--import', './test/render-shims/register.mjs'],
    // A fork runs file after file in one process and module graph. A fresh process per file cost ~0.3 s
    // of start-up, and a fresh graph ~0.5–1.5 s to import ink, react and the explorer again. src/ keeps
    // only caches keyed by what they hold; a helper's state for one file is made anew for each
    // (test/helpers/per-file.ts).
    isolate: false,
    // Vitest's default is one fork fewer than the cores (1 on 2 cores). Most files spend much of their
    // time waiting (servers, timeouts, Retry-After, child processes, a pseudo-terminal settling), so
    // more forks than cores keep both busy: on 2 cores, 3 forks took 92 s and 5 took 76 s for the same
    // 1,264 tests (`CI=true npm test`, quiet machine). Each fork warms up on its own (about 5 s of CPU),
    // so more is not always better: for 1,574 tests, 5 forks took 70.5 s (cores 175 % busy), 6 took 68.4
    // and 68.7 s (187 %), 7 took 68.4 and 69.3 s (194 %, 10 s more CPU than 5).
    maxWorkers: availableParallelism() + 4,
    // A fresh checkout has no durations to order files by (test/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    // Room for a busy machine: a test that passes in 2 s quiet took 37 s with the cores shared eight ways,
    // and a timeout only ever ends a test that would fail anyway (waits are on screens and states).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
