// `dpx` with no command: the interactive explorer. The UI (ink, react) loads only here, so that the
// scriptable commands start fast. With --offline the settings carry the trail, so every session made
// from them answers from it; the label names it in the header.

import { filterCache } from '../../../config/cache.js';
import { defaultCacheDir } from '../../../config/cache-dir.js';
import type { CommandScope } from '../command.js';
import { sizeHeapForExplorer } from '../../heap.js';

export async function run(ctx: CommandScope): Promise<number> {
  // Fails here, before the terminal is taken over, when no control plane or token is configured.
  const { baseUrl } = ctx.session();
  const { label } = ctx;
  const { runExplorer } = await import('../../../ui/app.js');
  await runExplorer({
    onFirstFrame: sizeHeapForExplorer,
    settings: { ...ctx.settings, baseUrl },
    configPath: ctx.configPath,
    ...(label === undefined ? {} : { label }),
    ...(ctx.trail === undefined ? {} : { trail: ctx.trail }),
    // What lists' filters accept, learned by an x-ray, is kept as the command line's x-ray keeps it.
    ...(ctx.settings.offline ? {} : { filterStore: filterCache(defaultCacheDir(ctx.io.env)) }),
  });
  return 0;
}
