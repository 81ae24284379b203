// The operation form: path and query variables (prefilled from the record), the OU, and a JSON body typed
// in place or in $EDITOR; the URL and every problem shown live while typing. `p` previews the request.
import { Box, Text } from 'ink';
import type { BodySchema } from '../../../api/operations/body.js';
import { draftUrl, formProblems, toRequestTarget, withBody, withField, withOu, type OperationFormState } from '../../../api/operations/form.js';
import { isWriteMethod, writeRefusal } from '../../../api/security/safety.js';
import { methodTone, Tinted } from '../../components/theme.js';
import { editText, type Key } from '../../keys.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import { TEXT, type Binding, type ScreenBase, type ScreenContext, type ScreenModule } from '../../nav/screen.js';
import type { Flow } from './flow.js';
import { oneLine } from '../../../text/cells.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    'operation-form': FormParams;
  }
}

export interface FormParams {
  flow: Flow;
  form: OperationFormState;
  schema?: BodySchema;
}

export interface FormState extends ScreenBase, FormParams {
  focus: number;
  editing: boolean;
  editorBusy: boolean;
  message?: string;
}

type Ctx = ScreenContext<FormState>;
type Row = { kind: 'field'; name: string } | { kind: 'ou' } | { kind: 'body' } | { kind: 'submit' };

function rowsOf(form: OperationFormState): Row[] {
  return [...form.fields.map((field): Row => ({ kind: 'field', name: field.name })), { kind: 'ou' }, ...(form.hasBody ? [{ kind: 'body' } as Row] : []), { kind: 'submit' }];
}

function focused(state: FormState): Row {
  const rows = rowsOf(state.form);
  return rows[Math.min(state.focus, rows.length - 1)]!;
}

/** The text the focused row edits. */
function rowText(form: OperationFormState, row: Row): string {
  if (row.kind === 'field') return form.fields.find((field) => field.name === row.name)?.value ?? '';
  if (row.kind === 'ou') return form.ou;
  return row.kind === 'body' ? form.body : '';
}

function withRowText(form: OperationFormState, row: Row, text: string): OperationFormState {
  if (row.kind === 'field') return withField(form, row.name, text);
  if (row.kind === 'ou') return withOu(form, text);
  return row.kind === 'body' ? withBody(form, text) : form;
}

function edit(ctx: Ctx, change: (text: string) => string | undefined): void {
  ctx.update((s) => {
    const row = focused(s);
    const text = change(rowText(s.form, row));
    return text === undefined ? {} : { form: withRowText(s.form, row, text) };
  });
}

async function preview(ctx: Ctx): Promise<void> {
  const { form, schema, flow } = ctx.state;
  const problems = formProblems(form, schema);
  if (problems.length > 0) return ctx.update({ message: `fix ${problems.length === 1 ? 'the problem' : `the ${problems.length} problems`} below first` });
  try {
    const request = await flow.origin.connection.session.prepare(toRequestTarget(form));
    ctx.nav.open('request-preview', { flow, form: ctx.id, request });
  } catch (error) {
    ctx.update({ error: errorInfo(error) });
  }
}

function openEditor(ctx: Ctx): void {
  const edit = ctx.services.terminal.edit;
  if (!edit) return ctx.update({ message: 'no terminal to hand to $EDITOR here' });
  ctx.update({ editorBusy: true });
  edit(ctx.state.form.body).then(
    (text) => ctx.update((s) => ({ form: withBody(s.form, text), message: 'body edited in $EDITOR', editorBusy: false })),
    (error: unknown) => ctx.update({ message: noticeOf('the body is unchanged', error), editorBusy: false }),
  );
}

const editing = (s: FormState) => s.editing;
const idle = (s: FormState) => !s.editing;
const inBody = (s: FormState) => s.editing && focused(s).kind === 'body';
const step = (ctx: Ctx, by: number) => ctx.update((s) => ({ message: undefined, focus: Math.max(0, Math.min(rowsOf(s.form).length - 1, s.focus + by)) }));

const typingBindings: Binding<FormState>[] = [
  { keys: ['escape'], help: 'done typing', hint: 'Esc done', when: editing, run: (ctx) => ctx.update({ editing: false }) },
  { keys: ['return'], help: 'in the body: a new line', hint: 'Enter new line', when: inBody, run: (ctx) => edit(ctx, (text) => `${text}\n`) },
  { keys: ['tab'], help: 'in the body: indent', when: inBody, run: (ctx) => edit(ctx, (text) => `${text}  `) },
  { keys: ['return'], help: 'done typing', hint: 'Enter done', when: editing, run: (ctx) => ctx.update({ editing: false }) },
  { keys: [TEXT, 'backspace', 'ctrl-u'], help: 'type the value (ctrl-u clears)', when: editing, run: (ctx, key: Key) => edit(ctx, (text) => editText(text, key)) },
];

export const formScreen: ScreenModule<FormState, FormParams> = {
  title: 'operation form',
  ownKeys: true,
  init: (params) => ({ ...params, focus: 0, editing: false, editorBusy: false }),
  origin: (s) => s.flow.origin,
  crumb: (s) => s.form.operation.id,
  subject: (s) => `${s.form.resource}@${s.form.version}`,
  bindings: [
    ...typingBindings,
    { keys: ['up', 'backtab', 'k'], help: 'previous field', hint: '↑↓ move', when: idle, run: (ctx) => step(ctx, -1) },
    { keys: ['down', 'tab', 'j'], help: 'next field', when: idle, run: (ctx) => step(ctx, 1) },
    {
      keys: ['return'], help: 'edit the field; on the last row, preview', hint: 'Enter edit', when: idle,
      run: (ctx) => (focused(ctx.state).kind === 'submit' ? void preview(ctx) : ctx.update({ editing: true, message: undefined })),
    },
    { keys: ['e'], help: 'the body in $EDITOR', hint: 'e body in $EDITOR', when: (s) => idle(s) && s.form.hasBody && !s.editorBusy, run: openEditor },
    { keys: ['p'], help: 'preview the exact request', hint: 'p preview', when: idle, run: (ctx) => void preview(ctx) },
    { keys: ['escape'], help: 'back to the operations', hint: 'Esc back', when: idle, run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx }) => {
    const { form, schema, focus, editing } = state;
    const session = state.flow.origin.connection.session;
    const method = form.operation.method;
    const refusal = writeRefusal(method, session.readOnly);
    const problems = formProblems(form, schema);
    const rows = rowsOf(form);
    const label = (text: string, index: number) => <Text inverse={index === focus && !editing} bold={index === focus}>{text}</Text>;
    const cursorMark = (index: number) => (editing && index === focus ? '▏' : '');
    const ouIndex = form.fields.length;
    const bodyIndex = ouIndex + 1;
    const bodyLines = form.body === '' ? [] : form.body.split('\n');
    const bodyHeight = Math.max(3, ctx.bodyHeight() - form.fields.length - 10);
    const shownBody = editing && focused(state).kind === 'body' ? bodyLines.slice(-bodyHeight) : bodyLines.slice(0, bodyHeight);
    return (
      <Box flexDirection="column">
        <Text bold><Tinted tone={methodTone(method)}>{oneLine(method)}</Tinted> {oneLine(`${form.resource} ${form.version} · ${form.operation.id}`)}</Text>
        <Text dimColor>{oneLine(form.operation.href)}</Text>
        {refusal && <Tinted tone="bad">{refusal.message} — {refusal.hint}</Tinted>}
        <Text>URL <Tinted tone="info">{draftUrl(form, session.baseUrl)}</Tinted></Text>
        <Box flexDirection="column" marginTop={1}>
          {form.fields.length === 0 && <Text dimColor>no template variables</Text>}
          {form.fields.map((field, index) => (
            <Text key={field.name} wrap="truncate">
              {label(`${field.kind === 'path' ? 'path ' : 'query'} ${field.name}${field.required ? '*' : ''}`, index)} = {oneLine(field.value)}{cursorMark(index)}
              {field.prefilled ? <Text dimColor>  (from the record)</Text> : null}
            </Text>
          ))}
          <Text wrap="truncate">{label('OU', ouIndex)} = {form.ou === '' ? <Text dimColor>(none)</Text> : form.ou}{cursorMark(ouIndex)}</Text>
          {form.hasBody && (
            <Box flexDirection="column">
              <Text>{label('body', bodyIndex)} <Text dimColor>JSON{schema ? `, checked against ${schema.source === 'built-in' ? 'the built-in schema' : schema.source}` : ', no schema known'}</Text></Text>
              <Box flexDirection="column" borderStyle="single" borderDimColor paddingX={1}>
                {shownBody.length === 0 ? <Text dimColor>(empty){cursorMark(bodyIndex)}</Text> : null}
                {shownBody.map((line, index) => <Text key={index} wrap="truncate">{line}{index === shownBody.length - 1 ? cursorMark(bodyIndex) : ''}</Text>)}
                {bodyLines.length > shownBody.length ? <Text dimColor>… {bodyLines.length - shownBody.length} more lines</Text> : null}
              </Box>
            </Box>
          )}
          <Text>{label(isWriteMethod(method) ? '[ preview, then confirm ]' : '[ preview ]', rows.length - 1)}</Text>
        </Box>
        {problems.length > 0 && (
          <Box flexDirection="column" marginTop={1}>
            {problems.slice(0, 8).map((problem, index) => <Tinted key={index} tone="bad" wrap="truncate">✗ {oneLine(`${problem.where}: ${problem.message}`)}</Tinted>)}
            {problems.length > 8 ? <Tinted tone="bad">… {problems.length - 8} more</Tinted> : null}
          </Box>
        )}
        {state.message && <Tinted tone="busy">{state.message}</Tinted>}
      </Box>
    );
  },
};
