// Adding a finished command to its case, under the case's lock: the case is copied, the command's spool
// appended to the copy with its page, and the copy renamed over the case — so the file at the case's
// path is always a whole HAR document, the one before this command or the one after. The lock is
// proper-lockfile's: a folder `<case>.lock` its holder keeps fresh, taken over once stale, so a writer
// killed while it holds the lock holds the next one up for seconds, not for ever.

import { constants } from 'node:fs';
import { chmod, copyFile, link, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { lock } from 'proper-lockfile';
import { UsageError } from '../errors.js';
import { CASE_HEAD, caseTail, inspectCase } from './layout.js';
import { randomHex } from './random-hex.js';

/** A lock not refreshed for this long belongs to a writer that is gone (its holder refreshes it every second). */
const STALE_LOCK_MS = 4_000;
/** How long a writer waits for the case's lock, at most: several stale periods. */
const LOCK_WAIT_MS = 60_000;

/** A command's entries, one line each with a leading comma, in a file of their own. */
export interface Spool {
  path: string;
  length: number;
}

/** A name beside the case for a file of this process's own (a spool, a copy), hidden, never another's. */
export function besideCase(target: string, suffix: string): string {
  return join(dirname(target), `.${basename(target)}.${hostname()}.${process.pid}.${randomHex(4)}.${suffix}`);
}

/**
 * Adds the spool's entries and `page` (one JSON line) to the case at `target`, creating it when absent.
 * A case replaced meanwhile by a file dpx did not write is left as it is: `keepAside` saves the command's
 * trail elsewhere and names where.
 */
export async function appendToCase(
  target: string,
  spool: Spool,
  page: string,
  keepAside: () => Promise<string>,
): Promise<void> {
  const held = await lockCase(target);
  const copy = besideCase(target, 'tmp');
  try {
    await removeLeftovers(target);
    const found = await inspectCase(target);
    if (found.kind === 'foreign' || found.kind === 'earlier-dpx') {
      const aside = await keepAside();
      throw new UsageError(
        `${target} was replaced while this command ran by a file dpx did not write ` +
          `(${found.kind === 'foreign' ? found.why : 'an earlier dpx trail'}); it is left as it is`,
        `this command's trail is in ${aside}`,
      );
    }
    if (found.kind === 'absent') {
      const file = await open(copy, 'wx', 0o600);
      try {
        await writeCase(file, 0, CASE_HEAD, spool, false, caseTail([page]));
      } finally {
        await file.close();
      }
      held.check();
      // A link, unlike a rename, never replaces a file that appeared meanwhile.
      await link(copy, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST')
          throw new UsageError(`${target} appeared while this command ran`, 'run the command again');
        await rename(copy, target);
      });
    } else {
      await copyFile(target, copy, constants.COPYFILE_FICLONE);
      await chmod(copy, found.mode);
      const file = await open(copy, 'r+');
      try {
        await file.truncate(found.entriesEnd);
        await writeCase(
          file,
          found.entriesEnd,
          '',
          spool,
          found.entriesEnd > found.headLength,
          caseTail([...found.pageLines, page]),
        );
      } finally {
        await file.close();
      }
      held.check();
      await rename(copy, target);
    }
  } finally {
    await rm(copy, { force: true });
    await held.release().catch(() => undefined);
  }
}

/**
 * Removes what writers of this case on this machine left when they were killed: their spool (a command
 * that did not end, so never in the case) and their copy. A file whose writer still runs is left alone.
 */
async function removeLeftovers(target: string): Promise<void> {
  const prefix = `.${basename(target)}.${hostname()}.`;
  for (const name of await readdir(dirname(target)).catch(() => [])) {
    if (!name.startsWith(prefix) || !/\.(spool|tmp)$/.test(name)) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    await rm(join(dirname(target), name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the case's lock (`<case>.lock`), waiting for another writer to finish; a lock its holder stopped
 * refreshing (killed) is taken over once stale. `check` throws when the lock was lost meanwhile.
 */
export async function lockCase(target: string): Promise<{ release: () => Promise<void>; check: () => void }> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lock(target, {
      realpath: false,
      stale: STALE_LOCK_MS,
      update: 1_000,
      retries: { retries: Math.ceil(LOCK_WAIT_MS / 250), factor: 1, minTimeout: 250, maxTimeout: 250, randomize: true },
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    throw new UsageError(
      `cannot add this command to the case ${target}: its lock ${target}.lock stayed taken (${(error as Error).message})`,
      `another dpx is writing it; if none is, remove the folder ${target}.lock`,
    );
  }
  return {
    release,
    check: () => {
      if (compromised)
        throw new UsageError(
          `lost the lock of the case ${target} while writing it: ${compromised.message}`,
          'run the command again',
        );
    },
  };
}

/** Refuses any existing file at `target` that dpx did not write as a case. */
export async function refuseUnlessOurs(target: string): Promise<void> {
  const found = await inspectCase(target).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot read ${target}: ${error.code ?? error.message}`,
      'give --trail a file you can read and write',
    );
  });
  if (found.kind === 'foreign') {
    throw new UsageError(
      `${target} was not written by dpx (${found.why}): dpx never writes over a file it did not write`,
      'give --trail a new file name, or a case that dpx recorded',
    );
  }
  if (found.kind === 'earlier-dpx') {
    throw new UsageError(
      `${target} is a trail of an earlier dpx, written before case files: dpx reads it but does not add to it`,
      'give --trail a new file name',
    );
  }
}

/**
 * Writes at `position`: `head`, then the spool's entries (its leading comma dropped when the case has no
 * entry before them), then `tail`.
 */
export async function writeCase(
  file: FileHandle,
  position: number,
  head: string,
  spool: Spool,
  afterEntries: boolean,
  tail: string,
): Promise<void> {
  let at = position;
  if (head !== '') at += (await file.write(head, at)).bytesWritten;
  const spoolLength = spool.length;
  if (spoolLength > 0) {
    const source = await open(spool.path, 'r');
    try {
      const chunk = Buffer.allocUnsafe(Math.min(spoolLength, 1 << 20));
      let from = afterEntries ? 0 : 1;
      while (from < spoolLength) {
        const { bytesRead } = await source.read(chunk, 0, Math.min(chunk.length, spoolLength - from), from);
        if (bytesRead === 0) break;
        await writeAll(file, chunk.subarray(0, bytesRead), at);
        at += bytesRead;
        from += bytesRead;
      }
    } finally {
      await source.close();
    }
  }
  await writeAll(file, Buffer.from(tail), at);
}

async function writeAll(file: FileHandle, chunk: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < chunk.length)
    written += (await file.write(chunk, written, chunk.length - written, position + written)).bytesWritten;
}
