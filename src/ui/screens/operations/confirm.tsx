// The last question before a write: the request as it will leave — method and URL, the operation, where,
// in which OU by name and id, the headers with the token masked, the body — scrolled when long. A DELETE
// must be confirmed by typing the id it deletes, so a habitual `y` cannot remove the wrong record.
import { Box, Text } from 'ink';
import { Tinted, useToneColour } from '../../components/theme.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import { TEXT } from '../../nav/screen.js';
import { editText } from '../../keys.js';
import { wrapLines } from '../../../text/cells.js';
import { share } from '../../layout.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    'write-confirm': ConfirmParams;
  }
}

export interface ConfirmParams {
  method: string;
  /** From confirmationLines: method and URL, operation, control plane, OU. */
  lines: string[];
  /** For a DELETE: the id the user must type. */
  expectedWord?: string;
  /** Said above the request in the warning's colour (a body sent despite its schema problems). */
  warning?: string;
  /** Where the write goes: the header shows that session's mode, and `W` acts on it. */
  origin?: Origin;
  /** Sends the write; given this screen's handle, to go on from. */
  confirm(ctx: ScreenContext<unknown>): void;
}

export interface ConfirmState extends ScreenBase, ConfirmParams {
  typed: string;
  wrong: boolean;
  top: number;
}

const plain = (s: ConfirmState) => s.expectedWord === undefined;
const typed = (s: ConfirmState) => s.expectedWord !== undefined;

/** The double border's two lines, and its two columns and padding: drawn when the body has this many lines. */
const BORDER_LINES = 2;
const BORDER_COLUMNS = 4;
const FRAMED_FROM = 10;

/**
 * How the confirmation shares its lines: the question, the warning, the request (scrolled when long, with
 * which lines are shown), and what to do — never cut: y or the id to type.
 */
export function confirmLayout(state: ConfirmState, width: number, height: number) {
  // In a short terminal the border's lines go to the request.
  const framed = height >= FRAMED_FROM;
  const inner = Math.max(1, width - (framed ? BORDER_COLUMNS : 1));
  const title = wrapLines(`Send this ${state.method.toUpperCase()}? It changes data on the control plane.`, inner, 2);
  const warning = state.warning ? wrapLines(`⚠ ${state.warning}`, inner, 3) : [];
  const expected = state.expectedWord;
  const prompt =
    expected === undefined
      ? ['y send · n or Esc cancel']
      : wrapLines(`Type ${expected} to delete it, then Enter (Esc cancels):`, inner, 3);
  const wrong =
    expected !== undefined && state.wrong ? wrapLines(`that is not ${expected}; nothing was sent`, inner, 2) : [];
  const input = expected === undefined ? 0 : 1;
  // Least first: the question, what to do, the warning, then the request; then more of each, the warning
  // last (its first line says what it is about).
  const [titleRoom = 0, promptRoom = 0, , wrongRoom = 0, warningRoom = 0, requestRoom = 0] = share(
    height - (framed ? BORDER_LINES : 0),
    [
      { least: 1, most: title.length },
      { least: 1, most: prompt.length },
      { least: input, most: input },
      { least: Math.min(1, wrong.length), most: wrong.length },
      { least: Math.min(1, warning.length), most: warning.length },
      { least: Math.min(2, state.lines.length), most: state.lines.length },
    ],
    [0, 1, 2, 3, 5, 4],
  );
  // A line says which lines of the request are shown, when they are not all and there is room for it.
  const scrolled = state.lines.length > requestRoom && requestRoom >= 2;
  const room = scrolled ? requestRoom - 1 : requestRoom;
  const top = Math.max(0, Math.min(state.top, state.lines.length - room));
  return {
    framed,
    title: title.slice(0, titleRoom),
    warning: warning.slice(0, warningRoom),
    prompt: prompt.slice(0, promptRoom),
    wrong: wrong.slice(0, wrongRoom),
    room,
    top,
    scrolled,
  };
}

/** Scrolls the request by `by` lines, or by pages. */
function scroll(ctx: ScreenContext<ConfirmState>, by: (page: number) => number): void {
  const { room } = confirmLayout(ctx.state, ctx.size.columns, ctx.bodyHeight());
  const last = Math.max(0, ctx.state.lines.length - room);
  ctx.update((s) => ({ top: Math.max(0, Math.min(last, Math.min(s.top, last) + by(room))) }));
}

export const confirmScreen: ScreenModule<ConfirmState, ConfirmParams> = {
  title: 'write confirmation',
  typing: typed,
  init: (params) => ({ ...params, typed: '', wrong: false, top: 0 }),
  crumb: () => 'confirm',
  origin: (s) => s.origin,
  bindings: [
    {
      keys: ['y', 'Y'],
      help: 'send the write',
      hint: 'y send',
      when: plain,
      run: (ctx) => ctx.state.confirm(ctx as ScreenContext<unknown>),
    },
    { keys: ['n', 'N'], help: 'cancel', hint: 'n cancel', when: plain, run: (ctx) => ctx.nav.back() },
    {
      keys: ['return'],
      help: 'a DELETE: send once the id typed is the id it deletes',
      when: typed,
      run: (ctx) =>
        ctx.state.typed.trim() === ctx.state.expectedWord
          ? ctx.state.confirm(ctx as ScreenContext<unknown>)
          : ctx.update({ wrong: true }),
    },
    {
      keys: [TEXT, 'backspace'],
      help: 'a DELETE: type the id',
      when: typed,
      run: (ctx, key) => ctx.update((s) => ({ typed: editText(s.typed, key) ?? s.typed, wrong: false })),
    },
    {
      keys: ['down', 'pagedown'],
      help: 'scroll the request',
      run: (ctx, key) => scroll(ctx, (page) => (key.name === 'pagedown' ? page : 1)),
    },
    {
      keys: ['up', 'pageup'],
      help: 'scroll the request',
      run: (ctx, key) => scroll(ctx, (page) => -(key.name === 'pageup' ? page : 1)),
    },
    {
      keys: ['home', 'end'],
      help: 'the start or the end of the request',
      run: (ctx, key) => scroll(ctx, () => (key.name === 'end' ? Infinity : -Infinity)),
    },
    { keys: ['escape'], help: 'cancel: nothing is sent', hint: 'Esc cancel', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, height, width }) => {
    const tone = state.expectedWord === undefined ? 'busy' : 'bad';
    const border = useToneColour(tone);
    const layout = confirmLayout(state, width, height);
    const { top, room } = layout;
    const shown = state.lines.slice(top, top + room);
    const line = (text: string, key: string) => (
      <Text key={key} wrap="truncate">
        {text === '' ? ' ' : text}
      </Text>
    );
    return (
      <Box
        flexDirection="column"
        {...(layout.framed ? { borderStyle: 'double', paddingX: 1, ...(border ? { borderColor: border } : {}) } : {})}
      >
        {layout.title.map((text, index) => (
          <Tinted key={`title ${index}`} bold tone={tone} wrap="truncate">
            {text}
          </Tinted>
        ))}
        {layout.warning.map((text, index) => (
          <Tinted key={`warning ${index}`} tone="busy" wrap="truncate">
            {text}
          </Tinted>
        ))}
        {shown.map((text, index) => line(text, `line ${top + index}`))}
        {layout.scrolled ? (
          <Text dimColor wrap="truncate">
            lines {top + 1}–{top + shown.length} of {state.lines.length} (↑↓ PgUp PgDn)
          </Text>
        ) : null}
        {layout.prompt.length === 1 && state.expectedWord !== undefined ? (
          <Text wrap="truncate">
            Type <Text bold>{state.expectedWord}</Text> to delete it, then Enter (Esc cancels):
          </Text>
        ) : (
          layout.prompt.map((text, index) => line(text, `prompt ${index}`))
        )}
        {state.expectedWord !== undefined ? <Text wrap="truncate">&gt; {state.typed}▏</Text> : null}
        {layout.wrong.map((text, index) => (
          <Tinted key={`wrong ${index}`} tone="bad" wrap="truncate">
            {text}
          </Tinted>
        ))}
      </Box>
    );
  },
};
