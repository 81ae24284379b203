// The fields of a body schema as a person filling the body needs them: name, required or not, type,
// allowed values, limits in words, description, example. For the top of the body (what `--help` and the
// form list) and for any object inside it (what the body template names at each depth).
import { patternExample } from '../hal/pattern-example.js';
import { isObject } from '../json.js';

/** One property of an object of a body schema, as a person filling the body needs it. */
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

/** A field with the schema node it stands for (its `$ref` followed), for what lies inside it. */
export interface SchemaField {
  field: BodyField;
  node: Record<string, unknown>;
}

/** Follows local references only (`#/definitions/x`, `#/$defs/x`): a body schema is one self-contained file. */
export function resolveRef(
  root: Record<string, unknown>,
  node: unknown,
  depth = 0,
): Record<string, unknown> | undefined {
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

export function typeText(node: Record<string, unknown>): string {
  const type = node['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string') {
    if (type === 'array' && isObject(node['items']) && typeof node['items']['type'] === 'string')
      return `array of ${node['items']['type']}`;
    return typeof node['format'] === 'string' ? `${type} (${node['format']})` : type;
  }
  if (Array.isArray(node['enum'])) return 'one of the values';
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(node[key]))
      return node[key].map((option) => (isObject(option) ? typeText(option) : 'any')).join(' | ');
  }
  if (isObject(node['properties'])) return 'object';
  return 'any';
}

export function limitsOf(node: Record<string, unknown>): string[] {
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

/**
 * Every property of the object `node` of the schema `root` (through `$ref` and `allOf`): required ones
 * first, each group in the schema's order, each with the node it stands for.
 */
export function objectFields(root: Record<string, unknown>, node: unknown): SchemaField[] {
  const properties = new Map<string, Record<string, unknown>>();
  const required = new Set<string>();
  const visit = (part: unknown, depth: number): void => {
    const resolved = resolveRef(root, part);
    if (!resolved || depth > 8) return;
    if (Array.isArray(resolved['required']))
      for (const name of resolved['required']) if (typeof name === 'string') required.add(name);
    if (isObject(resolved['properties'])) {
      for (const [name, child] of Object.entries(resolved['properties'])) {
        const property = resolveRef(root, child);
        if (property && !properties.has(name)) properties.set(name, property);
      }
    }
    if (Array.isArray(resolved['allOf'])) for (const piece of resolved['allOf']) visit(piece, depth + 1);
  };
  visit(node, 0);
  const fields = [...properties].map(([name, child]): SchemaField => {
    const field: BodyField = { name, required: required.has(name), type: typeText(child), limits: limitsOf(child) };
    if (Array.isArray(child['enum'])) field.allowed = child['enum'];
    if (typeof child['description'] === 'string') field.description = child['description'];
    const examples = child['examples'];
    if (child['example'] !== undefined) field.example = child['example'];
    else if (Array.isArray(examples) && examples.length > 0) field.example = examples[0];
    else if (typeof child['pattern'] === 'string') {
      const shape = patternExample(child['pattern']);
      if (shape) field.example = shape.example;
    }
    if (child['default'] !== undefined) field.default = child['default'];
    return { field, node: child };
  });
  return [...fields.filter(({ field }) => field.required), ...fields.filter(({ field }) => !field.required)];
}

/** Every top-level property of a body schema: required ones first, each group in the schema's order. */
export function bodyFields(schema: Record<string, unknown>): BodyField[] {
  return objectFields(schema, schema).map(({ field }) => field);
}
