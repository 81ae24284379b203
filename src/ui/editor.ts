// Editing text in the user's editor, as `git commit` does: a temporary file, $VISUAL or $EDITOR (else
// vi) run through the shell so that `code --wait` works, the file read back when the editor exits. The
// terminal is handed over meanwhile: raw mode off and the alternate screen left, then both restored and
// the screen cleared for ink's next full frame.
import { PASTE_OFF, PASTE_ON } from './paste.js';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../api/errors.js';

export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env['VISUAL']?.trim() || env['EDITOR']?.trim() || 'vi';
}

/**
 * Returns the edited text. The editor runs synchronously on purpose: while it owns the terminal, the
 * event loop must not read stdin, or the two would split the keystrokes between them.
 */
export async function editInEditor(
  initial: string,
  env: NodeJS.ProcessEnv,
  options: { extension?: string } = {},
): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'dpx-edit-'));
  // .jsonc: a body may hold comments (the template's commented-out fields), which editors then accept.
  const file = join(directory, `body${options.extension ?? '.jsonc'}`);
  try {
    await writeFile(file, initial, 'utf8');
    const editor = editorCommand(env);
    const result =
      process.platform === 'win32'
        ? spawnSync(`${editor} "${file}"`, { stdio: 'inherit', shell: true, env })
        : spawnSync('/bin/sh', ['-c', `${editor} "$@"`, editor, file], { stdio: 'inherit', env });
    if (result.error)
      throw new UsageError(
        `cannot start the editor ${editor}: ${result.error.message}`,
        'set $VISUAL or $EDITOR to an editor on your PATH',
      );
    if (result.status !== 0) {
      throw new UsageError(
        `the editor ${editor} exited with status ${result.status ?? result.signal}; the body is unchanged`,
        'save and quit the editor normally to keep your changes',
      );
    }
    return await readFile(file, 'utf8');
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export interface TerminalControl {
  /** Leaves raw mode and the alternate screen, so the editor gets a normal terminal. */
  suspend(): void;
  /** Enters them again and redraws. */
  resume(): void;
}

/** Runs `work` with the terminal handed over, and takes it back even when `work` fails. */
export async function withTerminalSuspended<T>(control: TerminalControl, work: () => Promise<T>): Promise<T> {
  control.suspend();
  try {
    return await work();
  } finally {
    control.resume();
  }
}

// Bracketed paste off while the editor has the terminal (it asks for its own), and on again after.
const LEAVE = `${PASTE_OFF}\x1b[?25h\x1b[?1049l`;
const ENTER = `\x1b[?1049h\x1b[H\x1b[2J${PASTE_ON}`;

export function terminalControl(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): TerminalControl {
  return {
    suspend() {
      stdout.write(LEAVE);
      if (stdin.isTTY) stdin.setRawMode(false);
    },
    resume() {
      if (stdin.isTTY) stdin.setRawMode(true);
      stdout.write(ENTER);
    },
  };
}
