// A list envelope read from its bytes in one pass: what it reads, JSON.parse reads the same (the envelope,
// the records, each record's bytes); what JSON.parse refuses, it refuses; and what it cannot vouch for it
// leaves to JSON.parse (undefined).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListBody, type ListBody } from '../../../src/api/wire/list-body.js';

const DEPTH = 256;
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const read = (text: string | Buffer): ListBody | undefined =>
  readListBody(typeof text === 'string' ? bytes(text) : text, DEPTH);
const texts = (items: Uint8Array[] | undefined): string[] | undefined =>
  items?.map((item) => Buffer.from(item).toString('utf8'));

/** What JSON.parse reads of a body, or `refused`. */
function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return 'refused';
  }
}

/** Each check the pass must pass on a body: refused where JSON.parse refuses, and what it reads is JSON.parse's. */
function agreesWithParse(body: Buffer): ListBody | undefined {
  const expected = parsed(body);
  const got = readListBody(body, DEPTH);
  if (expected === 'refused') expect(got).toBeUndefined();
  if (got === undefined) return undefined;
  expect(got.body).toEqual(expected);
  const records = (expected as { _embedded: Record<string, unknown[]> })._embedded[got.records.key]!;
  expect(got.records.elements()).toEqual(records);
  const sent = texts(got.records.asSent());
  if (sent !== undefined) expect(sent.map((text) => JSON.parse(text) as unknown)).toEqual(records);
  return got;
}

describe('readListBody', () => {
  it('reads the envelope and gives each record as the server wrote it, numbers with all their digits', () => {
    const body =
      '{"_links":{"self":{"href":"/things?page=1"},"next":{"href":"/things?page=2"}},' +
      '"_embedded":{"items":[{"id":12345678901234567890,"n":1.50},' +
      '{"id":2,"tags":["a","b"],"nested":{"deep":[{"x":null}]}}]},' +
      '"total_count":2}';
    const got = read(body)!;
    expect(texts(got.records.asSent())).toEqual([
      '{"id":12345678901234567890,"n":1.50}',
      '{"id":2,"tags":["a","b"],"nested":{"deep":[{"x":null}]}}',
    ]);
    expect(got.records.key).toBe('items');
    expect(got.body).toEqual(JSON.parse(body));
  });

  it('parses the records only when they are read, all at once', () => {
    const got = read('{"_embedded":{"items":[{"id":1},{"id":2}]},"total_count":2}')!;
    const embedded = got.body['_embedded'] as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(embedded, 'items')?.get).toBeDefined();
    const items = embedded['items'];
    expect(items).toEqual([{ id: 1 }, { id: 2 }]);
    expect(embedded['items']).toBe(items);
    expect(got.records.elements()).toBe(items);
    expect(Object.getOwnPropertyDescriptor(embedded, 'items')?.value).toBe(items);
  });

  it('is not misled by brackets, quotes and backslashes inside strings', () => {
    const records = [
      { note: 'a "quoted" } ] , { [ word' },
      { path: 'C:\\dir\\', next: '\\"' },
      { key: '_embedded', items: '[{' },
    ];
    const body = JSON.stringify({ _embedded: { items: records }, note: '{"_embedded":{"items":[]}}' });
    expect(texts(agreesWithParse(bytes(body))?.records.asSent())).toEqual(
      records.map((record) => JSON.stringify(record)),
    );
  });

  it('reads a plain Uint8Array as it reads a Buffer, its records views into the same bytes', () => {
    const text = '{"_embedded":{"items":[{"id":"a\\"b"},{"id":2}]}}';
    const plain = new Uint8Array(new TextEncoder().encode(`xx${text}`).buffer, 2);
    const items = readListBody(plain, DEPTH)!.records.asSent();
    expect(texts(items)).toEqual(['{"id":"a\\"b"}', '{"id":2}']);
    expect(items![0]!.buffer).toBe(plain.buffer);
  });

  it('reads the array under the key the envelope uses: items, else the only array under _embedded', () => {
    const tasks = read(JSON.stringify({ _embedded: { tasks: [{ id: 't1' }] }, _links: {} }))!;
    expect(tasks.records.key).toBe('tasks');
    expect(texts(tasks.records.asSent())).toEqual(['{"id":"t1"}']);
    expect(read('{"_embedded":{"items":[{"id":1}],"tasks":[{"id":2}]}}')!.records.key).toBe('items');
    expect(read('{"_embedded":{"items":{},"tasks":[{"id":2}]}}')!.records.key).toBe('tasks');
    // Two arrays and neither is items: readPage refuses such an envelope, from JSON.parse's reading.
    expect(read('{"_embedded":{"users":[],"tasks":[{"id":2}]}}')).toBeUndefined();
    expect(read('{"_embedded":{"items":{}}}')).toBeUndefined();
    expect(read('{"_embedded":[],"_links":{}}')).toBeUndefined();
    expect(read('{"_links":{},"current_count":0}')).toBeUndefined();
  });

  it('takes the last of a key named twice, as JSON.parse does', () => {
    const twiceItems = agreesWithParse(bytes('{"_embedded":{"items":[{"id":"first"}],"items":[{"id":"second"}]}}'));
    expect(texts(twiceItems?.records.asSent())).toEqual(['{"id":"second"}']);
    const twiceEmbedded = agreesWithParse(
      bytes('{"_embedded":{"items":[{"id":"first"}]},"c":1,"_embedded":{"items":[{"id":"second"}]}}'),
    );
    expect(texts(twiceEmbedded?.records.asSent())).toEqual(['{"id":"second"}']);
    expect(read('{"_embedded":{"items":[{"id":"first"}],"items":{}}}')).toBeUndefined();
    expect(read('{"_embedded":{"items":[{"id":"first"}]},"_embedded":5}')).toBeUndefined();
  });

  it('leaves to JSON.parse a key of the envelope spelled with escapes, which may be the key it looks for', () => {
    expect(read('{"\\u005fembedded":{"items":[{"id":1}]}}')).toBeUndefined();
    expect(read('{"_embedded":{"\\u0069tems":[{"id":1}]}}')).toBeUndefined();
    expect(read('{"_links":{},"\\n":1,"_embedded":{"items":[]}}')).toBeUndefined();
    // Deeper down, in a record or elsewhere, escapes are JSON.parse's to read.
    expect(agreesWithParse(bytes('{"_links":{"\\u0073elf":{}},"_embedded":{"items":[{"\\u0069d":1}]}}'))).toBeDefined();
  });

  it('keeps whitespace between records and around the envelope, not inside a record', () => {
    const body = '{\n  "_embedded": {\n    "items": [\n      {"id": 1},\n      {"id": 2}\n    ]\n  }\n}\n';
    expect(texts(read(body)!.records.asSent())).toEqual(['{"id": 1}', '{"id": 2}']);
  });

  it('gives no bytes for records written over several lines: they are read parsed', () => {
    const pretty = read(JSON.stringify({ _embedded: { items: [{ id: 1 }, { id: 2 }] } }, null, 2))!;
    expect(pretty.records.asSent()).toBeUndefined();
    expect(pretty.records.elements()).toEqual([{ id: 1 }, { id: 2 }]);
    expect(read('{"_embedded":{"items":[{"id":1},\r{"id":2\r}]}}')!.records.asSent()).toBeUndefined();
  });

  it('gives no bytes when an element is not an object, and says which are', () => {
    const mixed = read('{"_embedded":{"items":[{"id":1},7,"x",[2]]}}')!;
    expect(mixed.records.asSent()).toBeUndefined();
    expect([0, 1, 2, 3].map((index) => mixed.records.isObject(index))).toEqual([true, false, false, false]);
    expect([1, 2, 3].map((index) => mixed.records.element(index))).toEqual([7, 'x', [2]]);
  });

  it('refuses what is not JSON, and a body that is not an envelope', () => {
    for (const body of [
      '[{"id":1}]',
      '{"_embedded":{"items":[{"id":"1',
      '{"_embedded":{"items":[]}} x',
      '\ufeff{"_embedded":{"items":[]}}',
      '{"_embedded":{"items":[01]}}',
      '{"_embedded":{"items":["\\u00G0"]}}',
      '{"_embedded":{"items":["\\u001\u0011"]}}',
      '{"_embedded":{"items":["tab\there"]}}',
      '{"_embedded":{"items":[1.]}}',
      '{"_embedded":{"items":[tru]}}',
      '',
      ' ',
    ])
      expect(read(body), body).toBeUndefined();
  });

  it('reads nesting to the depth limit and refuses one level more', () => {
    const nested = (depth: number) => `{"_embedded":{"items":[${'['.repeat(depth - 3)}${']'.repeat(depth - 3)}]}}`;
    expect(read(nested(DEPTH))).toBeDefined();
    expect(read(nested(DEPTH + 1))).toBeUndefined();
  });

  it('leaves a body that is not UTF-8 to JSON.parse (the text read from it has U+FFFD in its place)', () => {
    const body = Buffer.concat([bytes('{"_embedded":{"items":[{"name":"'), Buffer.from([0xff, 0xfe]), bytes('"}]}}')]);
    expect(readListBody(body, DEPTH)).toBeUndefined();
  });

  it('agrees with JSON.parse and JSON.stringify on any envelope of records', () => {
    const record = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(record, record, fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 }),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.constantFrom('items', 'tasks'),
        fc.constantFrom(undefined, 1, '\t'),
        (records, extra, key, indent) => {
          const { _embedded: _ignored, ...rest } = extra;
          const body = bytes(JSON.stringify({ ...rest, _embedded: { [key]: records } }, null, indent));
          const got = agreesWithParse(body);
          // A key of the envelope written with escapes is left to JSON.parse.
          expect(got === undefined).toBe(Object.keys(rest).some((name) => JSON.stringify(name) !== `"${name}"`));
          if (got === undefined) return;
          const sent = texts(got.records.asSent());
          if (sent !== undefined) expect(sent).toEqual(records.map((element) => JSON.stringify(element)));
          const compact =
            indent === undefined ||
            records.every((element) => JSON.stringify(element, null, indent) === JSON.stringify(element));
          expect(got!.records.asSent() !== undefined).toBe(
            compact &&
              records.every((element) => element !== null && typeof element === 'object' && !Array.isArray(element)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses whatever JSON.parse refuses, and reads what it accepts as JSON.parse does, over mutated bodies', () => {
    const base = bytes(
      '{"_links":{"next":{"href":"/x"}},"_embedded":{"items":[{"id":"a\\u00e9\\n","n":-1.5e+3,"t":true,' +
        '"f":false,"z":null,"x":[1,2,{}],"s":"–"},{"id":12345678901234567890}]},"current_count":2}',
    );
    const alphabet = [...bytes('{}[]",:\\ \t\n\r0123456789-+.eEtrufalsn/bux\u0001\u0011')];
    const edit = fc.record({
      at: fc.nat(),
      op: fc.constantFrom('delete', 'insert', 'replace'),
      byte: fc.constantFrom(...alphabet),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        const body = [...base];
        for (const { at, op, byte } of edits) {
          const where = at % (body.length + 1);
          if (op === 'delete') body.splice(where, 1);
          else if (op === 'insert') body.splice(where, 0, byte);
          else body[where] = byte;
        }
        agreesWithParse(Buffer.from(body));
      }),
      { numRuns: 3000 },
    );
  });
});
