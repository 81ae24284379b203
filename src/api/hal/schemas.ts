// Responses checked against the JSON schemas in fixtures/schemas, and what ships of the records' and the
// bodies' schemas (a body's check is body-check.ts). The validators are precompiled into
// schema-validators.generated.ts (scripts/generate-schemas.mjs), so start-up compiles nothing. A
// mismatch is a warning naming its JSON pointer, never an exception.
import { patternMessage } from './pattern-example.js';
import {
  bodySchemasByFile,
  recordEnumsByFile,
  recordFieldsByFile,
  recordTimeFieldsByFile,
  validatorsByFile,
} from './schema-validators.generated.js';

export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

export type Validator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

const validators = validatorsByFile as Record<string, Validator>;
const bodySchemas = bodySchemasByFile as Record<string, object>;
const recordEnums = recordEnumsByFile as Record<string, Record<string, readonly unknown[]>>;
const recordFields = recordFieldsByFile as Record<string, string[]>;
const recordTimeFields = recordTimeFieldsByFile as Record<string, string[]>;
const MAX_WARNINGS = 20;

export function checkIndex(body: unknown): string[] {
  return check('index', body, 'index');
}

export function checkEnvelope(body: unknown): string[] {
  return check('list-envelope', body, 'list');
}

export function checkErrorEnvelope(body: unknown): string[] {
  return check('errors', body, 'error envelope');
}

/**
 * The values a field of a known record version may take, when its schema enumerates them; a nested field
 * by its dotted path (`initiated_by.type`). undefined when no schema is known or the field is open.
 */
export function fieldEnum(resource: string, version: string, field: string): readonly unknown[] | undefined {
  const fields = recordEnums[`records/${resource}.${version}`];
  return fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
}

/** The dotted paths of the scalar fields of a known resource version's records; undefined when no schema is known for it. */
export function knownRecordFields(resource: string, version: string): string[] | undefined {
  return recordFields[`records/${resource}.${version}`];
}

/** The date-time fields of a known resource version's records, required ones first; undefined when no schema is known for it. */
export function knownTimeFields(resource: string, version: string): string[] | undefined {
  return recordTimeFields[`records/${resource}.${version}`];
}

export function bodySchemaFor(resource: string, version: string, operationId: string): object | undefined {
  return bodySchemas[bodyFile(resource, version, operationId)];
}

/** Where the schema of an operation's body is kept: its file under fixtures/schemas. */
export function bodyFile(resource: string, version: string, operationId: string): string {
  return `bodies/${resource}.${version}.${operationId}`;
}

function check(file: string, data: unknown, where: string): string[] {
  const validator = validators[file];
  if (!validator || validator(data)) return [];
  return describeSchemaErrors(validator.errors ?? [], where);
}

/** Schema errors as warnings naming their JSON pointer: `<where> /a/b: must be string`. */
export function describeSchemaErrors(errors: SchemaError[], where: string): string[] {
  const warnings = errors.slice(0, MAX_WARNINGS).map((error) => {
    const pointer = error.instancePath || '/';
    return `${where} ${pointer}: ${schemaErrorMessage(error)}`;
  });
  if (errors.length > MAX_WARNINGS) warnings.push(`${where}: ${errors.length - MAX_WARNINGS} more schema mismatches`);
  return warnings;
}

/**
 * One error in words a person can act on: an enum names its allowed values, a pattern gives an example
 * instead of its regular expression, an unknown property is named.
 */
export function schemaErrorMessage(error: SchemaError): string {
  const params = error.params ?? {};
  if (error.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
    return `must be one of: ${params['allowedValues'].map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')}`;
  }
  if (error.keyword === 'const' && 'allowedValue' in params) return `must be ${JSON.stringify(params['allowedValue'])}`;
  if (error.keyword === 'pattern' && typeof params['pattern'] === 'string') return patternMessage(params['pattern']);
  if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    return `${error.message ?? 'must NOT have additional properties'} (${params['additionalProperty']})`;
  }
  return error.message ?? error.keyword;
}
