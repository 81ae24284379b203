// A request body as a person writes it: JSON, or JSON with comments (what the template of template.ts
// offers, every field of the schema named), checked and validated against the operation's schema when
// one is known.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { bodyCheckFor } from '../hal/body-check.js';
import { bodySchemaFor } from '../hal/schemas.js';
import { parseJsonText } from './json-text.js';
import { isBlankBody, parseBodyText } from './jsonc.js';
import { resolveRef } from './schema-fields.js';

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
        throw new UsageError(
          `cannot read the schema ${path}: ${(error as Error).message}`,
          'check the schema folder named in the profile',
        );
      }
    }
    if (text !== undefined) {
      const parsed = parseJsonText(text);
      if (!parsed.ok || !isObject(parsed.value)) {
        throw new UsageError(
          `the schema ${path} is not a JSON object${parsed.ok ? '' : `: ${parsed.message}`}`,
          'fix the file or remove it',
        );
      }
      const { compileBodyCheck } = await import('../hal/schema-compiler.js');
      let check: BodySchema['check'];
      try {
        check = compileBodyCheck(parsed.value);
      } catch (error) {
        throw new UsageError(
          `the schema ${path} cannot be used: ${(error as Error).message}`,
          'fix the file or remove it',
        );
      }
      return { schema: parsed.value, source: path, check };
    }
  }
  const builtIn = bodySchemaFor(target.resource, target.version, target.operationId);
  const check = bodyCheckFor(target.resource, target.version, target.operationId);
  return builtIn && isObject(builtIn) && check ? { schema: builtIn, source: 'built-in', check } : undefined;
}

/**
 * Everything wrong with `text` as a body (JSON, comments allowed): a syntax error with line and column,
 * or schema violations of what would be sent.
 */
export function checkBodyText(text: string, schema?: BodySchema): BodyProblem[] {
  if (isBlankBody(text)) return [];
  const parsed = parseBodyText(text);
  if (!parsed.ok)
    return [{ pointer: '', message: `not JSON: ${parsed.message}`, line: parsed.line, column: parsed.column }];
  return schema ? validateBody(schema, parsed.value) : [];
}

/** Schema violations, each split into its JSON pointer and message (the schema module words them). */
export function validateBody(schema: BodySchema, value: unknown): BodyProblem[] {
  return schema.check(value).map((warning) => {
    const match = /^body (\S*): (.*)$/s.exec(warning);
    return match
      ? { pointer: match[1] === '/' ? '' : match[1]!, message: match[2]! }
      : { pointer: '', message: warning.replace(/^body:? ?/, '') };
  });
}

/** `/a/b: message`, or `body: message` for the whole body. */
export function formatBodyProblem(problem: BodyProblem): string {
  return `${problem.pointer === '' ? 'body' : problem.pointer}: ${problem.message}`;
}

/** The top-level property names a body schema declares, through a root `$ref` and `allOf`. */
export function bodyPropertyNames(schema: Record<string, unknown>): string[] {
  const names = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (!isObject(node) || depth > 8) return;
    const resolved = resolveRef(schema, node);
    if (!resolved) return;
    if (isObject(resolved['properties'])) for (const name of Object.keys(resolved['properties'])) names.add(name);
    if (Array.isArray(resolved['allOf'])) for (const part of resolved['allOf']) visit(part, depth + 1);
  };
  visit(schema, 0);
  return [...names];
}
