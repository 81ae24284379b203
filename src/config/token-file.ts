// Reads a bearer token from a file, refusing one that other users can read — as ssh does with keys —
// because a token readable by others is already leaked. A token is one line: the file (or a command's
// output, or a variable) holding more is refused before anything is sent.

import { readFile, stat } from 'node:fs/promises';
import { SafetyError, UsageError } from '../api/errors.js';
import { checkNoControlCharacter } from '../api/security/control-chars.js';

export async function readTokenFile(path: string): Promise<string> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    throw unreadable(path, error);
  }
  // Windows reports no meaningful group/other bits.
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new SafetyError(
      `the token file ${path} is accessible to other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')})`,
      `restrict it with: chmod 600 '${path.replaceAll("'", `'\\''`)}'`,
    );
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw unreadable(path, error);
  }
  return oneToken(text, `the token file ${path}`, 'put the bearer token (and nothing else) in the file');
}

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: 'there is no such file',
  ENOTDIR: 'a folder on its path is a file',
  EISDIR: 'it is a folder',
  EACCES: 'you may not read it',
  EPERM: 'you may not read it',
};

/** A token file that cannot be read, said in words with the code in brackets: "there is no such file (ENOENT)". */
function unreadable(path: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const problem =
    code === undefined ? (error as Error).message : `${FILE_PROBLEMS[code] ?? 'it cannot be read'} (${code})`;
  return new UsageError(
    `cannot read the token file ${path}: ${problem}`,
    "check the path given by --token-file or the profile's tokenFile",
  );
}

/**
 * The token in `text`: one line, surrounding white space and a final newline left out. Two lines would
 * end up in an HTTP header, which Node refuses (ERR_INVALID_CHAR) only once the request is on its way.
 */
export function oneToken(text: string, where: string, fix: string): string {
  const token = text.trim();
  if (token === '') throw new UsageError(`${where} is empty`, fix);
  const lines = token.split(/\r\n|\r|\n/).length;
  if (lines > 1) throw new UsageError(`${where}: expected one token, found ${lines} lines`, fix);
  checkNoControlCharacter(token, where, { secret: true });
  return token;
}
