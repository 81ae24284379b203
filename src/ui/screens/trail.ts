// `T` and `:trail`: the trail so far written to a file, from any screen.
import { noticeOf } from '../nav/problems.js';
import type { ScreenContext } from '../nav/screen.js';

/** `T`: the trail so far into ./dpx-trail-<time>.har (tokens are the trail's to redact). */
export async function writeTrail(ctx: ScreenContext<unknown>): Promise<void> {
  try {
    const written = await ctx.services.writeTrail();
    ctx.nav.notify(
      written
        ? `trail written: ${written.path} (${written.entries} requests, tokens redacted)`
        : 'no trail is being kept in this session',
    );
  } catch (error) {
    ctx.nav.notify(noticeOf('trail not written', error));
  }
}
