// Folders a test makes in the temporary directory, removed when its file ends (test/setup.ts): a run of
// the suite left over 200 of them behind, and a developer's temporary directory grew by that at each run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
/** How the processes a test started and may have killed end: they write dpx's cache as they exit. */
const running = new Set<Promise<unknown>>();

/** Counts `exited` among the processes whose end comes before the folders are removed. */
export function untilExited(exited: Promise<unknown>): void {
  running.add(exited);
  void exited.finally(() => running.delete(exited));
}

/** A new private folder in the temporary directory, its name starting with `prefix`. */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}

/**
 * Removes the folders made since the last call, once the processes counted by `untilExited` have ended:
 * test/setup.ts calls it once each file has ended.
 */
export async function removeTemporaryFolders(): Promise<void> {
  // A process killed in the last test may not have ended yet; one that never ends is not waited for long.
  await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
}
