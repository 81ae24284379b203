// The variables of a templated link or operation, with the URL they make shown live as they are typed.
import { Box, Text } from 'ink';
import { expandTemplate } from '../../../api/hal/template.js';
import { truncate, wrapLines } from '../../../text/cells.js';
import { share, windowOf, windowText } from '../../layout.js';
import { Tinted } from '../../components/theme.js';
import { editText } from '../../keys.js';
import { TEXT, type ScreenBase, type ScreenModule } from '../../nav/screen.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    template: TemplateParams;
  }
}

export interface TemplateParams {
  title: string;
  href: string;
  variables: string[];
  /** Variables that must have a value (path variables): Enter stays here, naming the first one empty. */
  required?: string[];
  submit(values: Record<string, string>): void;
  /** What Esc means besides closing these questions, for a screen that cannot go on without the answers. */
  cancel?(): void;
}

export interface TemplateState extends ScreenBase, TemplateParams {
  values: Record<string, string>;
  index: number;
  /** An empty required variable, named after an Enter that could not go. */
  problem?: string;
}

function preview(state: TemplateState): string {
  try {
    return expandTemplate(state.href, state.values);
  } catch (error) {
    return `(cannot expand: ${(error as Error).message})`;
  }
}

export const templateScreen: ScreenModule<TemplateState, TemplateParams> = {
  title: 'link and operation variables',
  overlay: true,
  init: (params) => ({ ...params, values: {}, index: 0 }),
  crumb: () => 'variables',
  bindings: [
    {
      keys: ['escape'],
      help: 'cancel',
      run: (ctx) => {
        ctx.nav.back();
        ctx.state.cancel?.();
      },
    },
    {
      keys: ['up', 'backtab'],
      help: 'previous variable',
      run: (ctx) => ctx.update((s) => ({ index: Math.max(0, s.index - 1) })),
    },
    {
      keys: ['down', 'tab'],
      help: 'next variable',
      run: (ctx) => ctx.update((s) => ({ index: Math.min(s.variables.length - 1, s.index + 1) })),
    },
    {
      keys: ['return'],
      help: 'next variable; on the last, go',
      run: (ctx) => {
        const { index, variables, values, submit } = ctx.state;
        if (index < variables.length - 1) return ctx.update({ index: index + 1, problem: undefined });
        const empty = (ctx.state.required ?? []).find((name) => (values[name] ?? '').trim() === '');
        if (empty !== undefined)
          return ctx.update({ index: variables.indexOf(empty), problem: `${empty} is required: type its value` });
        ctx.nav.back();
        submit(Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')));
      },
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type the value (ctrl-u clears)',
      run: (ctx, key) =>
        ctx.update((s) => {
          const name = s.variables[s.index] ?? '';
          return { values: { ...s.values, [name]: editText(s.values[name] ?? '', key) ?? '' }, problem: undefined };
        }),
    },
  ],
  View: ({ state, height, width }) => {
    const title = wrapLines(
      `${state.title}: fill in the variables (Tab/↑↓ move · Enter next/go · Esc cancels)`,
      Math.max(1, width - 1),
      2,
    );
    const problem = state.problem ? 1 : 0;
    // The title, the variable being typed, the URL it makes and the problem first; then the template and the other variables.
    const [titleRoom = 0, variableRoom = 0, urlRoom = 0, , templateRoom = 0] = share(
      height,
      [
        { least: 1, most: title.length },
        { least: Math.min(1, state.variables.length), most: state.variables.length },
        { least: 1, most: 1 },
        { least: problem, most: problem },
        { least: 0, most: 1 },
      ],
      [0, 4, 1],
    );
    // A line says which variables are shown, when they are not all.
    const room = state.variables.length > variableRoom ? Math.max(1, variableRoom - 1) : variableRoom;
    const window = windowOf(
      state.variables.map(() => 1),
      state.index,
      room,
    );
    return (
      <Box flexDirection="column">
        {title.slice(0, titleRoom).map((line, index) => (
          <Tinted key={`title ${index}`} bold>
            {line}
          </Tinted>
        ))}
        {templateRoom > 0 ? (
          <Text wrap="truncate">
            <Tinted tone="muted">template </Tinted>
            {truncate(state.href, width - 12)}
          </Text>
        ) : null}
        {state.variables.slice(window.top, window.end).map((name, offset) => {
          const i = window.top + offset;
          return (
            <Text key={name} wrap="truncate">
              <Tinted inverse={i === state.index}>
                {i === state.index ? '› ' : '  '}
                {name}
                {state.required?.includes(name) ? '*' : ''}
              </Tinted>{' '}
              = {state.values[name] ?? ''}
              {i === state.index ? <Tinted tone="info">▏</Tinted> : null}
            </Text>
          );
        })}
        {window.end - window.top < state.variables.length ? (
          <Tinted tone="muted">{windowText('variables', window, state.variables.length)}</Tinted>
        ) : null}
        {state.problem ? <Tinted tone="bad">✗ {state.problem}</Tinted> : null}
        {urlRoom > 0 ? (
          <Text wrap="truncate">
            <Tinted tone="muted">URL </Tinted>
            <Tinted tone="good">{truncate(preview(state), width - 6)}</Tinted>
          </Text>
        ) : null}
      </Box>
    );
  },
};
