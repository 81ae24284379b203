// What an operation needs, before it is sent: its method, href and versions from the index, its path and
// query variables (what each is for, and the values a filter may compare with), every body field of its
// schema (required and optional, type, allowed values, description, example), and a command to start from.
// The command line prints it (`dpx call R OP --help`); the explorer's form is built from the same fields.
import type { Catalog, Operation } from '../hal/catalog.js';
import { fieldEnum, knownRecordFields } from '../hal/schemas.js';
import { pagingParameters, resolveOperation } from '../hal/operation.js';
import { carriesBody, type BodySchema } from './body.js';
import { wordNamesResource } from './prefill.js';
import { bodyFields, type BodyField } from './schema-fields.js';
import { bodyTemplate, exampleBody } from './template.js';

export { bodyFields, type BodyField } from './schema-fields.js';

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
  /**
   * undefined when no schema is known for the body. `template` is the body to start from (JSON with
   * comments): the required fields filled in, every optional one a commented-out line to uncomment.
   */
  schema?: { source: string; title?: string; fields: BodyField[]; template: string };
  /** A command to copy and edit. */
  example: string;
}

export const FILTER_NAMES = ['filter', 'q', 'where'];
export const FILTER_OPERATORS = ['$eq', '$neq', '$in', '$contains', '$begins_with', '$gt', '$gte', '$lt', '$lte'];

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
      : name.toLowerCase() === 'id'
        ? `the id of a ${resource} record`
        : 'a path segment';
    return { name, kind: 'path', required: true, about };
  });
  const query = operation.queryVariables.map((name): VariableInfo => {
    if (name === paging.pageSize)
      return { name, kind: 'query', required: false, about: 'records per page (the server sets its own limit)' };
    if (name === paging.page)
      return {
        name,
        kind: 'query',
        required: false,
        about: "the page to read: a number or a token from a previous page's links",
      };
    if (FILTER_NAMES.includes(name.toLowerCase())) {
      const fields = (knownRecordFields(resource, version) ?? []).map((field) => {
        const values = fieldEnum(resource, version, field);
        return values ? { field, values } : { field };
      });
      return {
        name,
        kind: 'query',
        required: false,
        about:
          'a JSON filter, {"<field>": {"<operator>": <value>}, …} (every condition must hold), e.g. {"name":{"$contains":"a"}}',
        ...(fields.length > 0 ? { filterFields: fields } : {}),
      };
    }
    return { name, kind: 'query', required: false, about: 'a query parameter of the href' };
  });
  return [...path, ...query];
}

/** `'…'` for a POSIX shell. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function exampleCommand(description: Omit<OperationDescription, 'example'>, body: unknown): string {
  const { resource, operation } = description;
  const words = ['dpx', 'call', resource, operation.id];
  const single = operation.pathVariables.length === 1;
  for (const name of operation.pathVariables) words.push(single ? `<${name}>` : `--var ${name}=<${name}>`);
  if (description.hasBody) words.push('--body', body ? quoted(JSON.stringify(body)) : "'{…}'");
  if (operation.method !== 'GET' && operation.method !== 'HEAD') words.push('--allow-writes');
  return words.join(' ');
}

/** The description of one operation of the index; throws a UsageError naming what exists when it has no such operation. */
export function describeOperation(
  catalog: Catalog,
  target: { resource: string; version?: string; operationId: string },
  schema?: BodySchema,
): OperationDescription {
  const { resource, version, operation } = resolveOperation(catalog, target);
  const versions = resource.versions
    .filter((candidate) => candidate.operations.some((op) => op.id === operation.id))
    .map((candidate) => candidate.version);
  const described: Omit<OperationDescription, 'example'> = {
    resource: resource.name,
    version: version.version,
    versions,
    operation,
    variables: variableInfo(catalog, resource.name, version.version, operation),
    hasBody: carriesBody(operation.method),
    ...(schema
      ? {
          schema: {
            source: schema.source,
            fields: bodyFields(schema.schema).map((field) => withReference(catalog, field)),
            template: bodyTemplate(schema.schema),
            ...(typeof schema.schema['title'] === 'string' ? { title: schema.schema['title'] } : {}),
          },
        }
      : {}),
  };
  return { ...described, example: exampleCommand(described, schema ? exampleBody(schema.schema) : undefined) };
}
