// JSON as dpx prints it: the exact data, and nothing a terminal obeys. JSON.stringify escapes the C0
// controls but writes DEL, the C1 controls (U+0080–U+009F, which some terminals read as ESC sequences)
// and bidi overrides and isolates as they are; those are written as \u escapes here, which any JSON
// reader turns back into the same string. The scan costs about half of JSON.stringify again, so a stream
// of records into a pipe (an export) may leave it out: no terminal reads it there. A number kept as it was
// sent (ExactNumber) is written with its own digits.

import { stringifyExact } from '../../api/hal/exact-json.js';

const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const RAW_IN_JSON_ALL = new RegExp(RAW_IN_JSON.source, 'g');

export function jsonString(value: unknown, indent?: number, forTerminal = true): string {
  const text = stringifyExact(value, indent) ?? 'null';
  return forTerminal && RAW_IN_JSON.test(text)
    ? text.replace(RAW_IN_JSON_ALL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : text;
}
