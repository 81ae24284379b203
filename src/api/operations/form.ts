// The operation form as data: variables (path required, query optional), the OU, and a JSON body for
// methods that carry one. Pure functions over an immutable state, so a UI can hold it in a reducer.
import type { Operation } from '../hal/catalog.js';
import { resolveHref } from '../hal/links.js';
import type { RequestTarget } from '../hal/operation.js';
import { expandTemplate } from '../hal/template.js';
import { bodyPropertyNames, bodyTemplate, checkBodyText, formatBodyProblem, type BodySchema } from './body.js';
import { recordIdValues } from './prefill.js';

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
  body: string;
}

export interface FormProblem {
  /** A variable name, 'body' or a JSON pointer into the body. */
  where: string;
  message: string;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function carriesBody(method: string): boolean {
  return BODY_METHODS.has(method.toUpperCase());
}

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
  return {
    resource: input.resource,
    version: input.version,
    operation: input.operation,
    fields: [...input.operation.pathVariables.map((name) => field(name, 'path')), ...input.operation.queryVariables.map((name) => field(name, 'query'))],
    ou: input.ou ?? '',
    hasBody,
    body: hasBody && input.bodySchema ? bodyTemplate(input.bodySchema, bodyFill(input.bodySchema, input.record)) : '',
  };
}

function bodyFill(schema: Record<string, unknown>, record?: { resource: string; fields: Record<string, unknown> }): Record<string, string> {
  return record ? recordIdValues(bodyPropertyNames(schema), record.fields, record.resource) : {};
}

export function withField(state: OperationFormState, name: string, value: string): OperationFormState {
  return { ...state, fields: state.fields.map((field) => (field.name === name ? { ...field, value, prefilled: false } : field)) };
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
    for (const problem of checkBodyText(state.body, schema)) {
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

/** The form as a request target for Session.prepare; an empty body is no body. */
export function toRequestTarget(state: OperationFormState): RequestTarget {
  const pick = (kind: FormField['kind']): Record<string, string> =>
    Object.fromEntries(state.fields.filter((field) => field.kind === kind && field.value !== '').map((field) => [field.name, field.value]));
  const target: RequestTarget = {
    resource: state.resource, version: state.version, operationId: state.operation.id, variables: pick('path'), query: pick('query'), ou: state.ou === '' ? null : state.ou,
  };
  if (state.hasBody && state.body.trim() !== '') target.body = state.body;
  return target;
}
