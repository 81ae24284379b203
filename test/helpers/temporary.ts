// Folders a test makes in the temporary directory, removed when its file ends (test/setup.ts): a run of
// the suite left over 200 of them behind, and a developer's temporary directory grew by that at each run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new private folder in the temporary directory, its name starting with `prefix`. */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}

/** Removes the folders made since the last call: test/setup.ts calls it once each file has ended. */
export function removeTemporaryFolders(): void {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
}
