// `dpx completion bash|zsh|fish`: prints the shell's completion script (see dpx completion --help).
// Typed at a terminal, it also says on stderr where the script goes; `dpx completion` alone says that
// for the user's shell ($SHELL) and the others.

import { UsageError } from '../../../api/errors.js';
import { completionScript, INSTALL, isShell, shellOf, type Shell } from './scripts.js';
import { SHELLS, type spec } from './spec.js';
import { DataWriter } from '../../io.js';
import type { LocalInput } from '../command.js';
import type { OptionValues } from '../../options/shared.js';

export async function run({ io, positionals }: LocalInput<OptionValues<typeof spec.options>>): Promise<number> {
  const [shell, ...extra] = positionals;
  if (shell === undefined) {
    const yours = shellOf(io.env);
    const order = yours === undefined ? [...SHELLS] : [yours, ...SHELLS.filter((other) => other !== yours)];
    const lines = order.map((name) => `${name}${name === yours ? ' (your shell)' : ''}:\n${installLines(name)}`);
    io.stdout.write(`dpx completion bash|zsh|fish prints the script. Install it once:\n\n${lines.join('\n\n')}\n`);
    return 0;
  }
  if (!isShell(shell) || extra.length > 0) {
    throw new UsageError(
      `dpx completion takes one shell: ${SHELLS.join(', ')}`,
      'e.g. eval "$(dpx completion bash)" in ~/.bashrc; dpx completion alone says where each shell\'s script goes',
    );
  }
  // At a terminal the script is being looked at, not loaded: say where it goes. Piped or captured, stay quiet.
  if (io.stdout.isTTY) io.stderr.write(`# to install it:\n${installLines(shell)}\n`);
  const out = new DataWriter(io.stdout);
  try {
    await out.write(completionScript(shell));
  } finally {
    out.release();
  }
  return 0;
}

function installLines(shell: Shell): string {
  return INSTALL[shell].map((line) => `  ${line}`).join('\n');
}
