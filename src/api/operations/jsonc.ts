// A body as a person edits it: JSON with comments (JSONC, as VS Code's settings and `kubectl edit` take
// it) and trailing commas, so that the template can name every field of the schema as a commented-out
// line. Microsoft's jsonc-parser reads it; what is sent is plain JSON, without a comment. Top-level fields
// are set and taken out in the text itself, so the comments and the other lines stay as they were: a field
// taken out is commented out (its line kept, to put back), one set that has a commented-out line is
// uncommented there.
import {
  applyEdits,
  createScanner,
  findNodeAtOffset,
  modify,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { isObject } from '../json.js';
import type { JsonTextResult } from './json-text.js';

// jsonc-parser's SyntaxKind, a const enum that isolated modules cannot read.
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const TRIVIA = 15;
const EOF = 17;

const OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };
const FORMATTING = { formattingOptions: { tabSize: 2, insertSpaces: true, eol: '\n' } };

/** What each error of jsonc-parser means, in words. */
const ERROR_WORDS: Record<string, string> = {
  InvalidSymbol: 'a character that starts no JSON value (a property name needs double quotes)',
  InvalidNumberFormat: 'a number in a form JSON does not take',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," between two values',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'expected the end of the body (text after the closing bracket)',
  InvalidCommentToken: 'a comment that does not end (/* needs */)',
  UnexpectedEndOfComment: 'a comment that does not end (/* needs */)',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'a number cut short',
  InvalidUnicode: 'bad \\u escape, expected four hex digits',
  InvalidEscapeCharacter: 'bad escape',
  InvalidCharacter: 'control character inside a string (write \\n, \\t)',
};

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** The value of a node of the tree; an own property for every key, `__proto__` included. */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value)
          Object.defineProperty(object, String(key.value), {
            value: nodeValue(value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return object;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function parsed(text: string): { tree?: Node; errors: ParseError[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, OPTIONS);
  return { ...(tree ? { tree } : {}), errors };
}

/**
 * A body as typed: plain JSON, or JSON with comments and trailing commas. When it is neither, where it
 * stops being JSON, with line and column.
 */
export function parseBodyText(text: string): JsonTextResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Comments or trailing commas, or not JSON at all: the JSONC parser says which.
  }
  const { tree, errors } = parsed(text);
  const first = errors[0];
  if (tree && !first) return { ok: true, value: nodeValue(tree) };
  const offset = first?.offset ?? text.length;
  const { line, column } = lineAndColumn(text, offset);
  const code = first ? printParseErrorCode(first.error) : 'ValueExpected';
  const at = offset < text.length && code === 'InvalidSymbol' ? `unexpected ${JSON.stringify(text[offset])}: ` : '';
  return {
    ok: false,
    message: `line ${line}, column ${column}: ${at}${ERROR_WORDS[code] ?? 'not JSON'}`,
    line,
    column,
    offset,
  };
}

/**
 * The JSON that goes for a body as typed: the text itself when it is plain JSON, else its value without
 * the comments, indented. undefined when it is not JSON even with comments.
 */
export function sendableBody(text: string): string | undefined {
  try {
    JSON.parse(text);
    return text;
  } catch {
    const result = parseBodyText(text);
    return result.ok ? JSON.stringify(result.value, null, 2) : undefined;
  }
}

/** Whether anything of the body is sent: false for a body that is empty or only comments. */
export function isBlankBody(text: string): boolean {
  const scanner = createScanner(text, true);
  return scanner.scan() === EOF;
}

const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;
const lineEnd = (text: string, offset: number): number => {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end;
};

/** The top-level object of the body and its property `name`, when the body is a JSON object without error. */
function topLevel(text: string, name: string): { tree: Node; property?: Node } | undefined {
  const { tree, errors } = parsed(text);
  if (!tree || errors.length > 0 || tree.type !== 'object') return undefined;
  const property = (tree.children ?? []).find((child) => child.children?.[0]?.value === name);
  return { tree, ...(property ? { property } : {}) };
}

/**
 * Uncomments the commented-out lines that name `name` at the top of the object (`  // "name": …`, and the
 * lines under it when its value spans several), when doing so gives a body that has the field.
 */
function uncommented(text: string, name: string, tree: Node): string | undefined {
  const lines = text.split('\n');
  const key = JSON.stringify(name);
  let offset = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const match = /^(\s*)\/\/ /.exec(line);
    const at = offset;
    offset += line.length + 1;
    if (
      !match ||
      !line.slice(match[0].length).startsWith(`${key}`) ||
      !/^\s*:/.test(line.slice(match[0].length + key.length))
    )
      continue;
    // A line inside a nested object is not the top level's.
    if (findNodeAtOffset(tree, at + match[1]!.length) !== tree) continue;
    const prefix = `${match[1]}// `;
    for (let last = index; last < lines.length && lines[last]!.startsWith(prefix); last++) {
      const candidate = [
        ...lines.slice(0, index),
        ...lines.slice(index, last + 1).map((l) => match[1] + l.slice(prefix.length)),
        ...lines.slice(last + 1),
      ].join('\n');
      if (topLevel(candidate, name)?.property) return candidate;
    }
  }
  return undefined;
}

/** A new line for the field, before the object's closing brace, when the object is laid out a line per field. */
function withNewLine(text: string, tree: Node, name: string, value: unknown): string | undefined {
  const close = tree.offset + tree.length - 1;
  const closeLine = lineStart(text, close);
  if (text.slice(closeLine, close).trim() !== '') return undefined;
  const children = tree.children ?? [];
  const first = children[0];
  const indent = first ? text.slice(lineStart(text, first.offset), first.offset) : `${text.slice(closeLine, close)}  `;
  if (indent.trim() !== '') return undefined;
  const entry = `${indent}${JSON.stringify(name)}: ${JSON.stringify(value, null, 2).replaceAll('\n', `\n${indent}`)},\n`;
  let result = `${text.slice(0, closeLine)}${entry}${text.slice(closeLine)}`;
  const last = children[children.length - 1];
  if (last) {
    // The field before it needs its comma, unless it has one (JSONC allows one after the last field too).
    const scanner = createScanner(text, true);
    scanner.setPosition(last.offset + last.length);
    if (scanner.scan() !== COMMA) {
      const end = last.offset + last.length;
      result = `${result.slice(0, end)},${result.slice(end)}`;
    }
  }
  return topLevel(result, name)?.property ? result : undefined;
}

/**
 * The body with the top-level field `name` set to `value`, comments and other lines kept; undefined when
 * the body is not a JSON object to set it in.
 */
export function setBodyField(text: string, name: string, value: unknown): string | undefined {
  let source = text.trim() === '' ? '{\n}' : text;
  let found = topLevel(source, name);
  if (!found) return undefined;
  if (!found.property) {
    const opened = uncommented(source, name, found.tree);
    if (opened !== undefined) {
      source = opened;
      found = topLevel(source, name)!;
    } else {
      const added = withNewLine(source, found.tree, name, value);
      if (added !== undefined) return added;
    }
  }
  return applyEdits(source, modify(source, [name], value, FORMATTING));
}

/**
 * The body without the top-level field `name`: its lines commented out where it has lines of its own, so
 * that it can be put back as it was; else taken out of the text. undefined when the body is not a JSON
 * object; the text as it is when the field is absent.
 */
export function removeBodyField(text: string, name: string): string | undefined {
  if (text.trim() === '') return text;
  const found = topLevel(text, name);
  if (!found) return undefined;
  const { property } = found;
  if (!property) return text;
  const start = lineStart(text, property.offset);
  const indent = text.slice(start, property.offset);
  const end = lineEnd(text, property.offset + property.length);
  // What follows the field on its last line: at most a comma and a comment.
  const scanner = createScanner(text.slice(property.offset + property.length, end), false);
  let commas = 0;
  let tail = scanner.scan();
  for (; tail !== EOF; tail = scanner.scan()) {
    if (tail === COMMA && commas++ === 0) continue;
    if (tail !== TRIVIA && tail !== LINE_COMMENT && tail !== BLOCK_COMMENT) break;
  }
  if (indent.trim() === '' && tail === EOF) {
    const lines = text
      .slice(start, end)
      .split('\n')
      .map((line) => (line.startsWith(indent) ? `${indent}// ${line.slice(indent.length)}` : `// ${line}`));
    const commented = `${text.slice(0, start)}${lines.join('\n')}${text.slice(end)}`;
    const check = topLevel(commented, name);
    if (check && !check.property) return commented;
  }
  return applyEdits(text, modify(text, [name], undefined, FORMATTING));
}

/** The top-level field `name` of the body: present with its value, or absent; undefined when the body is not a JSON object. */
export function bodyFieldIn(text: string, name: string): { value?: unknown; present: boolean } | undefined {
  const result = parseBodyText(text.trim() === '' ? '{}' : text);
  if (!result.ok || !isObject(result.value)) return undefined;
  return Object.hasOwn(result.value, name) ? { value: result.value[name], present: true } : { present: false };
}
