// The operation form's drawing: its title, the href and the URL being built, the rows' window — each row
// (a variable, the OU, a body field with its type and description, the body in its editor, the button) —
// with where it is, then the problems, the message and the focused field's description. What goes where
// is decided in form-layout.ts; the keys and the state are the screen's (form.tsx).
import { Box, Text } from 'ink';
import { FILTER_NAMES } from '../../../api/operations/describe.js';
import { bodyFieldValue, changedFields, draftUrl } from '../../../api/operations/form.js';
import { isWriteMethod } from '../../../api/security/safety.js';
import { cellWidth, oneLine, truncate } from '../../../text/cells.js';
import { TextArea } from '../../components/TextArea.js';
import { methodTone, Tinted } from '../../components/theme.js';
import type { ViewProps } from '../../nav/screen.js';
import { createBuffer } from '../../text-buffer.js';
import { formLayout, type FormItem } from './form-layout.js';
import { rowsOf } from './form-rows.js';
import type { FormState } from './form-state.js';

export function FormView({ state, width, height }: ViewProps<FormState>) {
  const { form, schema, focus } = state;
  const session = state.flow.origin.connection.session;
  const method = form.operation.method;
  const rows = rowsOf(form);
  const layout = formLayout(state, width, height);
  const isEditing = (index: number) => state.editing !== undefined && index === focus;
  const label = (text: string, index: number) => (
    <Text inverse={index === focus && state.editing === undefined} bold={index === focus}>
      {text}
    </Text>
  );
  const fieldWidth = Math.min(26, Math.max(4, ...form.bodyFields.map((field) => field.name.length + 1)));
  const changed = changedFields(form);
  /** A row being typed in: its label, then the text with its cursor in what is left of the line. */
  const typing = (index: number, text: string) => (
    <Box key={index}>
      <Text wrap="truncate">{text}</Text>
      {state.editing ? (
        <TextArea buffer={state.editing} height={1} width={Math.max(10, width - cellWidth(text) - 1)} top={0} focused />
      ) : null}
    </Box>
  );
  const drawRow = (index: number) => {
    const row = rows[index]!;
    if (row.kind === 'field') {
      const field = form.fields.find((candidate) => candidate.name === row.name)!;
      const name = `${field.kind === 'path' ? 'path ' : 'query'} ${field.name}${field.required ? '*' : ''}`;
      if (isEditing(index)) return typing(index, `${name} = `);
      return (
        <Text key={index} wrap="truncate">
          {label(name, index)} = {oneLine(field.value)}
          {field.prefilled ? <Text dimColor> (from the record)</Text> : null}
          {FILTER_NAMES.includes(field.name.toLowerCase()) ? <Text dimColor> Enter builds it · i types it</Text> : null}
        </Text>
      );
    }
    if (row.kind === 'ou') {
      if (isEditing(index)) return typing(index, 'OU = ');
      return (
        <Text key={index} wrap="truncate">
          {label('OU', index)} ={' '}
          {form.ou === '' ? <Text dimColor>(none: the token's whole scope)</Text> : oneLine(form.ou)}
          <Text dimColor> an id, a name or a path</Text>
        </Text>
      );
    }
    if (row.kind === 'body-field') {
      const { field } = row;
      const name = `${field.name}${field.required ? '*' : ''}`.padEnd(fieldWidth);
      if (isEditing(index)) return typing(index, `${name} = `);
      const current = bodyFieldValue(form, field.name);
      const shown =
        current === undefined ? '(fix the JSON below)' : !current.present ? '—' : JSON.stringify(current.value);
      const about = [
        field.allowed
          ? `one of ${field.allowed.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(' | ')}`
          : field.type,
        ...field.limits,
        field.description,
      ]
        .filter(Boolean)
        .join(' · ');
      return (
        <Text key={index} wrap="truncate">
          {label(name, index)} = <Text dimColor={current?.present !== true}>{truncate(shown, 30)}</Text>
          <Text dimColor> {oneLine(about)}</Text>
        </Text>
      );
    }
    if (row.kind === 'body') {
      return (
        <Box key={index} flexDirection="column">
          <Text wrap="truncate">
            {label('body', index)}{' '}
            <Text dimColor>
              JSON{schema ? '' : ', no schema known'}
              {isEditing(index)
                ? ' · editing: arrows, Home/End, Delete, paste; Enter a new line; Esc done'
                : layout.body.lines === 0
                  ? ` · ${form.body.split('\n').length} lines, shown when the focus is on them`
                  : ' · Enter edits here, e in $EDITOR'}
            </Text>
          </Text>
          {layout.body.lines > 0 ? (
            <Box flexDirection="column" borderStyle="single" borderDimColor paddingX={1}>
              <TextArea
                buffer={isEditing(index) && state.editing ? state.editing : createBuffer(form.body, 0)}
                height={layout.body.lines}
                position={layout.body.position}
                width={Math.max(10, width - 4)}
                top={0}
                focused={isEditing(index)}
                placeholder="(empty: no body is sent)"
              />
            </Box>
          ) : null}
        </Box>
      );
    }
    return (
      <Text key={index} wrap="truncate">
        {label(isWriteMethod(method) ? '[ preview, then confirm ]' : '[ preview ]', index)}
      </Text>
    );
  };
  const drawItem = (item: FormItem, at: number) => {
    if (item.kind === 'row') return drawRow(item.row);
    if (item.kind === 'gap') return <Text key={`gap ${at}`}> </Text>;
    if (item.text === 'no template variables')
      return (
        <Text key="none" dimColor>
          no template variables
        </Text>
      );
    return (
      <Text key="body fields" dimColor wrap="truncate">
        body fields ({schema?.source === 'built-in' ? 'the schema dpx ships' : (schema?.source ?? 'schema')}; *
        required)
        {changed
          ? ` · this PATCH sends only what changed: ${changed.length === 0 ? 'nothing yet' : changed.join(', ')}`
          : ''}
      </Text>
    );
  };
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        <Tinted tone={methodTone(method)}>{oneLine(method)}</Tinted>{' '}
        {oneLine(`${form.resource} ${form.version} · ${form.operation.id}`)}
      </Text>
      {layout.href ? (
        <Text dimColor wrap="truncate">
          {oneLine(form.operation.href)}
        </Text>
      ) : null}
      {layout.refusal.map((line, index) => (
        <Tinted key={`refusal ${index}`} tone="bad" wrap="truncate">
          {line}
        </Tinted>
      ))}
      {layout.url ? (
        <Text wrap="truncate">
          URL <Tinted tone="info">{draftUrl(form, session.baseUrl)}</Tinted>
        </Text>
      ) : null}
      {layout.gaps ? <Text> </Text> : null}
      {layout.items
        .slice(layout.window.top, layout.window.end)
        .map((item, offset) => drawItem(item, layout.window.top + offset))}
      {layout.where ? (
        <Text dimColor wrap="truncate">
          {layout.where} (↑↓ move)
        </Text>
      ) : null}
      {layout.belowGap ? <Text> </Text> : null}
      {layout.problems.map((line, index) => (
        <Tinted key={`problem ${index}`} tone="bad" wrap="truncate">
          {line}
        </Tinted>
      ))}
      {layout.message.map((line, index) => (
        <Tinted key={`message ${index}`} tone="busy" wrap="truncate">
          {line}
        </Tinted>
      ))}
      {layout.about.map((line, index) => (
        <Text key={`about ${index}`} dimColor wrap="truncate">
          {line}
        </Text>
      ))}
    </Box>
  );
}
