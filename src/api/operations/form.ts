// The operation form as data: variables (path required, query optional), the OU, and a body for methods
// that carry one: JSON with comments, started from the template that names every field of the schema
// (template.ts), and sent as plain JSON. Pure functions over an immutable state, so a UI can hold it in a
// reducer.
import type { Operation } from '../hal/catalog.js';
import { resolveHref } from '../hal/links.js';
import type { RequestTarget } from '../hal/operation.js';
import { expandTemplate } from '../hal/template.js';
import { isObject } from '../json.js';
import { bodyPropertyNames, carriesBody, checkBodyText, formatBodyProblem, type BodySchema } from './body.js';
import { bodyFieldIn, isBlankBody, parseBodyText, removeBodyField, sendableBody, setBodyField } from './jsonc.js';
import { recordIdValues } from './prefill.js';
import { bodyFields, type BodyField } from './schema-fields.js';
import { bodyTemplate } from './template.js';

export interface FormField {
  name: string;
  kind: 'path' | 'query';
  required: boolean;
  value: string;
  /** True while the value is the one taken from the record. */
  prefilled: boolean;
}

export interface OperationFormState {
  resource: string;
  version: string;
  operation: Operation;
  fields: FormField[];
  /** The OU id to send, '' for none. */
  ou: string;
  hasBody: boolean;
  /** The body as edited: JSON, comments allowed (a commented-out field is not sent). */
  body: string;
  /** The body schema's fields, required first: the form offers each. Empty when no schema is known. */
  bodyFields: BodyField[];
  /**
   * The record's current values the body started from (PUT and PATCH of the record's own resource),
   * only the fields the body schema accepts. A PATCH sends only what differs from them.
   */
  baseline?: Record<string, unknown>;
}

export interface FormProblem {
  /** A variable name, 'body' or a JSON pointer into the body. */
  where: string;
  message: string;
}

export { carriesBody } from './body.js';

export function createOperationForm(input: {
  resource: string;
  version: string;
  operation: Operation;
  prefill?: Record<string, string>;
  ou?: string;
  bodySchema?: Record<string, unknown>;
  /** The record the form opens with and its resource: body properties `<x>_id` naming that resource take its id. */
  record?: { resource: string; fields: Record<string, unknown> };
}): OperationFormState {
  const prefill = input.prefill ?? {};
  const field = (name: string, kind: FormField['kind']): FormField => ({
    name,
    kind,
    required: kind === 'path',
    value: prefill[name] ?? '',
    prefilled: prefill[name] !== undefined,
  });
  const hasBody = carriesBody(input.operation.method);
  const fields = input.bodySchema ? bodyFields(input.bodySchema) : [];
  const baseline =
    hasBody && input.bodySchema
      ? recordBaseline(input.operation.method, input.resource, fields, input.record)
      : undefined;
  // Every field of the schema named: the record's values (a PUT or PATCH of it) and the required fields
  // set, each other field a commented-out line to uncomment.
  const body =
    !hasBody || !input.bodySchema
      ? ''
      : bodyTemplate(input.bodySchema, { values: { ...bodyFill(input.bodySchema, input.record), ...baseline } });
  return {
    resource: input.resource,
    version: input.version,
    operation: input.operation,
    fields: [
      ...input.operation.pathVariables.map((name) => field(name, 'path')),
      ...input.operation.queryVariables.map((name) => field(name, 'query')),
    ],
    ou: input.ou ?? '',
    hasBody,
    body,
    bodyFields: fields,
    ...(baseline ? { baseline } : {}),
  };
}

/**
 * A PUT or PATCH of the record's own resource starts from the record's current values, as restish's
 * `edit` does — only the fields the body schema accepts, so never its id, timestamps or links.
 */
function recordBaseline(
  method: string,
  resource: string,
  fields: BodyField[],
  record?: { resource: string; fields: Record<string, unknown> },
): Record<string, unknown> | undefined {
  if (
    !record ||
    record.resource !== resource ||
    !['PUT', 'PATCH'].includes(method.toUpperCase()) ||
    fields.length === 0
  )
    return undefined;
  const accepted = fields
    .map((field) => field.name)
    .filter((name) => record.fields[name] !== undefined && !name.startsWith('_'));
  return accepted.length > 0 ? Object.fromEntries(accepted.map((name) => [name, record.fields[name]])) : undefined;
}

function bodyFill(
  schema: Record<string, unknown>,
  record?: { resource: string; fields: Record<string, unknown> },
): Record<string, string> {
  return record ? recordIdValues(bodyPropertyNames(schema), record.fields, record.resource) : {};
}

export function withField(state: OperationFormState, name: string, value: string): OperationFormState {
  return {
    ...state,
    fields: state.fields.map((field) => (field.name === name ? { ...field, value, prefilled: false } : field)),
  };
}

export function withOu(state: OperationFormState, ou: string): OperationFormState {
  return { ...state, ou: ou.trim() };
}

export function withBody(state: OperationFormState, body: string): OperationFormState {
  return { ...state, body };
}

/** Everything that stops the form from being sent, in the order a person reads the form. */
export function formProblems(state: OperationFormState, schema?: BodySchema): FormProblem[] {
  const problems: FormProblem[] = state.fields
    .filter((field) => field.required && field.value.trim() === '')
    .map((field) => ({ where: field.name, message: 'is required (a path variable)' }));
  if (state.hasBody) {
    // A PATCH that started from the record is checked as it will go: only the changed fields.
    const checked =
      state.baseline && state.operation.method.toUpperCase() === 'PATCH' && parseBodyText(state.body).ok
        ? (bodyToSend(state) ?? '')
        : state.body;
    for (const problem of checkBodyText(checked, schema)) {
      const text = formatBodyProblem(problem);
      const cut = text.indexOf(': ');
      problems.push({ where: text.slice(0, cut), message: text.slice(cut + 2) });
    }
  }
  return problems;
}

/** The URL as it stands, a missing path variable shown as `{name}`, for a live preview while typing. */
export function draftUrl(state: OperationFormState, baseUrl: string): string {
  const marker = (name: string): string => `__dpx_missing_${name}__`;
  const values: Record<string, string | undefined> = {};
  for (const field of state.fields) {
    if (field.value !== '') values[field.name] = field.value;
    else if (field.required) values[field.name] = marker(field.name);
  }
  const expanded = state.operation.templated ? expandTemplate(state.operation.href, values) : state.operation.href;
  let url = resolveHref(baseUrl, expanded);
  for (const field of state.fields) url = url.replace(marker(field.name), `{${field.name}}`);
  return url;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The body that goes: as typed when it is plain JSON, else its value without the comments; a PATCH that
 * started from the record sends only the fields the user changed (a field taken out is not sent either:
 * a merge patch removes nothing by omission). A body of comments only is no body.
 */
export function bodyToSend(state: OperationFormState): string | undefined {
  if (!state.hasBody || isBlankBody(state.body)) return undefined;
  if (!state.baseline || state.operation.method.toUpperCase() !== 'PATCH')
    return sendableBody(state.body) ?? state.body;
  const parsed = parseBodyText(state.body);
  if (!parsed.ok || !isObject(parsed.value)) return sendableBody(state.body) ?? state.body;
  const baseline = state.baseline;
  const changed = Object.fromEntries(
    Object.entries(parsed.value).filter(
      ([name, value]) => !Object.hasOwn(baseline, name) || !sameValue(value, baseline[name]),
    ),
  );
  return JSON.stringify(changed, null, 2);
}

/** The names of the fields a PATCH will send, for the form to say so; undefined when the whole body goes. */
export function changedFields(state: OperationFormState): string[] | undefined {
  if (!state.baseline || state.operation.method.toUpperCase() !== 'PATCH') return undefined;
  const sent = bodyToSend(state);
  const parsed = sent === undefined ? undefined : parseBodyText(sent);
  return parsed?.ok && isObject(parsed.value) ? Object.keys(parsed.value) : undefined;
}

/** The value of one top-level body field as the form shows it: undefined when absent, or when the body is not a JSON object. */
export function bodyFieldValue(
  state: OperationFormState,
  name: string,
): { value?: unknown; present: boolean } | undefined {
  return bodyFieldIn(state.body, name);
}

/**
 * Sets one top-level body field from what was typed or picked, the rest of the body (its comments too)
 * untouched: typed text takes the field's type (a number, true/false, null), '' takes the field out,
 * which comments its line out, as the template has it. A field set that has a commented-out line is
 * uncommented there. undefined when the body is not a JSON object to set it in.
 */
export function withBodyField(
  state: OperationFormState,
  field: BodyField,
  input: string | { value: unknown } | { remove: true },
): OperationFormState | undefined {
  const remove = (typeof input === 'object' && 'remove' in input) || input === '';
  const body = remove
    ? removeBodyField(state.body, field.name)
    : setBodyField(
        state.body,
        field.name,
        typeof input === 'object' && 'value' in input ? input.value : typedFieldValue(field, input as string),
      );
  return body === undefined ? undefined : { ...state, body };
}

/** Typed text as the field's JSON type; text that does not read as that type stays text, for the schema check to name. */
export function typedFieldValue(field: BodyField, text: string): unknown {
  const type = field.type;
  if (/^(integer|number)/.test(type) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (/^boolean/.test(type) && /^(true|false)$/i.test(text.trim())) return text.trim().toLowerCase() === 'true';
  if (/null/.test(type) && text.trim() === 'null') return null;
  if (/^(array|object)/.test(type)) {
    const parsed = parseBodyText(text);
    if (parsed.ok) return parsed.value;
  }
  return text;
}

/** The form as a request target for Session.prepare; an empty body is no body. */
export function toRequestTarget(state: OperationFormState): RequestTarget {
  const pick = (kind: FormField['kind']): Record<string, string> =>
    Object.fromEntries(
      state.fields
        .filter((field) => field.kind === kind && field.value !== '')
        .map((field) => [field.name, field.value]),
    );
  const target: RequestTarget = {
    resource: state.resource,
    version: state.version,
    operationId: state.operation.id,
    variables: pick('path'),
    query: pick('query'),
    ou: state.ou === '' ? null : state.ou,
  };
  const body = bodyToSend(state);
  if (body !== undefined) target.body = body;
  return target;
}
