// A short list to pick one thing from (what to compare a record with): typing narrows it, Enter runs
// the choice under the cursor.
import { Box } from 'ink';
import { fit, oneLine, truncate } from '../../../text/cells.js';
import { Choices, InputLine, type Choice } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { fuzzyFilter } from '../../fuzzy.js';
import { editText } from '../../keys.js';
import { TEXT, type ScreenBase, type ScreenModule } from '../../nav/screen.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    choose: ChooseParams;
  }
}

export interface ChooseParams {
  title: string;
  entries: Choice[];
}

export interface ChooseState extends ScreenBase, ChooseParams {
  input: string;
  cursor: number;
}

const shown = (state: ChooseState) => fuzzyFilter(state.input, state.entries, (entry) => entry.label);

export const chooseScreen: ScreenModule<ChooseState, ChooseParams> = {
  title: 'a choice (d on a record: compare with …)',
  overlay: true,
  init: (params) => ({ ...params, input: '', cursor: 0 }),
  crumb: () => 'choose',
  bindings: [
    { keys: ['escape'], help: 'cancel', run: (ctx) => ctx.nav.back() },
    {
      keys: ['up', 'down'],
      help: 'choose',
      run: (ctx, key) =>
        ctx.update((s) => ({
          cursor: Math.max(0, Math.min(shown(s).length - 1, s.cursor + (key.name === 'up' ? -1 : 1))),
        })),
    },
    {
      keys: ['return'],
      help: 'take the choice',
      run: (ctx) => {
        const entry = shown(ctx.state)[ctx.state.cursor];
        if (!entry) return ctx.nav.notify('nothing matches; Backspace edits');
        ctx.nav.back();
        entry.run();
      },
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type to narrow the choices',
      run: (ctx, key) => ctx.update((s) => ({ input: editText(s.input, key) ?? s.input, cursor: 0 })),
    },
  ],
  View: ({ state, height, width }) => {
    const entries = shown(state);
    const labelWidth = Math.min(40, Math.max(12, ...entries.map((e) => e.label.length)));
    return (
      <Box flexDirection="column">
        <Tinted bold>{oneLine(state.title)}</Tinted>
        <InputLine prompt="› " value={state.input} />
        {entries.length === 0 ? (
          <Tinted tone="muted">nothing to choose from{state.input ? ` matching "${state.input}"` : ''}</Tinted>
        ) : null}
        <Choices
          items={entries}
          cursor={state.cursor}
          height={height - 3}
          render={(e) => `${fit(e.label, labelWidth)}  ${truncate(e.detail ?? '', width - labelWidth - 6)}`}
        />
      </Box>
    );
  },
};
