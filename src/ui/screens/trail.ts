// `T` and `:trail`: the trail so far written to a file, from any screen.
import { noticeOf } from '../nav/problems.js';
import type { ScreenContext } from '../nav/screen.js';

/** `T`: the trail so far into ./dpx-trail-<time>.har (tokens are the trail's to redact). */
export async function writeTrail(ctx: ScreenContext<unknown>): Promise<void> {
  try {
    const written = await ctx.services.writeTrail();
    ctx.nav.notify(written ? writtenNotice(written) : 'no trail is being kept in this session');
  } catch (error) {
    ctx.nav.notify(noticeOf('trail not written', error));
  }
}

/** The dropped bodies said first: a long path is what the status line cuts. */
function writtenNotice({ path, entries, bodiesDropped }: { path: string; entries: number; bodiesDropped: number }) {
  if (bodiesDropped === 0) return `trail written: ${path} (${entries} requests, tokens redacted)`;
  return `trail written (bodies of the ${bodiesDropped} oldest of ${entries} requests dropped, tokens redacted): ${path}`;
}
