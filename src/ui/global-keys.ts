// The keys every screen answers to unless it takes them itself (a screen that types takes letters). Beside
// app.ts, as the registry is: some open screens' own actions (the saved views, the trail).
import { QUIT_HELP } from './keys.js';
import { writeTrail } from './screens/trail.js';
import { listViews } from './screens/views.js';
import type { Binding, ScreenContext } from './nav/screen.js';

/** The word typed to turn writes on: a habitual key press cannot do it. */
export const WRITES_WORD = 'writes';

/**
 * `W`: writes off at once; on only after the word is typed, and never where the profile is read-only
 * (or a trail answers). It acts on the session of the screen in front — a list or form opened on another
 * profile's control plane has its own — which is the one the header shows. The place is kept: the
 * confirmation is an overlay.
 */
export function toggleWrites(ctx: ScreenContext<unknown>): void {
  const { connection } = ctx.nav.frontOrigin();
  const { session } = connection;
  const where = `${connection.profile ? `profile ${connection.profile} · ` : ''}${new URL(session.baseUrl).host}`;
  if (!session.readOnly) {
    session.readOnly = true;
    return ctx.nav.notify(`writes off: read-only on ${where} (W to turn them on again)`);
  }
  if (connection.writesLocked) return ctx.nav.notify(`writes stay off: ${connection.writesLocked} (${where})`);
  ctx.nav.open('prompt', {
    title: `Allow writes (POST, PUT, PATCH, DELETE) on ${where}? Each is still shown and confirmed before it goes.`,
    input: '',
    hint: `Type "${WRITES_WORD}" and Enter to allow them · Esc keeps read-only`,
    submit: (typed) => {
      if (typed.trim().toLowerCase() !== WRITES_WORD)
        return ctx.nav.notify(`writes stay off: "${typed.trim()}" is not "${WRITES_WORD}"`);
      session.readOnly = false;
      ctx.nav.notify(`WRITES ALLOWED on ${where} — W turns them off`);
    },
  });
}

export const GLOBAL_BINDINGS: readonly Binding<unknown>[] = [
  {
    keys: [':'],
    help: 'palette: resource, "tasks v1", an operation ("<resource> <operation-id>" opens its form), "ou <name|uuid>", "profile <name>" or "ctx <name>", "bm <name>", "view <name>", "trail", "home"',
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
  {
    keys: ['W'],
    help: 'writes on (after typing "writes") or off, in place, on the session of the screen in front; a read-only profile stays read-only; the header shows the mode',
    hint: 'W writes',
    run: toggleWrites,
  },
  {
    keys: ['V'],
    help: 'the saved views (dpx view save NAME -- <command>): Enter opens one as its list, count or x-ray (also :view NAME)',
    run: (ctx) => void listViews(ctx),
  },
  {
    keys: ['E'],
    help: 'the last request and its response as sent and received (headers, raw body; credentials masked)',
    run: (ctx) => ctx.nav.open('exchange', { origin: ctx.services.origin() }),
  },
  {
    keys: ['escape', 'backspace'],
    help: 'back to the previous screen, cursor and page as they were',
    hint: 'Esc back',
    run: (ctx) => ctx.nav.back(),
  },
  { keys: ['q'], help: QUIT_HELP, run: (ctx) => ctx.nav.quit() },
];
