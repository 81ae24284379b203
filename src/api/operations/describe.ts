// What an operation needs, before it is sent: its method, href and versions from the index, its path and
// query variables (what each is for, and the values a filter may compare with), every body field of its
// schema (required and optional, type, allowed values, description, example), and a command to start from.
// The command line prints it (`dpx call R OP --help`); the explorer's form is built from the same fields.
import type { Catalog, Operation } from '../hal/catalog.js';
import { fieldEnum, knownRecordFields } from '../hal/schemas.js';
import { patternExample } from '../hal/pattern-example.js';
import { pagingParameters, resolveOperation } from '../hal/operation.js';
import { isObject } from '../json.js';
import { carriesBody } from './body.js';
import { wordNamesResource } from './prefill.js';
import { type BodySchema } from './body.js';

/** One top-level property of a body schema, as a person filling the body needs it. */
export interface BodyField {
  name: string;
  required: boolean;
  /** `string`, `integer`, `boolean`, `string | null`…; 'any' when the schema does not say. */
  type: string;
  /** The values it may take, when the schema enumerates them. */
  allowed?: readonly unknown[];
  description?: string;
  /** The schema's example, else a value of the pattern's shape. */
  example?: unknown;
  default?: unknown;
  /** Limits in words: `1–200 characters`, `1 to 3650`, `a UUID`. */
  limits: string[];
  /** The resource a `<x>_id` field names, when the index has it: where to find a value. */
  refers?: string;
}

export interface VariableInfo {
  name: string;
  kind: 'path' | 'query';
  required: boolean;
  /** What the variable is for, in a few words. */
  about: string;
  /** For a filter: the fields the list's records are known to have, with their values where enumerated. */
  filterFields?: { field: string; values?: readonly unknown[] }[];
}

export interface OperationDescription {
  resource: string;
  version: string;
  /** The versions whose operations include this id, newest first. */
  versions: string[];
  operation: Operation;
  variables: VariableInfo[];
  hasBody: boolean;
  /** undefined when no schema is known for the body. */
  schema?: { source: string; title?: string; fields: BodyField[] };
  /** A command to copy and edit. */
  example: string;
}

export const FILTER_NAMES = ['filter', 'q', 'where'];
export const FILTER_OPERATORS = ['$eq', '$neq', '$in', '$contains', '$begins_with', '$gt', '$gte', '$lt', '$lte'];

/** Local references only (`#/definitions/x`): a body schema is one self-contained file. */
function resolveRef(root: Record<string, unknown>, node: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!isObject(node) || depth > 8) return undefined;
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  if (!ref.startsWith('#')) return undefined;
  let target: unknown = root;
  for (const segment of ref.slice(1).split('/').filter(Boolean)) {
    if (!isObject(target)) return undefined;
    target = target[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return resolveRef(root, target, depth + 1);
}

function typeText(node: Record<string, unknown>): string {
  const type = node['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string') {
    if (type === 'array' && isObject(node['items']) && typeof node['items']['type'] === 'string') return `array of ${node['items']['type']}`;
    return typeof node['format'] === 'string' ? `${type} (${node['format']})` : type;
  }
  if (Array.isArray(node['enum'])) return 'one of the values';
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(node[key])) return node[key].map((option) => (isObject(option) ? typeText(option) : 'any')).join(' | ');
  }
  return 'any';
}

function limitsOf(node: Record<string, unknown>): string[] {
  const limits: string[] = [];
  const min = node['minLength'];
  const max = node['maxLength'];
  if (typeof min === 'number' && typeof max === 'number') limits.push(`${min}–${max} characters`);
  else if (typeof min === 'number' && min > 0) limits.push(`at least ${min} characters`);
  else if (typeof max === 'number') limits.push(`at most ${max} characters`);
  const low = node['minimum'];
  const high = node['maximum'];
  if (typeof low === 'number' && typeof high === 'number') limits.push(`${low} to ${high}`);
  else if (typeof low === 'number') limits.push(`at least ${low}`);
  else if (typeof high === 'number') limits.push(`at most ${high}`);
  if (typeof node['minItems'] === 'number' && node['minItems'] > 0) limits.push(`at least ${node['minItems']} items`);
  if (typeof node['pattern'] === 'string') {
    const shape = patternExample(node['pattern']);
    limits.push(shape?.name ?? (shape ? `of the form ${shape.example}` : 'a fixed form (see the schema)'));
  }
  return limits;
}

/** Every top-level property of a body schema (through `$ref` and `allOf`): required ones first, each group in the schema's order. */
export function bodyFields(schema: Record<string, unknown>): BodyField[] {
  const properties = new Map<string, Record<string, unknown>>();
  const required = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    const resolved = resolveRef(schema, node);
    if (!resolved || depth > 8) return;
    if (Array.isArray(resolved['required'])) for (const name of resolved['required']) if (typeof name === 'string') required.add(name);
    if (isObject(resolved['properties'])) {
      for (const [name, child] of Object.entries(resolved['properties'])) {
        const property = resolveRef(schema, child);
        if (property && !properties.has(name)) properties.set(name, property);
      }
    }
    if (Array.isArray(resolved['allOf'])) for (const part of resolved['allOf']) visit(part, depth + 1);
  };
  visit(schema, 0);
  const fields = [...properties].map(([name, node]): BodyField => {
    const field: BodyField = { name, required: required.has(name), type: typeText(node), limits: limitsOf(node) };
    if (Array.isArray(node['enum'])) field.allowed = node['enum'];
    if (typeof node['description'] === 'string') field.description = node['description'];
    const examples = node['examples'];
    if (node['example'] !== undefined) field.example = node['example'];
    else if (Array.isArray(examples) && examples.length > 0) field.example = examples[0];
    else if (typeof node['pattern'] === 'string') {
      const shape = patternExample(node['pattern']);
      if (shape) field.example = shape.example;
    }
    if (node['default'] !== undefined) field.default = node['default'];
    return field;
  });
  return [...fields.filter((field) => field.required), ...fields.filter((field) => !field.required)];
}

function withReference(catalog: Catalog, field: BodyField): BodyField {
  const named = namedResource(catalog, field.name);
  return named ? { ...field, refers: named } : field;
}

/** The resource a `<x>_id` variable names, when the index has one of that name. */
function namedResource(catalog: Catalog, name: string): string | undefined {
  const word = /^(.+)_id$/i.exec(name)?.[1];
  if (word === undefined) return undefined;
  return catalog.resources.find((resource) => wordNamesResource(word, resource.name))?.name;
}

function variableInfo(catalog: Catalog, resource: string, version: string, operation: Operation): VariableInfo[] {
  const paging = pagingParameters(operation);
  const path = operation.pathVariables.map((name): VariableInfo => {
    const named = namedResource(catalog, name);
    const about = named
      ? `the id of a ${named} record${named === resource ? '' : ` (dpx list ${named})`}`
      : name.toLowerCase() === 'id' ? `the id of a ${resource} record` : 'a path segment';
    return { name, kind: 'path', required: true, about };
  });
  const query = operation.queryVariables.map((name): VariableInfo => {
    if (name === paging.pageSize) return { name, kind: 'query', required: false, about: 'records per page (the server sets its own limit)' };
    if (name === paging.page) return { name, kind: 'query', required: false, about: 'the page to read: a number or a token from a previous page\'s links' };
    if (FILTER_NAMES.includes(name.toLowerCase())) {
      const fields = (knownRecordFields(resource, version) ?? []).map((field) => {
        const values = fieldEnum(resource, version, field);
        return values ? { field, values } : { field };
      });
      return {
        name, kind: 'query', required: false,
        about: 'a JSON filter, {"<field>": {"<operator>": <value>}, …} (every condition must hold), e.g. {"name":{"$contains":"a"}}',
        ...(fields.length > 0 ? { filterFields: fields } : {}),
      };
    }
    return { name, kind: 'query', required: false, about: 'a query parameter of the href' };
  });
  return [...path, ...query];
}

/** A body to start from: the required fields with their examples (or placeholders); for a body with no required field, its first field. */
export function exampleBody(fields: BodyField[]): Record<string, unknown> {
  const sample = (field: BodyField): unknown => {
    // An id is the user's to find: a made-up one would only be refused.
    if (/_id$/i.test(field.name)) return `<${field.name}>`;
    if (field.example !== undefined) return field.example;
    if (field.default !== undefined) return field.default;
    if (field.allowed && field.allowed.length > 0) return field.allowed[0];
    if (field.type.startsWith('integer') || field.type.startsWith('number')) return 1;
    if (field.type.startsWith('boolean')) return true;
    return `<${field.name}>`;
  };
  const chosen = fields.filter((field) => field.required);
  return Object.fromEntries((chosen.length > 0 ? chosen : fields.slice(0, 1)).map((field) => [field.name, sample(field)]));
}

/** `'…'` for a POSIX shell. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function exampleCommand(description: Omit<OperationDescription, 'example'>): string {
  const { resource, operation, schema } = description;
  const words = ['dpx', 'call', resource, operation.id];
  const single = operation.pathVariables.length === 1;
  for (const name of operation.pathVariables) words.push(single ? `<${name}>` : `--var ${name}=<${name}>`);
  if (description.hasBody) words.push('--body', schema ? quoted(JSON.stringify(exampleBody(schema.fields))) : "'{…}'");
  if (operation.method !== 'GET' && operation.method !== 'HEAD') words.push('--allow-writes');
  return words.join(' ');
}

/** The description of one operation of the index; throws a UsageError naming what exists when it has no such operation. */
export function describeOperation(catalog: Catalog, target: { resource: string; version?: string; operationId: string }, schema?: BodySchema): OperationDescription {
  const { resource, version, operation } = resolveOperation(catalog, target);
  const versions = resource.versions.filter((candidate) => candidate.operations.some((op) => op.id === operation.id)).map((candidate) => candidate.version);
  const described: Omit<OperationDescription, 'example'> = {
    resource: resource.name,
    version: version.version,
    versions,
    operation,
    variables: variableInfo(catalog, resource.name, version.version, operation),
    hasBody: carriesBody(operation.method),
    ...(schema
      ? { schema: { source: schema.source, fields: bodyFields(schema.schema).map((field) => withReference(catalog, field)), ...(typeof schema.schema['title'] === 'string' ? { title: schema.schema['title'] } : {}) } }
      : {}),
  };
  return { ...described, example: exampleCommand(described) };
}
