// JSON text typed by a person: parsed, and when it is not JSON, where it stops being JSON. Node's
// JSON.parse names no position on Node 20, so jsonc-parser's scanner (in strict JSON mode) finds the first
// problem. It names the token that goes wrong; the message says what was expected there, and within a
// literal or a string the character that goes wrong is pointed at, as a person reads it.

import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';

export type JsonTextResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number; offset: number };

export function parseJsonText(text: string): JsonTextResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const { offset, message } = locateJsonError(text);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return { ok: false, message: `line ${line}, column ${column}: ${message}`, line, column, offset };
  }
}

interface FirstError {
  code: ParseErrorCode;
  offset: number;
  length: number;
  /** What the text should have held there, as the scan had reached it. */
  expected: string;
}

const PROPERTY_NAME = 'a property name in double quotes';
const LITERALS = ['true', 'false', 'null'];

function locateJsonError(text: string): { offset: number; message: string } {
  const containers: ('object' | 'array')[] = [];
  let expected = 'a value';
  let first: FirstError | undefined;
  const afterValue = (): void => {
    const inside = containers.at(-1);
    expected = inside === undefined ? 'end of input' : inside === 'object' ? '"," or "}"' : '"," or "]"';
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        containers.push('object');
        expected = PROPERTY_NAME;
      },
      onObjectProperty: () => {
        expected = '":"';
      },
      onArrayBegin: () => {
        containers.push('array');
        expected = 'a value';
      },
      onObjectEnd: () => {
        containers.pop();
        afterValue();
      },
      onArrayEnd: () => {
        containers.pop();
        afterValue();
      },
      onLiteralValue: afterValue,
      onSeparator: (character) => {
        expected = character === ',' && containers.at(-1) === 'object' ? PROPERTY_NAME : 'a value';
      },
      onError: (code, offset, length) => {
        first ??= { code, offset, length, expected };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  // JSON.parse refused what the scanner accepts (should not happen): point at the end.
  return first === undefined ? { offset: text.length, message: 'not valid JSON' } : described(text, first);
}

function described(text: string, { code, offset, length, expected }: FirstError): { offset: number; message: string } {
  const at = (where: number, expectation: string) => {
    const found = where >= text.length ? 'end of input' : JSON.stringify(text[where]);
    return { offset: where, message: `unexpected ${found}, expected ${expectation}` };
  };
  switch (printParseErrorCode(code)) {
    case 'InvalidSymbol': {
      // `tru}`: the token is a literal misspelt; the character where it parts from the word is the problem.
      const word = expected === 'a value' ? LITERALS.find((literal) => literal[0] === text[offset]) : undefined;
      if (word === undefined) return at(offset, expected);
      let parted = 0;
      while (parted < word.length && text[offset + parted] === word[parted]) parted++;
      return at(offset + parted, `"${word}"`);
    }
    case 'UnexpectedEndOfString':
    case 'InvalidCharacter':
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return stringProblem(text, offset) ?? at(offset, expected);
    case 'UnexpectedEndOfNumber':
      return at(offset + length, 'a digit');
    case 'PropertyNameExpected':
      return at(offset, text[offset] === '}' ? 'a property name (no trailing comma in JSON)' : PROPERTY_NAME);
    case 'ValueExpected':
      return at(offset, text[offset] === ']' ? 'a value (no trailing comma in JSON)' : 'a value');
    case 'ColonExpected':
      return at(offset, '":"');
    case 'CloseBraceExpected':
      return at(offset, '"," or "}"');
    case 'CloseBracketExpected':
      return at(offset, '"," or "]"');
    case 'EndOfFileExpected':
      return at(offset, 'end of input');
    default:
      return at(offset, expected);
  }
}

/**
 * The character that spoils the string starting at `start` (jsonc-parser names the string, not the
 * character): a control character, a bad escape, or the end of the input before its closing quote.
 */
function stringProblem(text: string, start: number): { offset: number; message: string } | undefined {
  for (let at = start + 1; at < text.length; at++) {
    const char = text[at]!;
    if (char === '"') return undefined;
    if (char < ' ') return { offset: at, message: 'control character inside a string (write \\n, \\t)' };
    if (char !== '\\') continue;
    at++;
    if (text[at] === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5)))
        return { offset: at, message: 'bad \\u escape, expected four hex digits' };
      at += 4;
    } else if (!'"\\/bfnrt'.includes(text[at] ?? '')) {
      return { offset: at, message: `bad escape ${JSON.stringify(`\\${text[at] ?? ''}`)}` };
    }
  }
  return { offset: text.length, message: 'unterminated string' };
}
