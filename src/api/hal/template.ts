// RFC 6570 URI templates: which variables a template takes, and its expansion.
import { parseTemplate } from 'url-template';
import { ProtocolError, UsageError } from '../errors.js';

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;
const QUERY_OPERATORS = new Set(['?', '&']);

/** The variables of a template, split into those that build the path and those that build the query. */
export function templateVariables(href: string): { path: string[]; query: string[] } {
  const path: string[] = [];
  const query: string[] = [];
  for (const match of href.matchAll(EXPRESSION)) {
    const operator = match[1] ?? '';
    const target = QUERY_OPERATORS.has(operator) ? query : path;
    for (const spec of (match[2] ?? '').split(',')) {
      // A variable spec may carry a prefix (`:3`) or explode (`*`) modifier; the name is what precedes it.
      const name = spec.trim().replace(/(:\d+|\*)$/, '');
      if (name && !target.includes(name)) target.push(name);
    }
  }
  return { path, query };
}

// Half of a UTF-16 surrogate pair: valid in a JS (and JSON) string, but not text a URI can encode.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Expands a template; variables without a value are left out, as RFC 6570 prescribes. The template
 * comes from the server and the values from the user, so text that cannot be percent-encoded (a lone
 * surrogate, which makes the encoder throw a URIError) is refused as the fault of whichever holds it.
 */
export function expandTemplate(href: string, values: Record<string, string | undefined>): string {
  if (LONE_SURROGATE.test(href)) {
    throw new ProtocolError(
      `the server's link template ${JSON.stringify(href)} is not valid Unicode (it holds a lone surrogate)`,
      'the server sent a link that no URL can be built from; report it to the control plane\'s owners',
    );
  }
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (LONE_SURROGATE.test(value)) {
      throw new UsageError(
        `the value given for ${JSON.stringify(name)} is not valid Unicode (it holds a lone surrogate)`,
        'give the value again as plain text',
      );
    }
    defined[name] = value;
  }
  try {
    return parseTemplate(href).expand(defined);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    // url-template cuts a prefix (`{name:3}`) by UTF-16 units, which can split a character in two.
    throw new UsageError(
      `a prefix modifier of ${JSON.stringify(href)} cuts a value inside a character`,
      'give values without emoji or other characters beyond U+FFFF in the variables this template shortens',
    );
  }
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
