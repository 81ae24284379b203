// One line of text for whoever asked (a bookmark's name).
import { Box } from 'ink';
import { InputLine } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { editText } from '../../keys.js';
import { TEXT, type ScreenBase, type ScreenModule } from '../../nav/screen.js';
import { oneLine } from '../../../text/cells.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    prompt: PromptParams;
  }
}

export interface PromptParams {
  title: string;
  input: string;
  hint?: string;
  submit(value: string): void;
}

export type PromptState = ScreenBase & PromptParams;

export const promptScreen: ScreenModule<PromptState, PromptParams> = {
  title: 'prompt (a name)',
  overlay: true,
  init: (params) => ({ ...params }),
  crumb: () => 'prompt',
  bindings: [
    { keys: ['escape'], help: 'cancel', run: (ctx) => ctx.nav.back() },
    {
      keys: ['return'], help: 'accept',
      run: (ctx) => {
        const { input, submit } = ctx.state;
        if (!input.trim()) return ctx.nav.notify('type a name first');
        ctx.nav.back();
        submit(input);
      },
    },
    { keys: [TEXT, 'backspace', 'ctrl-u'], help: 'edit (ctrl-u clears)', run: (ctx, key) => ctx.update((s) => ({ input: editText(s.input, key) ?? s.input })) },
  ],
  View: ({ state }) => (
    <Box flexDirection="column">
      <Tinted bold>{oneLine(state.title)}</Tinted>
      <InputLine prompt="› " value={state.input} />
      {state.hint ? <Tinted tone="muted">{state.hint}</Tinted> : null}
    </Box>
  ),
};
