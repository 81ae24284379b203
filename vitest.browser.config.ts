// `npm run test:browser`: the report rendered in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core). Kept out of `npm test`, which must not need a browser; in CI (.ci/run) it runs after
// it, and a missing browser fails it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
