// `?`: every key of every screen, from the screens' own binding tables.
import { QUIT_HELP } from '../../keys.js';
import { Box, Text } from 'ink';
import { fit, truncate } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';
import { moveCursor } from '../../keys.js';
import { helpLines } from '../../nav/bindings.js';
import type { ScreenBase, ScreenModule } from '../../nav/screen.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    help: Record<string, never>;
  }
}

export interface HelpState extends ScreenBase {
  top: number;
}

export const helpScreen: ScreenModule<HelpState, Record<string, never>> = {
  title: 'help (?)',
  overlay: true,
  init: () => ({ top: 0 }),
  crumb: () => 'help',
  bindings: [
    { keys: ['escape', '?', 'return', 'backspace'], help: 'close the help', run: (ctx) => ctx.nav.back() },
    { keys: ['q'], help: QUIT_HELP, run: (ctx) => ctx.nav.quit() },
    {
      keys: ['up', 'k', 'down', 'j', 'pageup', 'pagedown', 'home', 'end'],
      help: 'scroll',
      run: (ctx, key) => {
        const height = ctx.bodyHeight() - 1;
        ctx.update((s) => ({
          top: moveCursor(s.top, helpLines(ctx.nav.keyTables()).length - height + 1, key, height),
        }));
      },
    },
  ],
  View: ({ state, ctx, height, width }) => {
    const lines = helpLines(ctx.nav.keyTables());
    const shown = lines.slice(state.top, state.top + height - 1);
    return (
      <Box flexDirection="column">
        <Tinted bold>
          keys · ↑↓ scroll ({state.top + 1}–{state.top + shown.length} of {lines.length}) · Esc or ? closes
        </Tinted>
        {shown.map((line, i) => (
          <Text key={state.top + i} wrap="truncate">
            {line.heading ? (
              <Tinted tone="info" bold>
                {line.text}
              </Tinted>
            ) : (
              `  ${fit(line.keys, 30)} ${truncate(line.text, width - 34)}`
            )}
          </Text>
        ))}
      </Box>
    );
  },
};
