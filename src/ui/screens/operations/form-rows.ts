// The operation form's rows as data — variables, the OU, one per body field, the body, the button — what
// each row's text is, what one key does to the text being typed, and the unit the OU row names.
import type { BodyField } from '../../../api/operations/describe.js';
import {
  bodyFieldValue,
  withBody,
  withBodyField,
  withField,
  withOu,
  type FormProblem,
  type OperationFormState,
} from '../../../api/operations/form.js';
import { directoryOf, pathText } from '../../../api/fanout/unit-names.js';
import { isUuid } from '../../../api/fanout/units.js';
import { headerValueProblem } from '../../../api/security/header-values.js';
import type { Key } from '../../keys.js';
import type { ScreenContext } from '../../nav/screen.js';
import { createBuffer, deleteBackward, deleteForward, insert, move } from '../../text-buffer.js';
import { pastedText } from '../../paste.js';
import type { FormState } from './form-state.js';

type Ctx = ScreenContext<FormState>;
export type Row =
  | { kind: 'field'; name: string }
  | { kind: 'ou' }
  | { kind: 'body-field'; field: BodyField }
  | { kind: 'body' }
  | { kind: 'submit' };

export function rowsOf(form: OperationFormState): Row[] {
  return [
    ...form.fields.map((field): Row => ({ kind: 'field', name: field.name })),
    { kind: 'ou' },
    ...(form.hasBody ? form.bodyFields.map((field): Row => ({ kind: 'body-field', field })) : []),
    ...(form.hasBody ? [{ kind: 'body' } as Row] : []),
    { kind: 'submit' },
  ];
}

export function focused(state: FormState): Row {
  const rows = rowsOf(state.form);
  return rows[Math.min(state.focus, rows.length - 1)]!;
}

/** The text a row edits: a variable, the OU, a body field as JSON text (a string bare), or the body. */
export function rowText(form: OperationFormState, row: Row): string {
  if (row.kind === 'field') return form.fields.find((field) => field.name === row.name)?.value ?? '';
  if (row.kind === 'ou') return form.ou;
  if (row.kind === 'body') return form.body;
  if (row.kind === 'body-field') {
    const current = bodyFieldValue(form, row.field.name);
    if (!current?.present) return '';
    return typeof current.value === 'string' ? current.value : JSON.stringify(current.value);
  }
  return '';
}

export function withRowText(form: OperationFormState, row: Row, text: string): OperationFormState {
  if (row.kind === 'field') return withField(form, row.name, text);
  if (row.kind === 'ou') return withOu(form, text);
  if (row.kind === 'body') return withBody(form, text);
  if (row.kind === 'body-field') return withBodyField(form, row.field, text) ?? form;
  return form;
}

/** A paste into the field being typed in, as text (paste.ts): line breaks kept only in the body; false when none is. */
export function pasteInto(ctx: Ctx, text: string): boolean {
  if (!ctx.state.editing) return false;
  ctx.update((s) => {
    if (!s.editing) return {};
    const row = focused(s);
    const next = insert(s.editing, pastedText(text, row.kind === 'body'));
    return { editing: next, form: withRowText(s.form, row, next.text), sendAnyway: false };
  });
  return true;
}

/** One key applied to the text being typed; the form takes the new text at once, so the URL and problems follow. */
export function typeKey(ctx: Ctx, key: Key): void {
  ctx.update((s) => {
    if (!s.editing) return {};
    const row = focused(s);
    const multiline = row.kind === 'body';
    let next = s.editing;
    switch (key.name) {
      case 'left':
      case 'right':
      case 'home':
      case 'end':
        next = move(next, key.name);
        break;
      case 'up':
      case 'down':
        if (multiline) next = move(next, key.name);
        break;
      case 'pageup':
        next = multiline ? move(next, 'start') : next;
        break;
      case 'pagedown':
        next = multiline ? move(next, 'finish') : next;
        break;
      case 'backspace':
        next = deleteBackward(next);
        break;
      case 'delete':
        next = deleteForward(next);
        break;
      case 'return':
        next = insert(next, '\n');
        break;
      case 'tab':
        next = insert(next, '  ');
        break;
      case 'char':
        if (!key.ctrl) next = insert(next, key.char);
        else if (key.char === 'a') next = move(next, 'home');
        else if (key.char === 'e') next = move(next, 'end');
        else if (key.char === 'd') next = deleteForward(next);
        else if (key.char === 'u') next = createBuffer(next.text.slice(next.cursor), 0);
        break;
      default:
        break;
    }
    if (next === s.editing) return {};
    const keepGoal = key.name === 'up' || key.name === 'down';
    const buffer = keepGoal ? next : { text: next.text, cursor: next.cursor };
    return {
      editing: buffer,
      form: next.text === s.editing.text ? s.form : withRowText(s.form, row, next.text),
      sendAnyway: false,
    };
  });
}

/**
 * The unit typed in the OU row as the id the header takes: an id goes as it is; a name or a path is found
 * in the unit tree. A control character, or a name no unit has, is a problem named here, before sending.
 */
export async function resolveOu(ctx: Ctx, text: string): Promise<{ id: string | null } | { problem: string }> {
  if (text === '') return { id: null };
  const bad = headerValueProblem(text);
  if (bad) return { problem: `the unit ${bad}; give its id, name or path` };
  if (isUuid(text)) return { id: text };
  const units = await ctx.services.units(ctx.state.flow.origin.connection).catch(() => undefined);
  // Without a unit list there is nothing to look a name up in: it goes as typed, and the server decides.
  if (!units) return { id: text };
  const directory = directoryOf(units);
  const found = directory.find(text);
  if (found.length === 0) return { problem: `no unit has the id, name or path '${text}' (o lists the units)` };
  if (found.length > 1)
    return {
      problem: `more than one unit is named '${text}': ${found.map((unit) => pathText(directory.path(unit.id))).join(', ')}; give its path`,
    };
  return { id: found[0]!.id };
}

/** Moves the focus to the row a problem is about, so an empty required variable is where the cursor is. */
export function focusOn(state: FormState, problem: FormProblem | undefined): number {
  if (!problem) return state.focus;
  const rows = rowsOf(state.form);
  const index = rows.findIndex(
    (row) =>
      (row.kind === 'field' && row.name === problem.where) ||
      (row.kind === 'body-field' && `/${row.field.name}` === problem.where) ||
      (row.kind === 'ou' && problem.where === 'OU'),
  );
  if (index !== -1) return index;
  const body = rows.findIndex((row) => row.kind === 'body');
  return body === -1 ? state.focus : body;
}
