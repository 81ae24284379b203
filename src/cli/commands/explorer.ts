// `dpx` with no command: the interactive explorer. The UI (ink, react) loads only here, so that the
// scriptable commands start fast.

import type { CommandContext } from '../context.js';

export async function explorerCommand(ctx: CommandContext): Promise<number> {
  const session = ctx.session();
  const { runExplorer } = await import('../../ui/app.js');
  await runExplorer({
    settings: ctx.settings,
    session,
    configPath: ctx.configPath,
    ...(ctx.demo === undefined ? {} : { demo: ctx.demo }),
  });
  return 0;
}
