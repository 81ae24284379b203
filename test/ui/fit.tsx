// Whether the screen on top fits the body the Frame gives it. The Frame cuts a body taller than its room
// at the bottom, so its own frame always fits: here the screen's view is drawn alone, at the width and
// with the height the Frame gives it, and nothing cut, to count the lines it would take.
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { ColourProvider } from '../../src/ui/components/theme.js';
import { bodyHeight } from '../../src/ui/layout.js';
import type { Navigator } from '../../src/ui/nav/navigator.js';
import { SCREENS } from '../../src/ui/registry.js';
import { step } from './step.js';

export interface BodyDrawn {
  kind: string;
  /** The lines the Frame gives the body. */
  height: number;
  /** The lines the view draws. */
  lines: string[];
}

/** The top screen's view as the Frame would draw it, but alone and uncut. */
export async function drawBody(navigator: Navigator): Promise<BodyDrawn> {
  const top = navigator.top();
  const screen = navigator.screen();
  if (!top || !screen) throw new Error('no screen on the stack');
  const { columns, rows } = navigator.getState().size;
  const module = SCREENS.moduleOf(top.kind);
  const failed =
    screen === top &&
    screen.state.error?.tone === 'error' &&
    SCREENS.moduleOf(screen.kind).empty?.(screen.state) === true;
  const height = bodyHeight(rows, failed ? undefined : screen.state.error);
  if (failed) return { kind: top.kind, height, lines: [] };
  let instance!: ReturnType<typeof render>;
  await step(async () => {
    instance = render(
      <ColourProvider enabled={false}>
        <Box flexDirection="column" width={columns}>
          <module.View state={top.state} ctx={navigator.contextOf(top.id)} height={height} width={columns} />
        </Box>
      </ColourProvider>,
    );
  });
  const drawn = instance.lastFrame() ?? '';
  await step(async () => instance.unmount());
  const lines = drawn.split('\n');
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return { kind: top.kind, height, lines };
}

/**
 * What is wrong with how the top screen fits (none: it fits), and the whole frame in the terminal's rows.
 * Ink lays every line out in the width it is given, by its own measure of characters, so a line too wide
 * here is one that wraps, and counts as a line more. (A terminal's measure can differ from ink's; the
 * end-to-end test test/e2e/fit.test.ts checks the widths in a terminal emulator.)
 */
export async function fitProblems(navigator: Navigator, frame: string): Promise<string[]> {
  const { rows } = navigator.getState().size;
  const body = await drawBody(navigator);
  const problems: string[] = [];
  if (body.lines.length > body.height)
    problems.push(
      `${body.kind} draws ${body.lines.length} lines in a body of ${body.height}:\n${body.lines.join('\n')}`,
    );
  const frameLines = frame.split('\n');
  if (frameLines.length > rows - 1) problems.push(`the frame is ${frameLines.length} lines in ${rows} rows`);
  return problems;
}
