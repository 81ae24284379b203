// Files dpx writes for the user (the config, caches): whole or not at all, readable only by the user.
import { mkdirSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomHex } from '../api/case/random-hex.js';

/** Temp file + rename, so a crash or a second dpx writing at once never leaves a half-written file. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  await makeDirectory(dirname(path));
  const temporary = `${path}.${process.pid}.${randomHex(4)}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * `mkdir -p`, one level at a time, readable only by the user. Node 20's recursive mkdir retries forever, at full CPU, where the file
 * system answers a create with ENOENT although the parent exists (a folder under /proc).
 */
export async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    await makeDirectory(parent);
    await mkdir(dir, { mode: 0o700 }).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== 'EEXIST') throw again;
    });
  }
}

/** makeDirectory, synchronous: for an `exit` listener (src/cli/code-cache.ts), where nothing awaited runs. */
export function makeDirectorySync(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    makeDirectorySync(parent);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}
