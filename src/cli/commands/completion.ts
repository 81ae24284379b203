// `dpx completion bash|zsh|fish`: prints the shell's completion script (see dpx completion --help).

import { UsageError } from '../../api/errors.js';
import { completionScript, isShell, SHELLS } from '../completion/scripts.js';
import { DataWriter, type CliIO } from '../io.js';

export async function completionCommand(io: CliIO, positionals: string[]): Promise<number> {
  const [shell, ...extra] = positionals;
  if (!isShell(shell) || extra.length > 0) {
    throw new UsageError(`dpx completion takes one shell: ${SHELLS.join(', ')}`, 'e.g. eval "$(dpx completion bash)" in ~/.bashrc; dpx completion --help shows each shell');
  }
  const out = new DataWriter(io.stdout);
  try {
    await out.write(completionScript(shell));
  } finally {
    out.release();
  }
  return 0;
}
