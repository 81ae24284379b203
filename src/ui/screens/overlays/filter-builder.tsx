// `f`: a server-side filter built a condition at a time (field, operator, value), with the filter JSON
// shown as it grows; the conditions are handed back to the list that asked.
import { Box, Text } from 'ink';
import { InputLine, Choices } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { buildFilter, filterFields, OPERATORS, relativeTime, type Condition, type Operator } from '../../filter.js';
import { timeFieldFor } from '../../../api/hal/time-window.js';
import { valueAt } from '../../../api/json.js';
import { valueSuggestions, type ValueSuggestions } from '../../../api/hal/suggestions.js';
import { fuzzyFilter } from '../../fuzzy.js';
import { editText } from '../../keys.js';
import { TEXT, type ScreenBase, type ScreenContext, type ScreenModule } from '../../nav/screen.js';
import { oneLine, wrapLines } from '../../../text/cells.js';
import { share } from '../../layout.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    filter: FilterParams;
  }
}

export const APPLY_FILTER = '✓ apply the filter';
export const CLEAR_FILTER = '✗ clear the server-side filter';
/** The entry that starts a window on the resource's time field: what `--since` does on the command line. */
export const sinceEntry = (field: string) => `⏱ since … (${field} ≥; 24h, 7d, -1d, yesterday or a date)`;

export interface FilterParams {
  fields: string[];
  /** A value of each field seen in the loaded rows, so a typed value takes the field's type. */
  samples: Record<string, unknown>;
  conditions: Condition[];
  /** Whether the list is filtered already (then clearing is offered). */
  filtered: boolean;
  /** The resource's time field (`timeFieldFor`), for a window as `--since` gives one; none when it has none. */
  timeField?: string;
  /** Values to offer for a field: the schema's, else those of the loaded rows. */
  suggest(field: string): ValueSuggestions;
  apply(conditions: Condition[]): void;
}

export interface FilterState extends ScreenBase, FilterParams {
  step: 'field' | 'operator' | 'value';
  input: string;
  cursor: number;
  field?: string;
  operator?: Operator;
}

type Ctx = ScreenContext<FilterState>;

/**
 * What the builder is opened with over a table of records: their fields, a value of each (so that a typed
 * value takes the field's type), and the values to offer (the schema's, else the records').
 */
export function filterParams(
  records: readonly Record<string, unknown>[],
  asked: { resource: string; version: string; conditions: Condition[] },
  filtered: boolean,
  apply: (conditions: Condition[], samples: Record<string, unknown>) => void,
): FilterParams {
  const fields = filterFields(records);
  const samples = Object.fromEntries(
    fields.map((field) => [field, records.map((r) => valueAt(r, field)).find((v) => v !== undefined && v !== null)]),
  );
  const timeField = timeFieldFor(asked.resource, asked.version, records[0]);
  return {
    fields,
    samples,
    conditions: asked.conditions,
    filtered,
    ...(timeField ? { timeField } : {}),
    suggest: (field) => valueSuggestions({ resource: asked.resource, version: asked.version, field }, records),
    apply: (conditions) => apply(conditions, samples),
  };
}

function choices(state: FilterState): string[] {
  if (state.step === 'field') {
    const fields = fuzzyFilter(state.input, state.fields, (f) => f);
    if (state.input) return fields;
    const actions = state.conditions.length ? [APPLY_FILTER] : state.filtered ? [CLEAR_FILTER] : [];
    return [...actions, ...(state.timeField ? [sinceEntry(state.timeField)] : []), ...fields];
  }
  if (state.step === 'operator') return fuzzyFilter(state.input, [...OPERATORS], (o) => o);
  // A time typed as --since reads it is the value, whatever it happens to match.
  if (relativeTime(state.input, Date.now()) !== undefined) return [];
  const values = state.field ? state.suggest(state.field).values.map(String) : [];
  return state.input ? fuzzyFilter(state.input, values, (v) => v) : values;
}

function preview(state: FilterState, now: number): string {
  const value = state.step === 'value' ? (choices(state)[state.cursor] ?? state.input) : '';
  const pending =
    state.field && state.operator && value ? [{ field: state.field, operator: state.operator, value }] : [];
  const conditions = [...state.conditions, ...pending];
  return conditions.length ? buildFilter(conditions, state.samples, now) : '';
}

function finish(ctx: Ctx, conditions: Condition[]): void {
  ctx.nav.back();
  ctx.state.apply(conditions);
}

function accept(ctx: Ctx): void {
  const state = ctx.state;
  const chosen = choices(state)[state.cursor];
  if (state.step === 'field') {
    if (!chosen) return ctx.nav.notify('choose a field from the list');
    if (chosen === APPLY_FILTER) return finish(ctx, state.conditions);
    if (chosen === CLEAR_FILTER) return finish(ctx, []);
    if (state.timeField && chosen === sinceEntry(state.timeField))
      return ctx.update({ field: state.timeField, operator: '$gte', step: 'value', input: '', cursor: 0 });
    return ctx.update({ field: chosen, step: 'operator', input: '', cursor: 0 });
  }
  if (state.step === 'operator') {
    if (!chosen) return ctx.nav.notify('choose an operator from the list');
    return ctx.update({ operator: chosen as Operator, step: 'value', input: '', cursor: 0 });
  }
  // What is highlighted is what Enter takes; the typed text only when no suggestion is highlighted.
  const value = chosen ?? state.input;
  if (!value) return finish(ctx, state.conditions);
  const condition = { field: state.field ?? '', operator: state.operator ?? '$eq', value };
  ctx.update({
    conditions: [...state.conditions, condition],
    step: 'field',
    input: '',
    cursor: 0,
    field: undefined,
    operator: undefined,
  });
}

export const filterBuilderScreen: ScreenModule<FilterState, FilterParams> = {
  title: 'server-side filter builder (f)',
  overlay: true,
  init: (params) => ({ ...params, step: 'field', input: '', cursor: 0 }),
  crumb: () => 'filter',
  bindings: [
    { keys: ['escape'], help: 'cancel', run: (ctx) => ctx.nav.back() },
    {
      keys: ['ctrl-d'],
      help: 'drop the last condition',
      run: (ctx) => ctx.update((s) => ({ conditions: s.conditions.slice(0, -1) })),
    },
    { keys: ['ctrl-a'], help: 'apply the conditions so far', run: (ctx) => finish(ctx, ctx.state.conditions) },
    {
      keys: ['up', 'down'],
      help: 'choose',
      run: (ctx, key) =>
        ctx.update((s) => ({
          cursor: Math.max(0, Math.min(choices(s).length - 1, s.cursor + (key.name === 'up' ? -1 : 1))),
        })),
    },
    {
      keys: ['tab'],
      help: 'complete the choice',
      when: (s) => choices(s)[s.cursor] !== undefined,
      run: (ctx) => ctx.update((s) => ({ input: choices(s)[s.cursor] ?? s.input })),
    },
    {
      keys: ['return'],
      help: 'choose the field, the operator; add the condition with the highlighted value (the typed one when none is); with neither, apply',
      run: accept,
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type a field, an operator or a value (-1d means a day ago)',
      run: (ctx, key) => ctx.update((s) => ({ input: editText(s.input, key) ?? s.input, cursor: 0 })),
    },
  ],
  View: ({ state, ctx, height, width }) => {
    const step =
      state.step === 'field'
        ? 'field'
        : state.step === 'operator'
          ? `operator for ${state.field}`
          : `value for ${state.field} ${state.operator}`;
    const suggested = state.step === 'value' && state.field ? state.suggest(state.field) : undefined;
    const hint =
      state.step === 'value'
        ? `Enter adds the condition with the highlighted value (the typed one when nothing is highlighted) · Tab takes it into the line${suggested?.values.length ? (suggested.source === 'schema' ? ' (the values the schema allows)' : ' (values seen in the loaded rows)') : ''} · for times, 24h / -1d / 30m ago / yesterday mean what --since reads them as`
        : state.conditions.length
          ? 'Enter on "✓ apply the filter" sends it · another field adds a condition · ctrl-d drops the last'
          : 'Enter chooses · Esc cancels';
    const json = preview(state, ctx.now);
    const hintLines = wrapLines(hint, Math.max(1, width - 1), 3);
    const items = choices(state);
    // The step, the line typed in and the filter so far first; then the choices, the hint and the conditions.
    const [, , , choiceRoom = 0, hintRoom = 0, conditionRoom = 0] = share(
      height,
      [
        { least: 1, most: 1 },
        { least: 1, most: 1 },
        { least: 1, most: 1 },
        { least: Math.min(3, items.length), most: items.length },
        { least: Math.min(1, hintLines.length), most: hintLines.length },
        { least: Math.min(1, state.conditions.length), most: state.conditions.length },
      ],
      [0, 1, 2, 4, 5, 3],
    );
    // The last conditions, the ones just added, when they do not all fit.
    const conditions = state.conditions.slice(state.conditions.length - conditionRoom);
    return (
      <Box flexDirection="column">
        <Tinted bold>server-side filter · {oneLine(step)}</Tinted>
        {conditions.map((c, i) => (
          <Text key={i} wrap="truncate">
            {' '}
            {state.conditions.length - conditions.length + i + 1}. {oneLine(`${c.field} ${c.operator} ${c.value}`)}
          </Text>
        ))}
        <InputLine prompt={`${oneLine(step)}: `} value={state.input} />
        <Text wrap="truncate">
          <Tinted tone="muted">filter JSON: </Tinted>
          <Tinted tone="good">{json ? oneLine(json) : '(no condition yet)'}</Tinted>
        </Text>
        {hintLines.slice(0, hintRoom).map((line, index) => (
          <Tinted key={`hint ${index}`} tone="muted">
            {line}
          </Tinted>
        ))}
        <Choices items={items} cursor={state.cursor} height={choiceRoom} render={(c) => c} />
      </Box>
    );
  },
};
