// `:` — one line to go anywhere: a resource, a version, an operation, a unit, a profile, a bookmark.
import { Box } from 'ink';
import { fit, truncate } from '../../../text/cells.js';
import { Choices, InputLine } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { editText } from '../../keys.js';
import { TEXT, type ScreenBase, type ScreenContext, type ScreenModule } from '../../nav/screen.js';
import { paletteEntries } from './entries.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    palette: Record<string, never>;
  }
}

export interface PaletteState extends ScreenBase {
  input: string;
  cursor: number;
}

type Ctx = ScreenContext<PaletteState>;

const entriesOf = (ctx: Ctx) => paletteEntries(ctx as ScreenContext<unknown>, ctx.state.input);

/**
 * Runs the best entry for what was typed. A choice typed before the index and the config file were read
 * (right after start or a profile switch) opens once they are, rather than finding nothing.
 */
function choose(ctx: Ctx): void {
  const entry = entriesOf(ctx)[ctx.state.cursor];
  const query = ctx.state.input;
  ctx.nav.back();
  if (entry) return entry.run();
  const connection = ctx.services.connection;
  if (ctx.services.catalogOf(connection) && ctx.services.configLoaded)
    return ctx.nav.notify(`nothing matches "${query}"`);
  ctx.nav.notify(`"${query}" opens when the discovery index arrives`);
  void Promise.all([ctx.services.catalog(connection), ctx.services.configReady()]).then(
    () => {
      if (ctx.services.connection !== connection) return;
      const best = paletteEntries(ctx as ScreenContext<unknown>, query)[0];
      if (best) best.run();
      else ctx.nav.notify(`nothing matches "${query}"`);
    },
    () => undefined,
  );
}

export const paletteScreen: ScreenModule<PaletteState, Record<string, never>> = {
  title: 'palette (:)',
  overlay: true,
  init: () => ({ input: '', cursor: 0 }),
  start: (ctx) =>
    void ctx.services.refreshConfig().then(
      () => ctx.update({}),
      (error: unknown) => ctx.nav.notify(`the config file cannot be read: ${String(error)}`),
    ),
  crumb: () => 'palette',
  bindings: [
    { keys: ['escape'], help: 'close', run: (ctx) => ctx.nav.back() },
    {
      keys: ['up', 'down'],
      help: 'choose',
      run: (ctx, key) =>
        ctx.update((s) => ({
          cursor: Math.max(0, Math.min(entriesOf(ctx).length - 1, s.cursor + (key.name === 'up' ? -1 : 1))),
        })),
    },
    {
      keys: ['tab'],
      help: 'complete the choice',
      run: (ctx) => ctx.update((s) => ({ input: entriesOf(ctx)[s.cursor]?.label ?? s.input, cursor: 0 })),
    },
    { keys: ['return'], help: 'run the choice', run: choose },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type what to find (ctrl-u clears)',
      run: (ctx, key) => ctx.update((s) => ({ input: editText(s.input, key) ?? s.input, cursor: 0 })),
    },
  ],
  View: ({ state, ctx, height, width }) => {
    const entries = paletteEntries(ctx as ScreenContext<unknown>, state.input);
    const labelWidth = Math.min(40, Math.max(12, ...entries.map((e) => e.label.length)));
    return (
      <Box flexDirection="column">
        <InputLine prompt=":" value={state.input} />
        <Tinted tone="muted">{entries.length} matches · ↑↓ choose · Tab completes · Enter runs · Esc closes</Tinted>
        <Choices
          items={entries}
          cursor={state.cursor}
          height={height - 2}
          render={(e) => `${fit(e.label, labelWidth)}  ${truncate(e.detail ?? '', width - labelWidth - 6)}`}
        />
      </Box>
    );
  },
};
