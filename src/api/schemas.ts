// Responses and bodies checked against the JSON schemas in fixtures/schemas. The validators are
// precompiled into schema-validators.generated.ts (scripts/generate-schemas.mjs), so start-up compiles
// nothing. A mismatch is a warning naming its JSON pointer, never an exception.
import { bodySchemasByFile, validatorsByFile } from './schema-validators.generated.js';

interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

type Validator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

const validators = validatorsByFile as Record<string, Validator>;
const bodySchemas = bodySchemasByFile as Record<string, object>;
const MAX_WARNINGS = 20;

const precompiledBySchema = new WeakMap<object, Validator>();
for (const [file, schema] of Object.entries(bodySchemas)) {
  const validator = validators[file];
  if (validator) precompiledBySchema.set(schema, validator);
}
const compiledAtRunTime = new WeakMap<object, Validator>();

export function checkIndex(body: unknown): string[] {
  return check('index', body, 'index');
}

export function checkEnvelope(body: unknown): string[] {
  return check('list-envelope', body, 'list');
}

export function checkErrorEnvelope(body: unknown): string[] {
  return check('errors', body, 'error envelope');
}

/** Warnings for a record of a known resource version; [] when no schema is known for it. */
export function checkRecord(resource: string, version: string, record: unknown): string[] {
  return check(`records/${resource}.${version}`, record, `${resource} ${version}`);
}

export function bodySchemaFor(resource: string, version: string, operationId: string): object | undefined {
  return bodySchemas[`bodies/${resource}.${version}.${operationId}`];
}

/** Checks a request body against a schema: a precompiled one when it came from bodySchemaFor, else compiled once. */
export function checkBody(schema: object, body: unknown): string[] {
  const validator = precompiledBySchema.get(schema) ?? compiledAtRunTime.get(schema) ?? compile(schema);
  return validator(body) ? [] : describe(validator.errors ?? [], 'body');
}

function check(file: string, data: unknown, where: string): string[] {
  const validator = validators[file];
  if (!validator || validator(data)) return [];
  return describe(validator.errors ?? [], where);
}

function describe(errors: SchemaError[], where: string): string[] {
  const warnings = errors.slice(0, MAX_WARNINGS).map((error) => {
    const pointer = error.instancePath || '/';
    const extra = error.keyword === 'additionalProperties' && typeof error.params?.['additionalProperty'] === 'string'
      ? ` (${error.params['additionalProperty']})`
      : '';
    return `${where} ${pointer}: ${error.message ?? error.keyword}${extra}`;
  });
  if (errors.length > MAX_WARNINGS) warnings.push(`${where}: ${errors.length - MAX_WARNINGS} more schema mismatches`);
  return warnings;
}

// Only schemas from outside fixtures/schemas (a profile's schema folder) reach here; ajv is loaded then.
function compile(schema: object): Validator {
  const { default: Ajv } = require('ajv') as typeof import('ajv');
  const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validator = ajv.compile(schema) as Validator;
  compiledAtRunTime.set(schema, validator);
  return validator;
}
