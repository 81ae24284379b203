// The operation form: path and query variables (prefilled from the record; a filter opens the filter
// builder), the OU (an id, a name or a path), one row per field of the body schema (required first, enums
// picked from their values, descriptions beside), and the JSON body itself in an editor with a cursor, or
// in $EDITOR. The URL and every problem are shown live. `p` previews the request; a body with schema
// problems is previewed only after a second `p`, to test the server's own validation.
import { Box, Text } from 'ink';
import { knownRecordFields } from '../../../api/hal/schemas.js';
import { valueSuggestions } from '../../../api/hal/suggestions.js';
import {
  bodyFieldValue, changedFields, draftUrl, formProblems, toRequestTarget, withBody, withBodyField, withField,
} from '../../../api/operations/form.js';
import { isWriteMethod, writeRefusal } from '../../../api/security/safety.js';
import { truncate } from '../../../text/cells.js';
import { TextArea } from '../../components/TextArea.js';
import { methodTone, Tinted } from '../../components/theme.js';
import { buildFilter } from '../../filter.js';
import { errorInfo, noticeOf } from '../../nav/problems.js';
import { TEXT, type Binding, type ScreenContext, type ScreenModule } from '../../nav/screen.js';
import { createBuffer } from '../../text-buffer.js';
import { FILTER_NAMES } from '../../../api/operations/describe.js';
import { focused, focusOn, resolveOu, rowsOf, rowText, typeKey } from './form-rows.js';
import type { FormParams, FormState } from './form-state.js';

export type { FormParams, FormState } from './form-state.js';
import { oneLine } from '../../../text/cells.js';

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
  const bodyOnly = problems.length > 0 && blocking.length === 0 && !problems.some((problem) => /not JSON/.test(problem.message));
  if (blocking.length > 0 || (problems.length > 0 && !bodyOnly)) {
    const first = blocking[0] ?? problems[0];
    return ctx.update((s) => ({
      focus: focusOn(s, first), editing: undefined,
      message: `fix ${problems.length === 1 ? 'the problem' : `the ${problems.length} problems`} below first${first ? `: ${first.where} ${first.message}` : ''}`,
    }));
  }
  if (bodyOnly && !ctx.state.sendAnyway) {
    return ctx.update({
      sendAnyway: true, editing: undefined,
      message: `the body has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`} with the schema (below); p again previews it to send anyway, to test the server's own validation`,
    });
  }
  const ou = await resolveOu(ctx, form.ou);
  if ('problem' in ou) return ctx.update((s) => ({ focus: focusOn(s, { where: 'OU', message: ou.problem }), message: ou.problem }));
  try {
    const request = await flow.origin.connection.session.prepare({ ...toRequestTarget(form), ou: ou.id });
    ctx.nav.open('request-preview', { flow, form: ctx.id, request, ...(bodyOnly ? { schemaProblems: problems.length } : {}) });
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
    (text) => ctx.update((s) => ({ form: withBody(s.form, text), message: 'body edited in $EDITOR', editorBusy: false })),
    (error: unknown) => ctx.update({ message: noticeOf('the body is unchanged', error), editorBusy: false }),
  );
}

/** A filter variable is built in the filter builder the lists have: fields from the record schema, values from it too. */
function openFilterBuilder(ctx: Ctx, name: string): void {
  const { form } = ctx.state;
  const fields = knownRecordFields(form.resource, form.version) ?? [];
  if (fields.length === 0) return ctx.update({ editing: createBuffer(rowText(form, { kind: 'field', name })), message: 'no record fields known for this resource: type the filter as JSON' });
  ctx.nav.open('filter', {
    fields, samples: {}, conditions: [], filtered: false,
    suggest: (field) => valueSuggestions({ resource: form.resource, version: form.version, field }),
    apply: (conditions) => ctx.update((s) => ({ form: withField(s.form, name, conditions.length === 0 ? '' : buildFilter(conditions, {}, ctx.now)) })),
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
    const set = (input: { value: unknown } | { remove: true }) => ctx.update((s) => ({ form: withBodyField(s.form, field, input) ?? s.form, sendAnyway: false }));
    if (field.allowed) {
      return ctx.nav.open('choose', {
        title: `${field.name}: ${field.description ?? 'pick a value'}`,
        entries: [
          ...field.allowed.map((value) => ({ label: typeof value === 'string' ? value : JSON.stringify(value), detail: value === field.default ? 'the default' : '', run: () => set({ value }) })),
          ...(field.required ? [] : [{ label: '(leave it out)', detail: field.default === undefined ? '' : `the server takes ${JSON.stringify(field.default)}`, run: () => set({ remove: true }) }]),
        ],
      });
    }
    if (/^boolean/.test(field.type)) {
      // Absent → true → false → absent (an optional field may be left out).
      const next = !current.present ? { value: true } : current.value === true ? { value: false } : field.required ? { value: true } : { remove: true as const };
      return set(next);
    }
  }
  ctx.update((s) => ({ editing: createBuffer(rowText(s.form, row)), message: undefined }));
}

const editing = (s: FormState) => s.editing !== undefined;
const idle = (s: FormState) => s.editing === undefined;
const inBody = (s: FormState) => s.editing !== undefined && focused(s).kind === 'body';
const step = (ctx: Ctx, by: number) => ctx.update((s) => ({ message: undefined, focus: Math.max(0, Math.min(rowsOf(s.form).length - 1, s.focus + by)) }));

const typingBindings: Binding<FormState>[] = [
  { keys: ['escape'], help: 'done typing', hint: 'Esc done', when: editing, run: (ctx) => ctx.update({ editing: undefined }) },
  { keys: ['return'], help: 'done typing (in the body: a new line)', hint: 'Enter done', when: (s) => editing(s) && !inBody(s), run: (ctx) => ctx.update({ editing: undefined }) },
  {
    keys: [TEXT, 'return', 'tab', 'backspace', 'delete', 'left', 'right', 'up', 'down', 'home', 'end', 'pageup', 'pagedown', 'ctrl-a', 'ctrl-e', 'ctrl-d', 'ctrl-u'],
    help: 'type; ←→ ↑↓ Home End move, Backspace/Delete erase, ctrl-u clears to the start, paste inserts', when: editing,
    run: typeKey,
  },
];

export const formScreen: ScreenModule<FormState, FormParams> = {
  title: 'operation form',
  typing: editing,
  init: (params) => ({ ...params, focus: 0, editorBusy: false }),
  origin: (s) => s.flow.origin,
  crumb: (s) => s.form.operation.id,
  subject: (s) => `${s.form.resource}@${s.form.version}`,
  bindings: [
    ...typingBindings,
    { keys: ['up', 'backtab', 'k'], help: 'previous field', hint: '↑↓ move', when: idle, run: (ctx) => step(ctx, -1) },
    { keys: ['down', 'tab', 'j'], help: 'next field', when: idle, run: (ctx) => step(ctx, 1) },
    { keys: ['return'], help: 'edit the field (an enum: pick; a boolean: flip; a filter: build); on the last row, preview', hint: 'Enter edit', when: idle, run: activate },
    {
      keys: ['i'], help: 'type a filter (or any field) as text', when: (s) => idle(s) && focused(s).kind === 'field',
      run: (ctx) => ctx.update((s) => ({ editing: createBuffer(rowText(s.form, focused(s))) })),
    },
    {
      keys: ['b'], help: 'edit the body here', hint: 'b edit the body', when: (s) => idle(s) && s.form.hasBody,
      run: (ctx) => ctx.update((s) => ({ focus: rowsOf(s.form).findIndex((row) => row.kind === 'body'), editing: createBuffer(s.form.body), message: undefined })),
    },
    { keys: ['e'], help: 'the body in $EDITOR', hint: 'e body in $EDITOR', when: (s) => idle(s) && s.form.hasBody && !s.editorBusy, run: openEditor },
    { keys: ['p'], help: 'preview the exact request (twice: a body with schema problems)', hint: 'p preview', when: idle, run: (ctx) => void preview(ctx) },
    { keys: ['escape'], help: 'back to the operations', hint: 'Esc back', when: idle, run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx, width }) => {
    const { form, schema, focus } = state;
    const session = state.flow.origin.connection.session;
    const method = form.operation.method;
    const refusal = writeRefusal(method, session.readOnly);
    const problems = formProblems(form, schema);
    const rows = rowsOf(form);
    const row = focused(state);
    const isEditing = (index: number) => state.editing !== undefined && index === focus;
    const label = (text: string, index: number) => <Text inverse={index === focus && state.editing === undefined} bold={index === focus}>{text}</Text>;
    const inline = (index: number, text: string) => {
      if (!isEditing(index) || !state.editing) return <Text>{text}</Text>;
      return <TextArea buffer={state.editing} height={1} width={Math.max(10, width - 30)} top={0} focused />;
    };
    const ouIndex = form.fields.length;
    const bodyIndex = rows.findIndex((candidate) => candidate.kind === 'body');
    const fieldWidth = Math.min(26, Math.max(4, ...form.bodyFields.map((field) => field.name.length + 1)));
    const changed = changedFields(form);
    const fixedRows = form.fields.length + form.bodyFields.length + 12 + Math.min(problems.length, 5);
    const bodyHeight = Math.max(3, ctx.bodyHeight() - fixedRows);
    return (
      <Box flexDirection="column">
        <Text bold><Tinted tone={methodTone(method)}>{oneLine(method)}</Tinted> {oneLine(`${form.resource} ${form.version} · ${form.operation.id}`)}</Text>
        <Text dimColor>{oneLine(form.operation.href)}</Text>
        {refusal && <Tinted tone="bad">{refusal.message} — W turns writes on here (typed confirmation), or {refusal.hint}</Tinted>}
        <Text wrap="truncate">URL <Tinted tone="info">{draftUrl(form, session.baseUrl)}</Tinted></Text>
        <Box flexDirection="column" marginTop={1}>
          {form.fields.length === 0 && <Text dimColor>no template variables</Text>}
          {form.fields.map((field, index) => (
            <Box key={field.name}>
              <Text wrap="truncate">{label(`${field.kind === 'path' ? 'path ' : 'query'} ${field.name}${field.required ? '*' : ''}`, index)} = </Text>
              {inline(index, field.value)}
              {field.prefilled ? <Text dimColor>  (from the record)</Text> : null}
              {FILTER_NAMES.includes(field.name.toLowerCase()) && !isEditing(index) ? <Text dimColor>  Enter builds it · i types it</Text> : null}
            </Box>
          ))}
          <Box>
            <Text>{label('OU', ouIndex)} = </Text>
            {form.ou === '' && !isEditing(ouIndex) ? <Text dimColor>(none: the token's whole scope)</Text> : inline(ouIndex, form.ou)}
            {!isEditing(ouIndex) ? <Text dimColor>  an id, a name or a path</Text> : null}
          </Box>
          {form.hasBody && form.bodyFields.length > 0 && (
            <Box flexDirection="column" marginTop={1}>
              <Text dimColor>body fields ({schema?.source === 'built-in' ? 'the schema dpx ships' : schema?.source ?? 'schema'}; * required){changed ? ` · this PATCH sends only what changed: ${changed.length === 0 ? 'nothing yet' : changed.join(', ')}` : ''}</Text>
              {form.bodyFields.map((field, offset) => {
                const index = ouIndex + 1 + offset;
                const current = bodyFieldValue(form, field.name);
                const shown = current === undefined ? '(fix the JSON below)' : !current.present ? '—' : JSON.stringify(current.value);
                const about = [field.allowed ? `one of ${field.allowed.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(' | ')}` : field.type, ...field.limits, field.description].filter(Boolean).join(' · ');
                return (
                  <Box key={field.name}>
                    <Text wrap="truncate">{label(`${field.name}${field.required ? '*' : ''}`.padEnd(fieldWidth), index)} = </Text>
                    {isEditing(index) ? inline(index, '') : <Text dimColor={current?.present !== true}>{truncate(shown, 30)}</Text>}
                    {!isEditing(index) ? <Text dimColor wrap="truncate">  {truncate(about, Math.max(10, width - fieldWidth - 40))}</Text> : null}
                  </Box>
                );
              })}
            </Box>
          )}
          {form.hasBody && (
            <Box flexDirection="column" marginTop={1}>
              <Text>{label('body', bodyIndex)} <Text dimColor>JSON{schema ? '' : ', no schema known'}{isEditing(bodyIndex) ? ' · editing: arrows, Home/End, Delete, paste; Enter a new line; Esc done' : ' · Enter edits here, e in $EDITOR'}</Text></Text>
              <Box flexDirection="column" borderStyle="single" borderDimColor paddingX={1}>
                <TextArea
                  buffer={isEditing(bodyIndex) && state.editing ? state.editing : createBuffer(form.body, 0)}
                  height={bodyHeight} width={Math.max(10, width - 6)} top={0}
                  focused={isEditing(bodyIndex)} placeholder="(empty: no body is sent)"
                />
              </Box>
            </Box>
          )}
          <Text>{label(isWriteMethod(method) ? '[ preview, then confirm ]' : '[ preview ]', rows.length - 1)}</Text>
        </Box>
        {problems.length > 0 && (
          <Box flexDirection="column" marginTop={1}>
            {problems.slice(0, 5).map((problem, index) => <Tinted key={index} tone="bad" wrap="truncate">✗ {oneLine(`${problem.where}: ${problem.message}`)}</Tinted>)}
            {problems.length > 5 ? <Tinted tone="bad">… {problems.length - 5} more</Tinted> : null}
          </Box>
        )}
        {state.message && <Tinted tone="busy" wrap="wrap">{state.message}</Tinted>}
        {row.kind === 'body-field' && !state.editing && row.field.description ? <Text dimColor wrap="wrap">{row.field.name}: {row.field.description}</Text> : null}
      </Box>
    );
  },
};
