// State that a helper keeps for one test file. Files share a fork's module graph (vitest.config.ts,
// `isolate: false`), so a helper module is evaluated once per fork, not once per file: test/setup.ts,
// which runs before each file, calls `startFile`, and each helper's `perFile` callback makes its state anew.
const resets: (() => void)[] = [];

/** Runs `reset` now, and again before each later test file in this process. */
export function perFile(reset: () => void): void {
  resets.push(reset);
  reset();
}

/** Called by test/setup.ts before each test file. */
export function startFile(): void {
  for (const reset of resets) reset();
}
