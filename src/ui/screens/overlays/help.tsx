// `?`: every key of every screen, from the screens' own binding tables.
import { QUIT_HELP } from '../../keys.js';
import { Box, Text } from 'ink';
import { fit, wrapLines } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';
import { moveCursor } from '../../keys.js';
import { helpLines, type HelpLine } from '../../nav/bindings.js';
import type { KeyTable, ScreenBase, ScreenModule } from '../../nav/screen.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    help: Record<string, never>;
  }
}

export interface HelpState extends ScreenBase {
  top: number;
}

interface HelpRow {
  heading: boolean;
  text: string;
}

/** The keys' column: at most this many cells, and never more than a third of the width. */
const KEYS_WIDTH = 30;

/**
 * The help as drawn `width` cells wide: a heading per table, then each binding's keys and words, both run
 * over as many lines as they need, so nothing is cut mid-word.
 */
function helpRows(lines: readonly HelpLine[], width: number): HelpRow[] {
  const keysWidth = Math.max(8, Math.min(KEYS_WIDTH, Math.floor(width / 3)));
  const textWidth = Math.max(8, width - keysWidth - 5);
  return lines.flatMap((line): HelpRow[] => {
    if (line.heading) return [{ heading: true, text: line.text }];
    const keys = wrapLines(line.keys, keysWidth, Infinity, { hard: true });
    const words = wrapLines(line.text, textWidth, Infinity, { hard: true });
    return Array.from({ length: Math.max(keys.length, words.length) }, (_, at) => ({
      heading: false,
      text: `  ${fit(keys[at] ?? '', keysWidth)} ${words[at] ?? ''}`,
    }));
  });
}

const rowsOf = (ctx: { nav: { keyTables(): KeyTable[] }; size: { columns: number } }) =>
  helpRows(helpLines(ctx.nav.keyTables()), ctx.size.columns);

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
          top: moveCursor(s.top, rowsOf(ctx).length - height + 1, key, height),
        }));
      },
    },
  ],
  View: ({ state, ctx, height, width }) => {
    const lines = helpRows(helpLines(ctx.nav.keyTables()), width);
    const top = Math.max(0, Math.min(state.top, lines.length - height + 1));
    // Scrolled into a table, its heading stays on the first line: the keys below it are that screen's.
    const heading = lines[top]?.heading ? undefined : lines.slice(0, top).findLast((line) => line.heading);
    const shown = [...(heading ? [heading] : []), ...lines.slice(top + (heading ? 1 : 0), top + height - 1)];
    return (
      <Box flexDirection="column">
        <Tinted bold>
          keys · ↑↓ scroll ({top + 1}–{top + shown.length} of {lines.length}) · Esc or ? closes
        </Tinted>
        {shown.map((line, i) => (
          <Text key={`${top + i} ${line.heading}`} wrap="truncate">
            {line.heading ? (
              <Tinted tone="info" bold>
                {line.text}
              </Tinted>
            ) : (
              line.text
            )}
          </Text>
        ))}
      </Box>
    );
  },
};
