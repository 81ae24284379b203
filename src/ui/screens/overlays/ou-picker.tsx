// `o`: the organizational unit every following request is made in — a tree when the index has a unit
// list, or a UUID typed by hand. A name or a path typed (`Acme Energy/EU`) finds the units it names,
// each shown with its path, so that eleven units named Warsaw can be told apart.
import { Box } from 'ink';
import { isTree, isUuid, type OrgUnit } from '../../../api/fanout/units.js';
import { directoryOf, pathText } from '../../../api/fanout/unit-names.js';
import { fit, truncate, wrapLines } from '../../../text/cells.js';
import { Choices, InputLine } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { fuzzyFilter } from '../../fuzzy.js';
import { editText } from '../../keys.js';
import { errorInfo } from '../../nav/problems.js';
import { TEXT, type ScreenBase, type ScreenModule } from '../../nav/screen.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    'ou-picker': Record<string, never>;
  }
}

export interface OuPickerState extends ScreenBase {
  input: string;
  cursor: number;
  units?: OrgUnit[];
}

const NONE: OrgUnit = { id: '', name: '(no OU: everything the token can see)', detail: '', depth: 0, children: 0 };

/**
 * The units for what was typed: those it names exactly (an id, a name, a path's last names) first, then
 * the rest that match it loosely; each flat, with its path as its detail.
 */
function choices(state: OuPickerState): OrgUnit[] {
  const units = state.units ?? [];
  if (!state.input) return [NONE, ...units];
  const typed = state.input.trim();
  const directory = directoryOf(units);
  const exact = directory.find(typed);
  const loose = fuzzyFilter(state.input, units, (u) => `${pathText(directory.path(u.id))} ${u.id}`).filter(
    (u) => !exact.includes(u),
  );
  const matches = [...exact, ...loose].map((u) => ({
    ...u,
    depth: 0,
    detail: [pathText(directory.path(u.id)), u.detail].filter(Boolean).join(' · '),
  }));
  if (isUuid(typed) && !matches.some((u) => u.id === typed))
    matches.unshift({ id: typed, name: typed, detail: 'use this UUID', depth: 0, children: 0 });
  return matches;
}

/** "  Acme Corp" indented by depth in a tree; the id and child count follow in the detail. */
function unitLabel(unit: OrgUnit): string {
  return `${'  '.repeat(unit.depth)}${unit.depth > 0 ? '└ ' : ''}${unit.name}`;
}

export const ouPickerScreen: ScreenModule<OuPickerState, Record<string, never>> = {
  title: 'OU picker (o)',
  overlay: true,
  init: () => ({ input: '', cursor: 0, loading: 'loading organizational units' }),
  start: (ctx) => {
    ctx.services.units().then(
      (units) => ctx.update({ loading: undefined, ...(units ? { units } : {}) }),
      (error: unknown) => ctx.update({ loading: undefined, error: errorInfo(error) }),
    );
  },
  crumb: () => 'OU',
  bindings: [
    { keys: ['escape'], help: 'cancel', run: (ctx) => ctx.nav.back() },
    {
      keys: ['up', 'down'],
      help: 'choose',
      run: (ctx, key) =>
        ctx.update((s) => ({
          cursor: Math.max(0, Math.min(choices(s).length - 1, s.cursor + (key.name === 'up' ? -1 : 1))),
        })),
    },
    {
      keys: ['return'],
      help: 'make every request in the chosen unit',
      run: (ctx) => {
        const unit = choices(ctx.state)[ctx.state.cursor];
        if (!unit)
          return ctx.nav.notify(ctx.state.units ? 'no unit matches; type a name or a UUID' : "type the OU's UUID");
        ctx.nav.back();
        ctx.nav.setOu(unit.id || undefined, unit.id ? unit.name : undefined);
      },
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type a name or a UUID',
      run: (ctx, key) => ctx.update((s) => ({ input: editText(s.input, key) ?? s.input, cursor: 0 })),
    },
  ],
  View: ({ state, height, width }) => {
    const shown = choices(state);
    const tree = state.units !== undefined && isTree(state.units);
    const labelWidth = Math.min(44, Math.max(10, ...shown.map((u) => unitLabel(u).length)));
    const detail = (u: OrgUnit) =>
      (state.input
        ? [u.detail, u.id]
        : [u.id, tree && u.id ? `${u.children} ${u.children === 1 ? 'child' : 'children'}` : '', u.detail]
      )
        .filter(Boolean)
        .join(' · ');
    const heading = state.loading
      ? 'loading organizational units…'
      : state.units
        ? `organizational unit${tree ? 's as a tree' : ''} (${state.units.length} units): type a name, a path (Acme/EU) or a UUID · ↑↓ · Enter sets it · Esc cancels`
        : 'the index offers no organizational-unit list: type the OU UUID, Enter sets it';
    // The heading runs over two lines at most; the units have what is left.
    const headingLines = wrapLines(heading, Math.max(1, width - 1), Math.max(1, Math.min(2, height - 3)));
    const errorLines = state.error ? 1 : 0;
    return (
      <Box flexDirection="column">
        <InputLine prompt="OU " value={state.input} />
        {headingLines.map((line, index) => (
          <Tinted key={`heading ${index}`} tone="muted">
            {line}
          </Tinted>
        ))}
        {state.error ? (
          <Tinted tone="bad">
            {state.error.status ?? ''} {state.error.title}
          </Tinted>
        ) : null}
        <Choices
          items={shown}
          cursor={state.cursor}
          height={Math.max(1, height - 1 - headingLines.length - errorLines)}
          render={(u) => `${fit(unitLabel(u), labelWidth)}  ${truncate(detail(u), width - labelWidth - 6)}`}
        />
      </Box>
    );
  },
};
