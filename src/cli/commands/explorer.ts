// `dpx` with no command: the interactive explorer. The UI (ink, react) loads only here, so that the
// scriptable commands start fast.

import type { CommandContext } from '../context.js';

export async function explorerCommand(ctx: CommandContext): Promise<number> {
  // Fails here, before the terminal is taken over, when no control plane or token is configured.
  const { baseUrl } = ctx.session();
  const { runExplorer } = await import('../../ui/app.js');
  await runExplorer({
    settings: { ...ctx.settings, baseUrl },
    configPath: ctx.configPath,
    ...(ctx.demo === undefined ? {} : { label: 'demo' }),
    ...(ctx.trail === undefined ? {} : { trail: ctx.trail }),
  });
  return 0;
}
