// RFC 6570 URI templates from the server, read strictly: a malformed one is refused with the reason and
// the link it came in, never expanded into a URL the server did not mean. @std-uritemplate/std-uritemplate
// parses and expands: of the registry's libraries it is the one that gets the whole uritemplate-test
// suite right, its 36 malformed templates refused included (test/unit/api/template-suite.test.ts). It
// passes literals through unchecked, so this module refuses what RFC 6570's `literals` rule has no place
// for (controls, space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `|`, a `%` that starts no percent-encoded octet), a
// `{` inside an expression (the library would start the expression again there), lone surrogates, and
// the variable names its check lets through (`{@id}`, `{a(b)}`); and a prefix of a list, which it cuts.
import { StdUriTemplate } from '@std-uritemplate/std-uritemplate';
import { ProtocolError, UsageError } from '../errors.js';

const QUERY_OPERATORS = new Set(['?', '&']);
const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&']);
const BAD_LITERAL = /[\u0000-\u0020\u007F-\u009F"<>\\^`|]/;
const PERCENT_ENCODED = /^%[0-9A-Fa-f]{2}/;
// Half of a UTF-16 surrogate pair: valid in a JS (and JSON) string, but not text a URI can encode.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const HINT =
  "the server sent a link that no URL can be built from, and dpx does not guess one; report it to the control plane's owners";

// RFC 6570 §2.3 and §2.4: varname *( "." varname ), each varchar ALPHA / DIGIT / "_" / pct-encoded; then
// a prefix (":" 1–4 digits, not starting with 0) or explode ("*") modifier.
const VARCHARS = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+';
const VARSPEC = new RegExp(`^(${VARCHARS}(?:\\.${VARCHARS})*)(?::([1-9][0-9]{0,3})|(\\*))?$`);

interface VarSpec {
  name: string;
  prefix?: number;
  explode: boolean;
}

interface Expression {
  operator: string;
  /** Undefined where a spec is not a variable RFC 6570 allows. */
  variables: (VarSpec | undefined)[];
  /** Where its `{` stands, from 0, and how long it is, braces included. */
  at: number;
  length: number;
}

/** How many templates `remembered` keeps: an index has tens; a server's page links may each be one. */
const REMEMBERED = 1000;

/**
 * `read` of a template, read once per text: an operation's href is checked and parsed on every request
 * sent through it (2,000 and more for a count matrix), and its text does not change.
 */
function remembered<T>(read: (href: string) => T): (href: string) => T {
  const known = new Map<string, T>();
  return (href) => {
    if (known.has(href)) return known.get(href)!;
    if (known.size >= REMEMBERED) known.clear();
    const value = read(href);
    known.set(href, value);
    return value;
  };
}

/** Why `href` is not a URI template (one short phrase), or undefined when it is one. */
export const templateProblem = remembered(problemOf);

function problemOf(href: string): string | undefined {
  if (LONE_SURROGATE.test(href)) return 'it is not valid Unicode (it holds a lone surrogate)';
  let open = -1;
  for (let at = 0; at < href.length; at += 1) {
    const char = href[at]!;
    if (char === '{') {
      if (open !== -1)
        return `a "{" at character ${at + 1} opens an expression inside the one opened at character ${open + 1}`;
      open = at;
    } else if (char === '}') {
      if (open === -1) return `a "}" at character ${at + 1} closes no expression`;
      open = -1;
    } else if (open === -1 && (char === '%' ? !PERCENT_ENCODED.test(href.slice(at, at + 3)) : BAD_LITERAL.test(char))) {
      return `${charName(char)} at character ${at + 1} cannot stand in a template unless percent-encoded`;
    }
  }
  if (open !== -1) return `the expression opened at character ${open + 1} is never closed`;
  try {
    // With no values every expression is still read, and a malformed one refused.
    StdUriTemplate.expand(href, Object.create(null));
  } catch (error) {
    return libraryReason(error);
  }
  for (const expression of expressions(href)) {
    if (expression.variables.includes(undefined))
      return `the expression at character ${expression.at + 1} names a variable RFC 6570 does not allow`;
  }
  return undefined;
}

function charName(char: string): string {
  return /^[\u0021-\u007E]$/.test(char)
    ? JSON.stringify(char)
    : `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The library's error as a phrase, its 0-based `col` as a 1-based character. */
function libraryReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const phrase = message.replace(/ at col: (\d+)$/, (_, col: string) => ` at character ${Number(col) + 1}`);
  return phrase.charAt(0).toLowerCase() + phrase.slice(1);
}

function malformed(href: string, problem: string, where: string | undefined): ProtocolError {
  return new ProtocolError(
    `${where ?? 'a link of the server'} is not a valid URI template: ${problem}: ${JSON.stringify(href)}`,
    HINT,
  );
}

/** The expressions of a template whose braces pair up, in order (shared: never changed by a reader). */
const expressions = remembered(expressionsOf);

function expressionsOf(href: string): readonly Expression[] {
  const found: Expression[] = [];
  for (const match of href.matchAll(/\{([^{}]*)\}/g)) {
    const body = match[1] ?? '';
    const operator = OPERATORS.has(body.charAt(0)) ? body.charAt(0) : '';
    const variables = body
      .slice(operator.length)
      .split(',')
      .map((spec): VarSpec | undefined => {
        const parts = VARSPEC.exec(spec);
        if (!parts) return undefined;
        return {
          name: parts[1]!,
          explode: parts[3] !== undefined,
          ...(parts[2] === undefined ? {} : { prefix: Number(parts[2]) }),
        };
      });
    found.push({ operator, variables, at: match.index, length: match[0].length });
  }
  return found;
}

/** A part of a template: literal text as written, or an expression (its operator, '' for none, and variable names). */
export type TemplatePart = { literal: string } | { operator: string; names: string[] };

/** A well-formed template as its parts, in order; undefined when it is malformed. */
export function templateParts(href: string): TemplatePart[] | undefined {
  if (templateProblem(href) !== undefined) return undefined;
  const parts: TemplatePart[] = [];
  let from = 0;
  for (const { operator, variables, at, length } of expressions(href)) {
    if (at > from) parts.push({ literal: href.slice(from, at) });
    parts.push({ operator, names: variables.map((variable) => variable!.name) });
    from = at + length;
  }
  if (from < href.length) parts.push({ literal: href.slice(from) });
  return parts;
}

/**
 * The variables of a template, split into those that build the path and those that build the query. It
 * is read for every operation of the index on every start, so it does not check the template: a
 * malformed one lists the variables it can, and fails with its reason when it is expanded.
 */
export function templateVariables(href: string): { path: string[]; query: string[] } {
  const path: string[] = [];
  const query: string[] = [];
  for (const { operator, variables } of expressions(href)) {
    const target = QUERY_OPERATORS.has(operator) ? query : path;
    for (const variable of variables) if (variable && !target.includes(variable.name)) target.push(variable.name);
  }
  return { path, query };
}

/** Throws the ProtocolError of a malformed template, naming `where` (the link or operation it came in). */
function checkTemplate(href: string, where?: string): void {
  const problem = templateProblem(href);
  if (problem !== undefined) throw malformed(href, problem, where);
}

/**
 * Expands a template with any RFC 6570 values (strings, numbers, lists, maps; undefined and null are
 * left out). A malformed template is a ProtocolError naming `where`; values it cannot take (a prefix of
 * a list) are a UsageError.
 */
export function expandWith(href: string, values: Record<string, unknown>, where?: string): string {
  checkTemplate(href, where);
  const cannot = (reason: string) =>
    new UsageError(
      `${where ?? 'a link'} cannot be expanded with the values given: ${reason}`,
      'a prefix modifier ({name:3}) takes one value, not a list or a map',
    );
  // Only the values given are looked up: `{constructor}` must not find Object's.
  const given: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(values)) if (value !== undefined) given[name] = value;
  for (const { variables } of expressions(href)) {
    const cut = variables.find(
      (variable) =>
        variable?.prefix !== undefined && typeof given[variable.name] === 'object' && given[variable.name] !== null,
    );
    if (cut)
      throw cannot(`${cut.name} holds a list or a map, which a prefix modifier does not apply to (RFC 6570 §2.4.1)`);
  }
  try {
    return StdUriTemplate.expand(href, given);
  } catch (error) {
    throw cannot(libraryReason(error));
  }
}

/**
 * Expands a template; variables without a value are left out, as RFC 6570 prescribes. The template
 * comes from the server (a malformed one is refused, naming `where`: the link or operation it came in)
 * and the values from the user (text that cannot be percent-encoded, a lone surrogate, is refused as theirs).
 */
export function expandTemplate(href: string, values: Record<string, string | undefined>, where?: string): string {
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && LONE_SURROGATE.test(value)) {
      throw new UsageError(
        `the value given for ${JSON.stringify(name)} is not valid Unicode (it holds a lone surrogate)`,
        'give the value again as plain text',
      );
    }
  }
  return expandWith(href, values, where);
}

/** Appends query parameters to a URL or path that is not a template, keeping any query it already has. */
export function appendQuery(href: string, values: Record<string, string | undefined>): string {
  const pairs = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (pairs.length === 0) return href;
  const hashAt = href.indexOf('#');
  const base = hashAt === -1 ? href : href.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : href.slice(hashAt);
  const encoded = new URLSearchParams(pairs).toString();
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}${encoded}${fragment}`;
}
