// Reads a bearer token from a file, refusing one that other users can read — as ssh does with keys —
// because a token readable by others is already leaked.

import { readFile, stat } from 'node:fs/promises';
import { SafetyError, UsageError } from '../api/errors.js';

export async function readTokenFile(path: string): Promise<string> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    throw new UsageError(`cannot read the token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'check the path given by --token-file or the profile\'s tokenFile');
  }
  // Windows reports no meaningful group/other bits.
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new SafetyError(
      `the token file ${path} is accessible to other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')})`,
      `restrict it with: chmod 600 '${path.replaceAll("'", `'\\''`)}'`,
    );
  }
  const token = (await readFile(path, 'utf8')).trim();
  if (token === '') throw new UsageError(`the token file ${path} is empty`, 'put the bearer token (and nothing else) in the file');
  return token;
}
