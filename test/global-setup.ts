// Once per run, before any test file: the bundle (dist/) is built when older than its inputs, so the
// files that run it (test/integration/cli/bundle.test.ts, test/e2e, …) find it ready and never build it
// while another file runs it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildBundle(): void {
  const root = join(import.meta.dirname, '..');
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
}
