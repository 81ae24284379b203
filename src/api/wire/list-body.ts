// A list envelope read from its bytes in one pass, for an export that writes its records as the server
// sent them (issue 40). The pass checks JSON's grammar over the UTF-8 bytes, accepting exactly what
// JSON.parse accepts, and on the way notes where each element of `_embedded.<key>` starts and ends. Only
// the envelope around the records is parsed then (a few hundred bytes); the records are parsed when
// something reads them, all at once. Before, each body was decoded to text, parsed whole, and then
// scanned again to find its records' bytes: three passes where this is one.
//
// Whatever it cannot vouch for reads as JSON.parse would read it: bytes that are not UTF-8, a key at the
// envelope's top two levels spelled with escapes, nesting past the depth limit, a body that is not JSON
// or not a list envelope give undefined, and the caller parses the whole text as before (its errors
// and warnings included).
import { isUtf8 } from 'node:buffer';
import { isObject } from '../json.js';

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const LETTER_E = 0x65;
const CAPITAL_E = 0x45;
const LETTER_U = 0x75;
const WORDS: Record<number, Uint8Array> = {
  116: Buffer.from('true'),
  102: Buffer.from('false'),
  110: Buffer.from('null'),
};
/** The escapes JSON allows after a backslash besides \u: " \ / b f n r t. */
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, SLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const EMBEDDED = Buffer.from('_embedded');
/** The bytes a string holds as they are: any but a control character, a quote or a backslash. */
const PLAIN = new Uint8Array(256).map((_, byte) => (byte >= SPACE && byte !== QUOTE && byte !== BACKSLASH ? 1 : 0));

/** What an element of the records' array is: an object, and written on one line. */
const IS_OBJECT = 1;
const ONE_LINE = 2;

/** Where a container sits, as far as the envelope goes. */
const ELSEWHERE = 0;
const TOP = 1;
const IN_EMBEDDED = 2;
const LISTED = 3;

/** Thrown by the pass where JSON.parse would throw, or where the pass cannot vouch for what it read. */
const REFUSED = new Error('not read in one pass');

/** A list envelope's body: the envelope parsed, its records left as bytes until read. */
export interface ListBody {
  /** The body as JSON.parse reads it; `_embedded.<key>` is parsed on first read. */
  body: Record<string, unknown>;
  records: SentRecords;
}

/**
 * The elements of a list envelope's records array as sent: their bytes, what each is, and the array
 * parsed on first need (one JSON.parse over the array, not one per record).
 */
export class SentRecords {
  private parsed: unknown[] | undefined;

  constructor(
    private readonly bytes: Buffer,
    /** The key of the array under `_embedded`: `items`, or the envelope's only array there. */
    readonly key: string,
    /** The array's `[` and one past its `]`. */
    private readonly array: readonly [number, number],
    /** Start and end of each element, in turn. */
    private readonly spans: readonly number[],
    /** What each element is: IS_OBJECT and ONE_LINE. */
    private readonly shapes: readonly number[],
  ) {}

  /** How many elements the array holds. */
  get count(): number {
    return this.shapes.length;
  }

  isObject(index: number): boolean {
    return ((this.shapes[index] ?? 0) & IS_OBJECT) !== 0;
  }

  /** The array's elements as JSON.parse reads them. */
  elements(): unknown[] {
    this.parsed ??= JSON.parse(this.bytes.toString('utf8', this.array[0], this.array[1])) as unknown[];
    return this.parsed;
  }

  /** One element as JSON.parse reads it, without parsing the others unless they are parsed already. */
  element(index: number): unknown {
    if (this.parsed !== undefined) return this.parsed[index];
    return JSON.parse(this.bytes.toString('utf8', this.spans[index * 2], this.spans[index * 2 + 1]));
  }

  /** Each element's own bytes (views, not copies) when every one is an object written on one line; else undefined. */
  asSent(): Uint8Array[] | undefined {
    if (this.shapes.some((shape) => shape !== (IS_OBJECT | ONE_LINE))) return undefined;
    const items: Uint8Array[] = [];
    for (let i = 0; i < this.spans.length; i += 2) items.push(this.bytes.subarray(this.spans[i], this.spans[i + 1]));
    return items;
  }
}

/**
 * The body read in one pass, when it is a list envelope (an object whose `_embedded` holds an `items`
 * array, or only one array) that the pass can vouch for; else undefined. Containers nested deeper than
 * `maxDepth` are refused, as the caller refuses them after JSON.parse.
 */
export function readListBody(bytes: Uint8Array, maxDepth: number): ListBody | undefined {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Text decoding puts U+FFFD where the bytes are not UTF-8: what JSON.parse reads is not the bytes.
  if (!isUtf8(buffer)) return undefined;
  const pass = new Pass(buffer, maxDepth);
  try {
    pass.space();
    if (buffer[pass.at] !== OPEN_OBJECT) return undefined;
    pass.value(TOP);
    pass.space();
    if (pass.at !== buffer.length) return undefined;
  } catch (error) {
    if (error === REFUSED) return undefined;
    throw error;
  }
  const listed = pass.listed();
  if (listed === undefined) return undefined;
  const [start, end] = listed.array;
  // The envelope without its records: its text around the array, the array left empty.
  const body = JSON.parse(`${buffer.toString('utf8', 0, start)}[]${buffer.toString('utf8', end)}`) as Record<
    string,
    unknown
  >;
  const records = new SentRecords(buffer, listed.key, listed.array, listed.spans, listed.shapes);
  const embedded = body['_embedded'];
  if (!isObject(embedded)) return undefined;
  const settle = (value: unknown) =>
    Object.defineProperty(embedded, listed.key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(embedded, listed.key, {
    get: () => {
      const elements = records.elements();
      settle(elements);
      return elements;
    },
    set: settle,
    enumerable: true,
    configurable: true,
  });
  return { body, records };
}

/** An array directly under the last `_embedded`, and where its elements are. */
interface Listed {
  key: string;
  array: [number, number];
  spans: number[];
  shapes: number[];
}

/** JSON's grammar over UTF-8 bytes, as JSON.parse reads it: whitespace, strings, numbers, words, containers. */
class Pass {
  at = 0;
  private depth = 0;
  /** Where the last line break outside a string was: an element after it is on one line. */
  private lastBreak = -1;
  /** The key of the value being read in `_embedded`. */
  private key = '';
  /** The values of the last `_embedded` read, by key, as JSON.parse keeps them (the last of a key named twice). */
  private embedded = new Map<string, Listed | undefined>();

  constructor(
    private readonly b: Buffer,
    private readonly maxDepth: number,
  ) {}

  /** The array readPage takes: `_embedded.items` when it is an array, else the only array there. */
  listed(): Listed | undefined {
    const items = this.embedded.get('items');
    if (items !== undefined) return items;
    const arrays = [...this.embedded.values()].filter((value) => value !== undefined);
    return arrays.length === 1 ? arrays[0] : undefined;
  }

  space(): void {
    const b = this.b;
    let at = this.at;
    for (;;) {
      const c = b[at];
      if (c === SPACE || c === TAB) at += 1;
      else if (c === LINE_FEED || c === CARRIAGE_RETURN) this.lastBreak = at++;
      else break;
    }
    this.at = at;
  }

  value(place: number): void {
    this.space();
    const c = this.b[this.at];
    if (c === OPEN_OBJECT) this.object(place);
    else if (c === OPEN_ARRAY) this.array(place);
    else if (c === QUOTE) this.string();
    else if (c !== undefined && WORDS[c] !== undefined) this.word(WORDS[c]);
    else this.number();
  }

  private open(): void {
    this.depth += 1;
    if (this.depth > this.maxDepth) throw REFUSED;
    this.at += 1;
    this.space();
  }

  private object(place: number): void {
    const b = this.b;
    this.open();
    if (b[this.at] === CLOSE_OBJECT) {
      this.at += 1;
      this.depth -= 1;
      return;
    }
    for (;;) {
      this.space();
      if (b[this.at] !== QUOTE) throw REFUSED;
      const keyStart = this.at + 1;
      const escaped = this.string();
      let inner = ELSEWHERE;
      if (place === TOP || place === IN_EMBEDDED) {
        // JSON.parse unescapes a key: spelled with escapes, it may be the key looked for.
        if (escaped) throw REFUSED;
        if (place === IN_EMBEDDED) {
          this.key = b.toString('utf8', keyStart, this.at - 1);
          this.embedded.set(this.key, undefined);
          inner = LISTED;
        } else if (
          this.at - 1 - keyStart === EMBEDDED.length &&
          b.compare(EMBEDDED, 0, EMBEDDED.length, keyStart, this.at - 1) === 0
        ) {
          // `_embedded` named again: JSON.parse keeps the last.
          this.embedded = new Map();
          inner = IN_EMBEDDED;
        }
      }
      this.space();
      if (b[this.at] !== COLON) throw REFUSED;
      this.at += 1;
      this.value(inner);
      if (!this.another(CLOSE_OBJECT)) break;
    }
    this.depth -= 1;
  }

  /** After a member or an element: true at a comma (another follows), false at `close`; else refused. */
  private another(close: number): boolean {
    this.space();
    const next = this.b[this.at++];
    if (next === COMMA) return true;
    if (next === close) return false;
    throw REFUSED;
  }

  private array(place: number): void {
    const b = this.b;
    const listed: Listed | undefined =
      place === LISTED ? { key: this.key, array: [this.at, 0], spans: [], shapes: [] } : undefined;
    this.open();
    if (b[this.at] === CLOSE_ARRAY) this.at += 1;
    else {
      for (;;) {
        this.space();
        const start = this.at;
        this.value(ELSEWHERE);
        if (listed !== undefined) {
          listed.spans.push(start, this.at);
          listed.shapes.push((b[start] === OPEN_OBJECT ? IS_OBJECT : 0) | (this.lastBreak < start ? ONE_LINE : 0));
        }
        if (!this.another(CLOSE_ARRAY)) break;
      }
    }
    this.depth -= 1;
    if (listed !== undefined) {
      listed.array[1] = this.at;
      this.embedded.set(listed.key, listed);
    }
  }

  /** A string from its opening quote; whether it holds an escape. */
  string(): boolean {
    const b = this.b;
    const length = b.length;
    let at = this.at + 1;
    let escaped = false;
    for (;;) {
      while (at < length && PLAIN[b[at]!] === 1) at += 1;
      const c = b[at++];
      if (c === QUOTE) break;
      if (c !== BACKSLASH) throw REFUSED;
      escaped = true;
      const e = b[at++];
      if (e === LETTER_U) {
        for (const end = at + 4; at < end; at += 1) if (!isHex(b[at])) throw REFUSED;
      } else if (e === undefined || !SIMPLE_ESCAPES.has(e)) throw REFUSED;
    }
    this.at = at;
    return escaped;
  }

  private number(): void {
    const b = this.b;
    let at = this.at;
    if (b[at] === MINUS) at += 1;
    if (b[at] === ZERO) at += 1;
    else at = this.digits(at);
    if (b[at] === DOT) at = this.digits(at + 1);
    if (b[at] === LETTER_E || b[at] === CAPITAL_E) {
      at += 1;
      if (b[at] === PLUS || b[at] === MINUS) at += 1;
      at = this.digits(at);
    }
    this.at = at;
  }

  /** One or more digits from `from`; where they end. */
  private digits(from: number): number {
    const b = this.b;
    let at = from;
    for (let c = b[at]; c !== undefined && c >= ZERO && c <= NINE; c = b[at]) at += 1;
    if (at === from) throw REFUSED;
    return at;
  }

  private word(word: Uint8Array): void {
    for (const byte of word) if (this.b[this.at++] !== byte) throw REFUSED;
  }
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}
