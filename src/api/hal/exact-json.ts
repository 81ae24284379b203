// Numbers as the server sent them. JSON.parse reads every number as a double: a 64-bit id loses its last
// digits, `1.50` becomes 1.5 and `1e400` Infinity (which JSON.stringify writes as null). Where dpx prints
// what a server sent (json, ndjson, csv, `call`), the text is read again here, and a number a double
// would change is kept as its text (ExactNumber), which stringifyExact writes back digit for digit.
// Node 20 has neither JSON.rawJSON nor the reviver's source text, so this is a small parser of its own,
// run only on text that may hold such a number (mayHoldInexactNumbers).

/** A number whose text a double does not give back: written as it was sent. */
export class ExactNumber {
  constructor(readonly text: string) {}
  valueOf(): number {
    return Number(this.text);
  }
  toString(): string {
    return this.text;
  }
}

/** Many digits, a fraction ending in 0, an exponent or a -0: a number a double might not give back. */
const SUSPECT = /(?:\d\.?){16}|\.\d*0(?!\d)|\d[eE]|-0(?![.\d])/;

export function mayHoldInexactNumbers(text: string): boolean {
  return SUSPECT.test(text);
}

/** `text` parsed as JSON.parse would, but for numbers a double would change, kept as ExactNumber. */
export function parseExact(text: string): unknown {
  if (!mayHoldInexactNumbers(text)) return JSON.parse(text);
  const parser = new Parser(text);
  const value = parser.value();
  parser.end();
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITE = /[ \t\n\r]*/y;

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  value(): unknown {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail();
    this.at += match[0].length;
    const number = Number(match[0]);
    return String(number) === match[0] ? number : new ExactNumber(match[0]);
  }

  end(): void {
    this.space();
    if (this.at !== this.text.length) this.fail();
  }

  private object(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return result;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.expect(':');
      // As JSON.parse: a key named __proto__ is an own property, not the prototype.
      Object.defineProperty(result, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.space();
      if (this.text[this.at] === '}') {
        this.at++;
        return result;
      }
      this.expect(',');
    }
  }

  private array(): unknown[] {
    const result: unknown[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value());
      this.space();
      if (this.text[this.at] === ']') {
        this.at++;
        return result;
      }
      this.expect(',');
    }
  }

  private string(): string {
    if (this.text[this.at] !== '"') return this.fail();
    let end = this.at + 1;
    for (;;) {
      const c = this.text[end];
      if (c === undefined) return this.fail();
      if (c === '\\') end += 2;
      else if (c === '"') break;
      else end++;
    }
    const value = JSON.parse(this.text.slice(this.at, end + 1)) as string;
    this.at = end + 1;
    return value;
  }

  private space(): void {
    WHITE.lastIndex = this.at;
    WHITE.exec(this.text);
    this.at = WHITE.lastIndex;
  }

  private expect(c: string): void {
    this.space();
    if (this.text[this.at] !== c) this.fail();
    this.at++;
  }

  private fail(): never {
    throw new SyntaxError(`not JSON at character ${this.at + 1}`);
  }
}

/** Marks an ExactNumber in JSON.stringify's output, to be replaced by its text: not a string any JSON holds. */
const MARK = `\u0000exact-${Math.random().toString(36).slice(2)}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}([^"]*)"`, 'g');

/** JSON.stringify, with each ExactNumber written as its text. */
export function stringifyExact(value: unknown, indent?: number): string | undefined {
  let marked = false;
  const text = JSON.stringify(
    value,
    (_key, entry: unknown) => {
      if (!(entry instanceof ExactNumber)) return entry;
      marked = true;
      return `${MARK}${entry.text}`;
    },
    indent,
  );
  return marked && text !== undefined ? text.replace(MARKED, '$1') : text;
}
