// One line of text for whoever asked (a bookmark's name).
import { Box } from 'ink';
import { InputLine } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { editText } from '../../keys.js';
import { TEXT, type ScreenBase, type ScreenModule } from '../../nav/screen.js';
import { wrapLines } from '../../../text/cells.js';
import { share } from '../../layout.js';

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
      keys: ['return'],
      help: 'accept',
      run: (ctx) => {
        const { input, submit } = ctx.state;
        if (!input.trim()) return ctx.nav.notify('type a name first');
        ctx.nav.back();
        submit(input);
      },
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'edit (ctrl-u clears)',
      run: (ctx, key) => ctx.update((s) => ({ input: editText(s.input, key) ?? s.input })),
    },
  ],
  View: ({ state, height, width }) => {
    // The question and the hint run over lines; the line typed in is never cut away.
    const title = wrapLines(state.title, Math.max(1, width - 1), 3);
    const hint = state.hint ? wrapLines(state.hint, Math.max(1, width - 1), 2) : [];
    const [titleRoom = 0, , hintRoom = 0] = share(height, [
      { least: 1, most: title.length },
      { least: 1, most: 1 },
      { least: Math.min(1, hint.length), most: hint.length },
    ]);
    return (
      <Box flexDirection="column">
        {title.slice(0, titleRoom).map((line, index) => (
          <Tinted key={`title ${index}`} bold>
            {line}
          </Tinted>
        ))}
        <InputLine prompt="› " value={state.input} />
        {hint.slice(0, hintRoom).map((line, index) => (
          <Tinted key={`hint ${index}`} tone="muted">
            {line}
          </Tinted>
        ))}
      </Box>
    );
  },
};
