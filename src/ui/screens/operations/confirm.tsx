// The last question before a write: the request as it will leave — method and URL, the operation, where,
// in which OU by name and id, the headers with the token masked, the body — scrolled when long. A DELETE
// must be confirmed by typing the id it deletes, so a habitual `y` cannot remove the wrong record.
import { Box, Text } from 'ink';
import { Tinted, useToneColour } from '../../components/theme.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import { TEXT } from '../../nav/screen.js';
import { editText } from '../../keys.js';

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

export const confirmScreen: ScreenModule<ConfirmState, ConfirmParams> = {
  title: 'write confirmation',
  typing: typed,
  init: (params) => ({ ...params, typed: '', wrong: false, top: 0 }),
  crumb: () => 'confirm',
  origin: (s) => s.origin,
  bindings: [
    { keys: ['y', 'Y'], help: 'send the write', hint: 'y send', when: plain, run: (ctx) => ctx.state.confirm(ctx as ScreenContext<unknown>) },
    { keys: ['n', 'N'], help: 'cancel', hint: 'n cancel', when: plain, run: (ctx) => ctx.nav.back() },
    {
      keys: ['return'], help: 'a DELETE: send once the id typed is the id it deletes', when: typed,
      run: (ctx) => (ctx.state.typed.trim() === ctx.state.expectedWord ? ctx.state.confirm(ctx as ScreenContext<unknown>) : ctx.update({ wrong: true })),
    },
    { keys: [TEXT, 'backspace'], help: 'a DELETE: type the id', when: typed, run: (ctx, key) => ctx.update((s) => ({ typed: editText(s.typed, key) ?? s.typed, wrong: false })) },
    { keys: ['down', 'pagedown'], help: 'scroll the request', run: (ctx, key) => ctx.update((s) => ({ top: s.top + (key.name === 'pagedown' ? Math.max(1, ctx.bodyHeight() - 8) : 1) })) },
    { keys: ['up', 'pageup'], help: 'scroll the request', run: (ctx, key) => ctx.update((s) => ({ top: Math.max(0, s.top - (key.name === 'pageup' ? Math.max(1, ctx.bodyHeight() - 8) : 1)) })) },
    { keys: ['escape'], help: 'cancel: nothing is sent', hint: 'Esc cancel', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, height }) => {
    const tone = state.expectedWord === undefined ? 'busy' : 'bad';
    const border = useToneColour(tone);
    const room = Math.max(3, height - 8 - (state.warning ? 1 : 0));
    const top = Math.max(0, Math.min(state.top, state.lines.length - room));
    const shown = state.lines.slice(top, top + room);
    return (
      <Box flexDirection="column" borderStyle="double" {...(border ? { borderColor: border } : {})} paddingX={1}>
        <Tinted bold tone={tone}>Send this {state.method.toUpperCase()}? It changes data on the control plane.</Tinted>
        {state.warning ? <Tinted tone="busy">⚠ {state.warning}</Tinted> : null}
        {shown.map((line, index) => <Text key={top + index} wrap="truncate">{line === '' ? ' ' : line}</Text>)}
        {state.lines.length > room ? <Text dimColor>lines {top + 1}–{top + shown.length} of {state.lines.length} (↑↓ PgUp PgDn)</Text> : null}
        {state.expectedWord === undefined ? (
          <Text>y send · n or Esc cancel</Text>
        ) : (
          <Box flexDirection="column">
            <Text>Type <Text bold>{state.expectedWord}</Text> to delete it, then Enter (Esc cancels):</Text>
            <Text>&gt; {state.typed}▏</Text>
            {state.wrong ? <Tinted tone="bad">that is not {state.expectedWord}; nothing was sent</Tinted> : null}
          </Box>
        )}
      </Box>
    );
  },
};
