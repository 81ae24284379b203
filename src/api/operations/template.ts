// The body offered for editing, in the CLI (`dpx call R OP --edit`, `--help`) and in the explorer's form
// alike: JSON with comments that names every field of the schema, so that no one has to guess a name.
// Required fields are there with the schema's example (else a placeholder of their type); each optional
// field is a commented-out line with its example and a comment of its type, allowed values and
// description, to uncomment when wanted. The fields of nested objects are named the same way at their
// depth. What is left commented out is not sent, so an untouched template sends the required fields only,
// and a field the user did not fill in never changes what the request means.
//
//   // Lines starting with // are not sent: remove the // of a field to send it.
//   {
//     "backup_id": "",  // required · string, a UUID — The backup to restore from
//     // "restore_type": "full",  // string · one of full | file_level | … · default "full" — What to restore…
//   }
import { isObject } from '../json.js';
import { parseBodyText } from './jsonc.js';
import { objectFields, resolveRef, type BodyField } from './schema-fields.js';

export interface TemplateOptions {
  /**
   * Top-level fields the body starts with, present whether the schema requires them or not: a record's
   * current values (a PUT or PATCH of it), its id in a `<x>_id` field.
   */
  values?: Record<string, unknown>;
  /** Optional top-level fields shown with their example rather than commented out. */
  include?: readonly string[];
  /** What stands for a value the user must give (an id, a string the schema has no example of); '' by default. */
  placeholder?: (name: string) => unknown;
}

/** Said first when some field is commented out. */
export const TEMPLATE_HINT = '// Lines starting with // are not sent: remove the // of a field to send it.';

const MAX_DEPTH = 6;
const STEP = '  ';

/** Text from a schema (which a profile's folder may hold) as one inert line of a comment. */
function commentText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `required · string, 1–300 characters · one of a | b · default "a" — what it is`. */
export function fieldComment(field: BodyField): string {
  const facts = [
    field.required ? 'required' : undefined,
    [field.allowed && field.type === 'one of the values' ? undefined : field.type, ...field.limits]
      .filter(Boolean)
      .join(', ') || undefined,
    field.allowed ? `one of ${field.allowed.map(shown).join(' | ')}` : undefined,
    field.default === undefined ? undefined : `default ${JSON.stringify(field.default)}`,
  ].filter((fact): fact is string => fact !== undefined && fact !== '');
  return commentText(`${facts.join(' · ')}${field.description ? ` — ${field.description}` : ''}`);
}

/** A JSON value as lines, the first to follow a property name, the others at `indent`. */
function jsonLines(value: unknown, indent: string): string[] {
  return (JSON.stringify(value, null, 2) ?? 'null')
    .split('\n')
    .map((line, index) => (index === 0 ? line : `${indent}${line}`));
}

function isObjectNode(node: Record<string, unknown>): boolean {
  return node['type'] === 'object' || isObject(node['properties']) || Array.isArray(node['allOf']);
}

class Builder {
  constructor(
    private readonly root: Record<string, unknown>,
    private readonly placeholder: (name: string) => unknown,
  ) {}

  /** The lines of a value of `node`, the first to follow `"name": `, the rest at `indent`. */
  value(node: Record<string, unknown>, name: string, indent: string, depth: number): string[] {
    const resolved = resolveRef(this.root, node) ?? {};
    const examples = resolved['examples'];
    // An id is the user's to find: a made-up one would only be refused.
    const idLike = /_id$/i.test(name) && (resolved['type'] === 'string' || resolved['type'] === undefined);
    if (resolved['example'] !== undefined) return jsonLines(resolved['example'], indent);
    if (Array.isArray(examples) && examples.length > 0) return jsonLines(examples[0], indent);
    if (idLike) return jsonLines(this.placeholder(name), indent);
    for (const key of ['default', 'const'] as const)
      if (resolved[key] !== undefined) return jsonLines(resolved[key], indent);
    if (Array.isArray(resolved['enum']) && resolved['enum'].length > 0) return jsonLines(resolved['enum'][0], indent);
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = resolved[key];
      const first = Array.isArray(options) ? resolveRef(this.root, options[0]) : undefined;
      if (first) return this.value(first, name, indent, depth + 1);
    }
    const type = Array.isArray(resolved['type']) ? resolved['type'].find((t) => t !== 'null') : resolved['type'];
    if (type === 'object' || (type === undefined && isObjectNode(resolved))) {
      if (depth >= MAX_DEPTH) return ['{}'];
      const inner = this.fields(resolved, `${indent}${STEP}`, depth + 1);
      return inner.length === 0 ? ['{}'] : ['{', ...inner, `${indent}}`];
    }
    if (type === 'array') {
      const items = resolveRef(this.root, resolved['items']);
      const min = Math.min(typeof resolved['minItems'] === 'number' ? resolved['minItems'] : 0, 3);
      if (!items || depth >= MAX_DEPTH) return ['[]'];
      const inner = `${indent}${STEP}`;
      const element = this.value(items, name.replace(/s$/, ''), inner, depth + 1);
      if (element.length === 1 && min === 0 && !isObjectNode(items)) return ['[]'];
      const one = [`${inner}${element[0]}`, ...element.slice(1)];
      one[one.length - 1] += ',';
      // At its least: none when the schema asks for none, the element then shown commented out.
      const body = min === 0 ? commentOut(one, inner) : Array.from({ length: min }, () => one).flat();
      return ['[', ...body, `${indent}]`];
    }
    if (type === 'integer' || type === 'number') {
      return [
        String(
          typeof resolved['minimum'] === 'number'
            ? resolved['minimum']
            : typeof resolved['exclusiveMinimum'] === 'number'
              ? resolved['exclusiveMinimum'] + 1
              : 0,
        ),
      ];
    }
    if (type === 'boolean') return ['false'];
    if (type === 'null') return ['null'];
    if (type === 'string') {
      const byFormat = FORMAT_SAMPLES[String(resolved['format'])];
      return jsonLines(byFormat ?? this.placeholder(name), indent);
    }
    return jsonLines(this.placeholder(name), indent);
  }

  /**
   * The lines of the fields of object `node` at `indent`: each required field (and each of `values`) set,
   * each optional one commented out.
   */
  fields(
    node: Record<string, unknown>,
    indent: string,
    depth: number,
    values: Record<string, unknown> = {},
    include: readonly string[] = [],
  ): string[] {
    const lines: string[] = [];
    const named = new Set<string>();
    for (const { field, node: child } of objectFields(this.root, node)) {
      named.add(field.name);
      const given = Object.hasOwn(values, field.name);
      const value = given ? jsonLines(values[field.name], indent) : this.value(child, field.name, indent, depth);
      const entry = property(field.name, value, indent, fieldComment(field));
      lines.push(...(given || field.required || include.includes(field.name) ? entry : commentOut(entry, indent)));
    }
    // A value the schema does not name (a record's field kept by the caller) still goes as it is.
    for (const [name, value] of Object.entries(values))
      if (!named.has(name)) lines.push(...property(name, jsonLines(value, indent), indent, ''));
    return lines;
  }
}

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: '00000000-0000-0000-0000-000000000000',
  'date-time': '2000-01-01T00:00:00Z',
  date: '2000-01-01',
  email: 'someone@example.com',
  uri: 'https://example.com/',
};

/** `"name": value,  // comment`, a value of several lines closing on its own line. */
function property(name: string, value: string[], indent: string, comment: string): string[] {
  const lines = [`${indent}${JSON.stringify(name)}: ${value[0]}`, ...value.slice(1)];
  lines[lines.length - 1] += ',';
  if (comment !== '') lines[0] += `  // ${comment}`;
  return lines;
}

/** The lines as comments: `// ` after their indentation, so that removing it gives them back. */
function commentOut(lines: string[], indent: string): string[] {
  return lines.map((line) => (line.startsWith(indent) ? `${indent}// ${line.slice(indent.length)}` : `// ${line}`));
}

/**
 * The body to start from, for a body schema: JSON with comments naming every field (see the top of this
 * file). `values` start present; everything else optional is commented out.
 */
export function bodyTemplate(schema: Record<string, unknown>, options: TemplateOptions = {}): string {
  const builder = new Builder(schema, options.placeholder ?? (() => ''));
  const root = resolveRef(schema, schema) ?? schema;
  // A body that is not an object (an array, a string): its value, with nothing to name at the top.
  if (!isObjectNode(root)) return builder.value(root, 'body', '', 0).join('\n');
  const inner = builder.fields(root, STEP, 1, options.values ?? {}, options.include ?? []);
  if (inner.length === 0)
    return Object.keys(options.values ?? {}).length === 0 ? '{}' : JSON.stringify(options.values, null, 2);
  const commented = inner.some((line) => /^\s*\/\/ /.test(line));
  return [...(commented ? [TEMPLATE_HINT] : []), '{', ...inner, '}'].join('\n');
}

/**
 * The body of an example command: what an untouched template sends, with `<name>` where the user must
 * give a value; a body with no required field shows its first field.
 */
export function exampleBody(schema: Record<string, unknown>): unknown {
  const fields = objectFields(schema, schema);
  const include = fields.some(({ field }) => field.required) ? [] : fields.slice(0, 1).map(({ field }) => field.name);
  const parsed = parseBodyText(bodyTemplate(schema, { include, placeholder: (name) => `<${name}>` }));
  return parsed.ok ? parsed.value : {};
}
