// The keys every screen answers to unless it takes them itself (a screen that types takes letters).
import { noticeOf } from './problems.js';
import type { Binding, ScreenContext } from './screen.js';

/** `T`: the trail so far into ./dpx-trail-<time>.har (tokens are the trail's to redact). */
export async function writeTrail(ctx: ScreenContext<unknown>): Promise<void> {
  try {
    const written = await ctx.services.writeTrail();
    ctx.nav.notify(written ? `trail written: ${written.path} (${written.entries} requests, tokens redacted)` : 'no trail is being kept in this session');
  } catch (error) {
    ctx.nav.notify(noticeOf('trail not written', error));
  }
}

export const GLOBAL_BINDINGS: readonly Binding<unknown>[] = [
  {
    keys: [':'],
    help: 'palette: resource, "tasks v1", an operation ("<resource> <operation-id>" opens its form), "ou <name|uuid>", "profile <name>" or "ctx <name>", "bm <name>", "trail", "home"',
    hint: ': palette',
    run: (ctx) => ctx.nav.open('palette', {}),
  },
  { keys: ['?'], help: 'this help', hint: '? help', run: (ctx) => ctx.nav.open('help', {}) },
  {
    keys: ['o'],
    help: 'choose the organizational unit (OU) every request is made in: a tree when the index has units (on home: :ou)',
    hint: 'o OU',
    run: (ctx) => ctx.nav.open('ou-picker', {}),
  },
  {
    keys: ['T'],
    help: 'write the trail so far (every request and response, tokens redacted) to ./dpx-trail-<time>.har (on home: :trail)',
    hint: 'T trail',
    run: (ctx) => void writeTrail(ctx),
  },
  { keys: ['E'], help: 'the last request and its response as sent and received (headers, raw body; credentials masked)', run: (ctx) => ctx.nav.open('exchange', { origin: ctx.services.origin() }) },
  { keys: ['escape', 'backspace'], help: 'back to the previous screen, cursor and page as they were', hint: 'Esc back', run: (ctx) => ctx.nav.back() },
  { keys: ['q'], help: 'quit (ctrl-c quits from anywhere)', run: (ctx) => ctx.nav.quit() },
];
