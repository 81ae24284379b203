// The operation form: path and query variables (prefilled from the record; a filter opens the filter
// builder), the OU (an id, a name or a path), one row per field of the body schema (required first, enums
// picked from their values, descriptions beside), and the JSON body itself in an editor with a cursor, or
// in $EDITOR. The URL and every problem are shown live. `p` previews the request; a body with schema
// problems is previewed only after a second `p`, to test the server's own validation. This module holds
// the screen's keys and what they do; its drawing is form-view.tsx.
import { knownRecordFields } from '../../../api/hal/schemas.js';
import { valueSuggestions } from '../../../api/hal/suggestions.js';
import {
  bodyFieldValue,
  formProblems,
  toRequestTarget,
  withBody,
  withBodyField,
  withField,
} from '../../../api/operations/form.js';
import { buildFilter } from '../../filter.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import { TEXT, type Binding, type ScreenContext, type ScreenModule } from '../../nav/screen.js';
import { createBuffer } from '../../text-buffer.js';
import { FILTER_NAMES } from '../../../api/operations/describe.js';
import { formTop } from './form-layout.js';
import { focused, focusOn, pasteInto, resolveOu, rowsOf, rowText, typeKey } from './form-rows.js';
import type { FormParams, FormState } from './form-state.js';
import { FormView } from './form-view.js';

export type { FormParams, FormState } from './form-state.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    'operation-form': FormParams;
  }
}

type Ctx = ScreenContext<FormState>;

async function preview(ctx: Ctx): Promise<void> {
  const { form, schema, flow } = ctx.state;
  const problems = formProblems(form, schema);
  const blocking = problems.filter((problem) => !problem.where.startsWith('/') && problem.where !== 'body');
  const bodyOnly =
    problems.length > 0 && blocking.length === 0 && !problems.some((problem) => /not JSON/.test(problem.message));
  if (blocking.length > 0 || (problems.length > 0 && !bodyOnly)) {
    const first = blocking[0] ?? problems[0];
    return ctx.update((s) => ({
      focus: focusOn(s, first),
      editing: undefined,
      message: `fix ${problems.length === 1 ? 'the problem' : `the ${problems.length} problems`} below first${first ? `: ${first.where} ${first.message}` : ''}`,
    }));
  }
  if (bodyOnly && !ctx.state.sendAnyway) {
    return ctx.update({
      sendAnyway: true,
      editing: undefined,
      message: `the body has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`} with the schema (below); p again previews it to send anyway, to test the server's own validation`,
    });
  }
  const ou = await resolveOu(ctx, form.ou);
  if ('problem' in ou)
    return ctx.update((s) => ({ focus: focusOn(s, { where: 'OU', message: ou.problem }), message: ou.problem }));
  try {
    const request = await flow.origin.connection.session.prepare({ ...toRequestTarget(form), ou: ou.id });
    ctx.nav.open('request-preview', {
      flow,
      form: ctx.id,
      request,
      ...(bodyOnly ? { schemaProblems: problems.length } : {}),
    });
    ctx.update({ sendAnyway: false, message: undefined });
  } catch (error) {
    ctx.update({ error: errorInfo(error) });
  }
}

function openEditor(ctx: Ctx): void {
  const edit = ctx.services.terminal.edit;
  if (!edit) return ctx.update({ message: 'no terminal to hand to $EDITOR here' });
  ctx.update({ editorBusy: true });
  edit(ctx.state.form.body).then(
    (text) =>
      ctx.update((s) => ({ form: withBody(s.form, text), message: 'body edited in $EDITOR', editorBusy: false })),
    (error: unknown) => ctx.update({ message: noticeOf('the body is unchanged', error), editorBusy: false }),
  );
}

/** A filter variable is built in the filter builder the lists have: fields from the record schema, values from it too. */
function openFilterBuilder(ctx: Ctx, name: string): void {
  const { form } = ctx.state;
  const fields = knownRecordFields(form.resource, form.version) ?? [];
  if (fields.length === 0)
    return ctx.update({
      editing: createBuffer(rowText(form, { kind: 'field', name })),
      message: 'no record fields known for this resource: type the filter as JSON',
    });
  ctx.nav.open('filter', {
    fields,
    samples: {},
    conditions: [],
    filtered: false,
    suggest: (field) => valueSuggestions({ resource: form.resource, version: form.version, field }),
    apply: (conditions) =>
      ctx.update((s) => ({
        form: withField(s.form, name, conditions.length === 0 ? '' : buildFilter(conditions, {}, ctx.now)),
      })),
  });
}

/** Enter on a row: type in it, pick an enum's value, flip a boolean, build a filter, or preview. */
function activate(ctx: Ctx): void {
  const row = focused(ctx.state);
  if (row.kind === 'submit') return void preview(ctx);
  if (row.kind === 'field' && FILTER_NAMES.includes(row.name.toLowerCase())) return openFilterBuilder(ctx, row.name);
  if (row.kind === 'body-field') {
    const { field } = row;
    const current = bodyFieldValue(ctx.state.form, field.name);
    if (!current) return ctx.update({ message: 'the body is not a JSON object: fix it in the editor below first' });
    const set = (input: { value: unknown } | { remove: true }) =>
      ctx.update((s) => ({ form: withBodyField(s.form, field, input) ?? s.form, sendAnyway: false }));
    if (field.allowed) {
      return ctx.nav.open('choose', {
        title: `${field.name}: ${field.description ?? 'pick a value'}`,
        entries: [
          ...field.allowed.map((value) => ({
            label: typeof value === 'string' ? value : JSON.stringify(value),
            detail: value === field.default ? 'the default' : '',
            run: () => set({ value }),
          })),
          ...(field.required
            ? []
            : [
                {
                  label: '(leave it out)',
                  detail: field.default === undefined ? '' : `the server takes ${JSON.stringify(field.default)}`,
                  run: () => set({ remove: true }),
                },
              ]),
        ],
      });
    }
    if (/^boolean/.test(field.type)) {
      // Absent → true → false → absent (an optional field may be left out).
      const next = !current.present
        ? { value: true }
        : current.value === true
          ? { value: false }
          : field.required
            ? { value: true }
            : { remove: true as const };
      return set(next);
    }
  }
  ctx.update((s) => ({ editing: createBuffer(rowText(s.form, row)), message: undefined }));
}

const editing = (s: FormState) => s.editing !== undefined;
const idle = (s: FormState) => s.editing === undefined;
const inBody = (s: FormState) => s.editing !== undefined && focused(s).kind === 'body';
/** Moves the focus by `by` rows; the rows' window follows it only as far as it must. */
const step = (ctx: Ctx, by: number) =>
  ctx.update((s) => {
    const focus = Math.max(0, Math.min(rowsOf(s.form).length - 1, s.focus + by));
    return { message: undefined, focus, top: formTop(s, focus, ctx.size.columns, ctx.bodyHeight()) };
  });

const typingBindings: Binding<FormState>[] = [
  {
    keys: ['escape'],
    help: 'done typing',
    hint: 'Esc done',
    when: editing,
    run: (ctx) => ctx.update({ editing: undefined }),
  },
  {
    keys: ['return'],
    help: 'done typing (in the body: a new line)',
    hint: 'Enter done',
    when: (s) => editing(s) && !inBody(s),
    run: (ctx) => ctx.update({ editing: undefined }),
  },
  {
    keys: [
      TEXT,
      'return',
      'tab',
      'backspace',
      'delete',
      'left',
      'right',
      'up',
      'down',
      'home',
      'end',
      'pageup',
      'pagedown',
      'ctrl-a',
      'ctrl-e',
      'ctrl-d',
      'ctrl-u',
    ],
    help: 'type; ←→ ↑↓ Home End move, Backspace/Delete erase, ctrl-u clears to the start, paste inserts',
    when: editing,
    run: typeKey,
  },
];

export const formScreen: ScreenModule<FormState, FormParams> = {
  title: 'operation form',
  typing: editing,
  paste: pasteInto,
  init: (params) => ({ ...params, focus: 0, editorBusy: false }),
  origin: (s) => s.flow.origin,
  crumb: (s) => s.form.operation.id,
  subject: (s) => `${s.form.resource}@${s.form.version}`,
  bindings: [
    ...typingBindings,
    { keys: ['up', 'backtab', 'k'], help: 'previous field', hint: '↑↓ move', when: idle, run: (ctx) => step(ctx, -1) },
    { keys: ['down', 'tab', 'j'], help: 'next field', when: idle, run: (ctx) => step(ctx, 1) },
    {
      keys: ['return'],
      help: 'edit the field (an enum: pick; a boolean: flip; a filter: build); on the last row, preview',
      hint: 'Enter edit',
      when: idle,
      run: activate,
    },
    {
      keys: ['i'],
      help: 'type a filter (or any field) as text',
      when: (s) => idle(s) && focused(s).kind === 'field',
      run: (ctx) => ctx.update((s) => ({ editing: createBuffer(rowText(s.form, focused(s))) })),
    },
    {
      keys: ['b'],
      help: 'edit the body here',
      hint: 'b edit the body',
      when: (s) => idle(s) && s.form.hasBody,
      run: (ctx) =>
        ctx.update((s) => ({
          focus: rowsOf(s.form).findIndex((row) => row.kind === 'body'),
          editing: createBuffer(s.form.body),
          message: undefined,
        })),
    },
    {
      keys: ['e'],
      help: 'the body in $EDITOR',
      hint: 'e body in $EDITOR',
      when: (s) => idle(s) && s.form.hasBody && !s.editorBusy,
      run: openEditor,
    },
    {
      keys: ['p'],
      help: 'preview the exact request (twice: a body with schema problems)',
      hint: 'p preview',
      when: idle,
      run: (ctx) => void preview(ctx),
    },
    { keys: ['escape'], help: 'back to the operations', hint: 'Esc back', when: idle, run: (ctx) => ctx.nav.back() },
  ],
  View: FormView,
};
