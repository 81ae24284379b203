// JSON text typed by a person: parsed, and when it is not JSON, where it stops being JSON. Node's
// JSON.parse names no position on Node 20, so a small scanner finds the first offending character.

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

class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

function locateJsonError(text: string): { offset: number; message: string } {
  let at = 0;
  const describe = (): string =>
    at >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[at])}`;
  const fail = (expected: string): never => {
    throw new ScanError(at, `${describe()}, expected ${expected}`);
  };
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const literal = (word: string): void => {
    for (const char of word) {
      if (text[at] !== char) fail(`"${word}"`);
      at++;
    }
  };
  const string = (): void => {
    at++;
    while (at < text.length && text[at] !== '"') {
      const char = text[at]!;
      if (char < ' ') throw new ScanError(at, 'control character inside a string (write \\n, \\t)');
      if (char === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5)))
            throw new ScanError(at, 'bad \\u escape, expected four hex digits');
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? '')) {
          throw new ScanError(at, `bad escape ${JSON.stringify(`\\${text[at] ?? ''}`)}`);
        }
      }
      at++;
    }
    if (at >= text.length) throw new ScanError(at, 'unterminated string');
    at++;
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match || match[0] === '' || match[0] === '-') fail('a value');
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return number();
    fail('a value');
  };
  const object = (): void => {
    at++;
    space();
    if (text[at] === '}') {
      at++;
      return;
    }
    for (;;) {
      space();
      if (text[at] !== '"')
        fail(text[at] === '}' ? 'a property name (no trailing comma in JSON)' : 'a property name in double quotes');
      string();
      space();
      if (text[at] !== ':') fail('":"');
      at++;
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === '}') {
        at++;
        return;
      }
      fail('"," or "}"');
    }
  };
  const array = (): void => {
    at++;
    space();
    if (text[at] === ']') {
      at++;
      return;
    }
    for (;;) {
      space();
      if (text[at] === ']') fail('a value (no trailing comma in JSON)');
      value();
      space();
      if (text[at] === ',') {
        at++;
        continue;
      }
      if (text[at] === ']') {
        at++;
        return;
      }
      fail('"," or "]"');
    }
  };
  try {
    value();
    space();
    if (at < text.length) fail('end of input');
    // JSON.parse refused what the scanner accepts (should not happen): point at the end.
    return { offset: text.length, message: 'not valid JSON' };
  } catch (error) {
    if (error instanceof ScanError) return { offset: error.offset, message: error.message };
    throw error;
  }
}
