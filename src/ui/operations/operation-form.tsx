// The operation form: path and query variables (prefilled from the record), the OU, and a JSON body
// edited inline or in $EDITOR; the URL and every problem are shown live while typing.
import { Box, Text } from 'ink';
import { useReducer, useState } from 'react';
import type { BodySchema } from '../../api/operations/body.js';
import { draftUrl, formProblems, withBody, withField, withOu, type OperationFormState } from '../../api/operations/form.js';
import { isWriteMethod, writeRefusal } from '../../api/safety.js';
import type { Key } from '../keys.js';
import { methodTone, Tinted } from '../components/theme.js';
import { isChar, useKeys, useLiveState } from './use-keys.js';

export interface OperationFormProps {
  initial: OperationFormState;
  baseUrl: string;
  bodySchema?: BodySchema;
  readOnly: boolean;
  /** Opens the body in $EDITOR and resolves with the edited text; absent when no editor can be used. */
  editBody?: (text: string) => Promise<string>;
  /** Lines the body may take on screen. */
  bodyHeight?: number;
  onSubmit(form: OperationFormState): void;
  onCancel(): void;
  isActive?: boolean;
}

type Row = { kind: 'field'; name: string } | { kind: 'ou' } | { kind: 'body' } | { kind: 'submit' };

type Action = { type: 'set'; state: OperationFormState };

function reduce(_state: OperationFormState, action: Action): OperationFormState {
  return action.state;
}

function rowsOf(form: OperationFormState): Row[] {
  return [
    ...form.fields.map((field): Row => ({ kind: 'field', name: field.name })),
    { kind: 'ou' },
    ...(form.hasBody ? [{ kind: 'body' } as Row] : []),
    { kind: 'submit' },
  ];
}

/** The text a row edits, and how to put an edited text back. */
function rowText(form: OperationFormState, row: Row): string {
  if (row.kind === 'field') return form.fields.find((field) => field.name === row.name)?.value ?? '';
  if (row.kind === 'ou') return form.ou;
  if (row.kind === 'body') return form.body;
  return '';
}

function withRowText(form: OperationFormState, row: Row, text: string): OperationFormState {
  if (row.kind === 'field') return withField(form, row.name, text);
  if (row.kind === 'ou') return withOu(form, text);
  if (row.kind === 'body') return withBody(form, text);
  return form;
}

function edit(text: string, key: Key, multiline: boolean): string | undefined {
  if (key.name === 'backspace') return text.slice(0, -1);
  if (key.name === 'char' && key.ctrl && key.char === 'u') return '';
  if (key.name === 'char' && !key.ctrl) return text + key.char;
  if (multiline && key.name === 'return') return `${text}\n`;
  if (multiline && key.name === 'tab') return `${text}  `;
  return undefined;
}

export function OperationForm(props: OperationFormProps): React.ReactElement {
  // The reducer holds the form so that several keys in one input event all apply in order.
  const [form, dispatch] = useReducer(reduce, props.initial);
  const latest = { form };
  const [focus, setFocus, liveFocus] = useLiveState(0);
  const [editing, setEditing, liveEditing] = useLiveState(false);
  const [message, setMessage] = useState<string | undefined>();
  const [editorBusy, setEditorBusy] = useState(false);
  const rows = rowsOf(form);
  const row = rows[Math.min(focus, rows.length - 1)]!;
  const schema = props.bodySchema;
  const problems = formProblems(form, schema);
  const method = form.operation.method;
  const refusal = writeRefusal(method, props.readOnly);

  const submit = (): void => {
    const current = formProblems(latest.form, schema);
    if (current.length > 0) setMessage(`fix ${current.length === 1 ? 'the problem' : `the ${current.length} problems`} below first`);
    else props.onSubmit(latest.form);
  };

  const openEditor = (): void => {
    if (!props.editBody || !form.hasBody || editorBusy) return;
    setEditorBusy(true);
    props.editBody(form.body).then(
      (text) => {
        dispatch({ type: 'set', state: withBody(latest.form, text) });
        setMessage('body edited in $EDITOR');
      },
      (error: unknown) => setMessage(error instanceof Error ? error.message : String(error)),
    ).finally(() => setEditorBusy(false));
  };

  useKeys((key) => {
    const row = rows[Math.min(liveFocus(), rows.length - 1)]!;
    if (liveEditing()) {
      const multiline = row.kind === 'body';
      if (key.name === 'escape' || (!multiline && key.name === 'return')) {
        setEditing(false);
        return;
      }
      const next = edit(rowText(latest.form, row), key, multiline);
      if (next !== undefined) {
        latest.form = withRowText(latest.form, row, next);
        dispatch({ type: 'set', state: latest.form });
      }
      return;
    }
    setMessage(undefined);
    if (key.name === 'escape') props.onCancel();
    else if (key.name === 'up' || key.name === 'backtab' || isChar(key, 'k')) setFocus((at) => Math.max(0, at - 1));
    else if (key.name === 'down' || key.name === 'tab' || isChar(key, 'j')) setFocus((at) => Math.min(rows.length - 1, at + 1));
    else if (isChar(key, 'e')) openEditor();
    else if (isChar(key, 'p')) submit();
    else if (key.name === 'return') {
      if (row.kind === 'submit') submit();
      else setEditing(true);
    }
  }, (props.isActive ?? true) && !editorBusy);

  const label = (text: string, index: number): React.ReactElement => (
    <Text inverse={index === focus && !editing} bold={index === focus}>{text}</Text>
  );
  const cursorMark = (index: number): string => (editing && index === focus ? '▏' : '');
  const bodyLines = form.body === '' ? [] : form.body.split('\n');
  const bodyHeight = props.bodyHeight ?? 12;
  const shownBody = editing && row.kind === 'body' ? bodyLines.slice(-bodyHeight) : bodyLines.slice(0, bodyHeight);
  const ouIndex = form.fields.length;
  const bodyIndex = ouIndex + 1;

  return (
    <Box flexDirection="column">
      <Text bold>
        <Tinted tone={methodTone(method)}>{method}</Tinted> {form.resource} {form.version} · {form.operation.id}
      </Text>
      <Text dimColor>{form.operation.href}</Text>
      {refusal && (
        <Tinted tone="bad">
          {refusal.message} — {refusal.hint}
        </Tinted>
      )}
      <Text>
        URL <Tinted tone="info">{draftUrl(form, props.baseUrl)}</Tinted>
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {form.fields.length === 0 && <Text dimColor>no template variables</Text>}
        {form.fields.map((field, index) => (
          <Text key={field.name} wrap="truncate">
            {label(`${field.kind === 'path' ? 'path ' : 'query'} ${field.name}${field.required ? '*' : ''}`, index)} = {field.value}
            {cursorMark(index)}
            {field.prefilled ? <Text dimColor>  (from the record)</Text> : null}
          </Text>
        ))}
        <Text wrap="truncate">
          {label('OU', ouIndex)} = {form.ou === '' ? <Text dimColor>(none)</Text> : form.ou}
          {cursorMark(ouIndex)}
        </Text>
        {form.hasBody && (
          <Box flexDirection="column">
            <Text>
              {label('body', bodyIndex)} <Text dimColor>JSON{props.bodySchema ? `, checked against ${props.bodySchema.source === 'built-in' ? 'the built-in schema' : props.bodySchema.source}` : ', no schema known'}</Text>
            </Text>
            <Box flexDirection="column" borderStyle="single" borderDimColor paddingX={1}>
              {shownBody.length === 0 ? <Text dimColor>(empty){cursorMark(bodyIndex)}</Text> : null}
              {shownBody.map((line, index) => (
                <Text key={index} wrap="truncate">
                  {line}
                  {index === shownBody.length - 1 ? cursorMark(bodyIndex) : ''}
                </Text>
              ))}
              {bodyLines.length > shownBody.length ? <Text dimColor>… {bodyLines.length - shownBody.length} more lines</Text> : null}
            </Box>
          </Box>
        )}
        <Text>{label(isWriteMethod(method) ? '[ preview, then confirm ]' : '[ preview ]', rows.length - 1)}</Text>
      </Box>
      {problems.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          {problems.slice(0, 8).map((problem, index) => (
            <Tinted key={index} tone="bad" wrap="truncate">
              ✗ {problem.where}: {problem.message}
            </Tinted>
          ))}
          {problems.length > 8 ? <Tinted tone="bad">… {problems.length - 8} more</Tinted> : null}
        </Box>
      )}
      {message && <Tinted tone="busy">{message}</Tinted>}
      <Text dimColor>
        {editing
          ? row.kind === 'body'
            ? 'typing into the body · Enter new line · Esc done'
            : 'typing · ctrl-u clear · Enter/Esc done'
          : `↑↓ move · Enter edit${form.hasBody && props.editBody ? ' · e body in $EDITOR' : ''} · p preview · Esc back`}
      </Text>
    </Box>
  );
}
