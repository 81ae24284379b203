// A request body as a person writes it: checked as JSON, validated against the operation's schema when
// one is known, and started from a template of the schema's required properties when empty.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { bodyCheckFor, bodySchemaFor } from '../hal/schemas.js';
import { parseJsonText } from './json-text.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whether requests of this method carry a body. */
export function carriesBody(method: string): boolean {
  return BODY_METHODS.has(method.toUpperCase());
}

/** One thing wrong with a body: where (a JSON pointer, '' for the whole body) and what. */
export interface BodyProblem {
  pointer: string;
  message: string;
  /** Set for JSON syntax errors. */
  line?: number;
  column?: number;
}

export interface BodySchema {
  schema: Record<string, unknown>;
  /** Where the schema came from: a file path, or 'built-in'. */
  source: string;
  /** Schema violations of a parsed body, each as `body <pointer>: <message>`. */
  check(body: unknown): string[];
}

/**
 * The body schema for an operation: `<schemaDir>/<resource>.<version>.<operation_id>.json` when a schema
 * folder is configured and holds that file, else the schema dpx ships for it, else undefined.
 */
export async function loadBodySchema(
  target: { resource: string; version: string; operationId: string },
  schemaDir?: string,
): Promise<BodySchema | undefined> {
  if (schemaDir) {
    const path = join(schemaDir, `${target.resource}.${target.version}.${target.operationId}.json`);
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new UsageError(`cannot read the schema ${path}: ${(error as Error).message}`, 'check the schema folder named in the profile');
      }
    }
    if (text !== undefined) {
      const parsed = parseJsonText(text);
      if (!parsed.ok || !isObject(parsed.value)) {
        throw new UsageError(`the schema ${path} is not a JSON object${parsed.ok ? '' : `: ${parsed.message}`}`, 'fix the file or remove it');
      }
      const { compileBodyCheck } = await import('../hal/schema-compiler.js');
      let check: BodySchema['check'];
      try {
        check = compileBodyCheck(parsed.value);
      } catch (error) {
        throw new UsageError(`the schema ${path} cannot be used: ${(error as Error).message}`, 'fix the file or remove it');
      }
      return { schema: parsed.value, source: path, check };
    }
  }
  const builtIn = bodySchemaFor(target.resource, target.version, target.operationId);
  const check = bodyCheckFor(target.resource, target.version, target.operationId);
  return builtIn && isObject(builtIn) && check ? { schema: builtIn, source: 'built-in', check } : undefined;
}

/** Everything wrong with `text` as a body: a JSON syntax error with line and column, or schema violations. */
export function checkBodyText(text: string, schema?: BodySchema): BodyProblem[] {
  if (text.trim() === '') return [];
  const parsed = parseJsonText(text);
  if (!parsed.ok) return [{ pointer: '', message: `not JSON: ${parsed.message}`, line: parsed.line, column: parsed.column }];
  return schema ? validateBody(schema, parsed.value) : [];
}

/** Schema violations, each split into its JSON pointer and message (the schema module words them). */
export function validateBody(schema: BodySchema, value: unknown): BodyProblem[] {
  return schema.check(value).map((warning) => {
    const match = /^body (\S*): (.*)$/s.exec(warning);
    return match ? { pointer: match[1] === '/' ? '' : match[1]!, message: match[2]! } : { pointer: '', message: warning.replace(/^body:? ?/, '') };
  });
}

/** `/a/b: message`, or `body: message` for the whole body. */
export function formatBodyProblem(problem: BodyProblem): string {
  return `${problem.pointer === '' ? 'body' : problem.pointer}: ${problem.message}`;
}

/**
 * A starting body from a schema: its required properties, each with the schema's example, default,
 * const or first enum value, else a placeholder of the right type. Optional properties are left for
 * the user to add, so the template is never more than the minimum the server asks for. `fill` sets
 * properties to known values (those a record supplies), required or not.
 */
export function bodyTemplate(schema: Record<string, unknown>, fill: Record<string, string> = {}): string {
  const sample = sampleValue(schema, schema, 0);
  return JSON.stringify(isObject(sample) && Object.keys(fill).length > 0 ? { ...sample, ...fill } : sample, null, 2);
}

/** The top-level property names a body schema declares, through a root `$ref` and `allOf`. */
export function bodyPropertyNames(schema: Record<string, unknown>): string[] {
  const names = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (!isObject(node) || depth > 8) return;
    const resolved = typeof node['$ref'] === 'string' ? resolveRef(schema, node['$ref']) : node;
    if (!resolved) return;
    if (isObject(resolved['properties'])) for (const name of Object.keys(resolved['properties'])) names.add(name);
    if (Array.isArray(resolved['allOf'])) for (const part of resolved['allOf']) visit(part, depth + 1);
  };
  visit(schema, 0);
  return [...names];
}

function sampleValue(schema: unknown, root: Record<string, unknown>, depth: number): unknown {
  if (!isObject(schema) || depth > 8) return null;
  const resolved = typeof schema['$ref'] === 'string' ? resolveRef(root, schema['$ref']) : schema;
  if (!resolved) return null;
  for (const key of ['example', 'default', 'const'] as const) if (resolved[key] !== undefined) return resolved[key];
  if (Array.isArray(resolved['examples']) && resolved['examples'].length > 0) return resolved['examples'][0];
  if (Array.isArray(resolved['enum']) && resolved['enum'].length > 0) return resolved['enum'][0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = resolved[key];
    if (Array.isArray(options) && options.length > 0) return sampleValue(options[0], root, depth + 1);
  }
  if (Array.isArray(resolved['allOf'])) {
    const merged: Record<string, unknown> = {};
    for (const part of resolved['allOf']) {
      const sample = sampleValue(part, root, depth + 1);
      if (isObject(sample)) Object.assign(merged, sample);
    }
    return merged;
  }
  const type = Array.isArray(resolved['type']) ? resolved['type'].find((t) => t !== 'null') : resolved['type'];
  const properties = isObject(resolved['properties']) ? resolved['properties'] : undefined;
  if (type === 'object' || (type === undefined && properties)) {
    const required = Array.isArray(resolved['required']) ? resolved['required'].filter((name): name is string => typeof name === 'string') : [];
    return Object.fromEntries(required.map((name) => [name, sampleValue(properties?.[name], root, depth + 1)]));
  }
  if (type === 'array') {
    const minItems = typeof resolved['minItems'] === 'number' ? resolved['minItems'] : 0;
    return Array.from({ length: Math.min(minItems, 3) }, () => sampleValue(resolved['items'], root, depth + 1));
  }
  if (type === 'integer' || type === 'number') return typeof resolved['minimum'] === 'number' ? resolved['minimum'] : 0;
  if (type === 'boolean') return false;
  if (type === 'string') return sampleString(resolved);
  return null;
}

function sampleString(schema: Record<string, unknown>): string {
  switch (schema['format']) {
    case 'uuid':
      return '00000000-0000-0000-0000-000000000000';
    case 'date-time':
      return '2000-01-01T00:00:00Z';
    case 'date':
      return '2000-01-01';
    case 'email':
      return 'someone@example.com';
    case 'uri':
      return 'https://example.com/';
    default: {
      const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
      return 'x'.repeat(minLength);
    }
  }
}

/** Local references only (`#/definitions/x`, `#/$defs/x`): a body schema is one self-contained file. */
function resolveRef(root: Record<string, unknown>, ref: string): Record<string, unknown> | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(1).split('/').filter(Boolean)) {
    if (!isObject(node)) return undefined;
    node = node[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return isObject(node) ? node : undefined;
}
