// The records of a list envelope as the server sent them: each element's own bytes where the scan can
// vouch for them, and nothing where it cannot, so that an export falls back to the parsed records.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemBytes } from '../../../src/api/hal/item-bytes.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const texts = (items: Uint8Array[] | undefined): string[] | undefined =>
  items?.map((item) => Buffer.from(item).toString('utf8'));

describe('itemBytes', () => {
  it('gives each record of _embedded.items as the server wrote it, numbers with all their digits', () => {
    const body =
      '{"_links":{"self":{"href":"/things?page=1"},"next":{"href":"/things?page=2"}},' +
      '"_embedded":{"items":[{"id":12345678901234567890,"n":1.50},' +
      '{"id":2,"tags":["a","b"],"nested":{"deep":[{"x":null}]}}]},' +
      '"total_count":2}';
    expect(texts(itemBytes(bytes(body), 'items', 2))).toEqual([
      '{"id":12345678901234567890,"n":1.50}',
      '{"id":2,"tags":["a","b"],"nested":{"deep":[{"x":null}]}}',
    ]);
  });

  it('is not misled by brackets, quotes and backslashes inside strings', () => {
    const records = [
      { note: 'a "quoted" } ] , { [ word' },
      { path: 'C:\\dir\\', next: '\\"' },
      { key: '_embedded', items: '[{' },
    ];
    const body = JSON.stringify({ _embedded: { items: records }, note: '{"_embedded":{"items":[]}}' });
    expect(texts(itemBytes(bytes(body), 'items', records.length))).toEqual(
      records.map((record) => JSON.stringify(record)),
    );
  });

  it('reads a plain Uint8Array as it reads a Buffer, its views into the same bytes', () => {
    const text = '{"_embedded":{"items":[{"id":"a\\"b"},{"id":2}]}}';
    const plain = new Uint8Array(new TextEncoder().encode(`xx${text}`).buffer, 2);
    const items = itemBytes(plain, 'items', 2);
    expect(texts(items)).toEqual(['{"id":"a\\"b"}', '{"id":2}']);
    expect(items![0]!.buffer).toBe(plain.buffer);
  });

  it('reads the array under the key the envelope uses', () => {
    const body = JSON.stringify({ _embedded: { users: [{ id: 'u1' }] }, _links: {} });
    expect(texts(itemBytes(bytes(body), 'users', 1))).toEqual(['{"id":"u1"}']);
    expect(itemBytes(bytes(body), 'items', 1)).toBeUndefined();
  });

  it('takes the last of a key named twice, as JSON.parse does', () => {
    const body = '{"_embedded":{"items":[{"id":"first"}],"items":[{"id":"second"}]}}';
    expect(JSON.parse(body)._embedded.items).toEqual([{ id: 'second' }]);
    expect(texts(itemBytes(bytes(body), 'items', 1))).toEqual(['{"id":"second"}']);
    const twiceEmbedded = '{"_embedded":{"items":[{"id":"first"}]},"_embedded":{"items":[{"id":"second"}]}}';
    expect(texts(itemBytes(bytes(twiceEmbedded), 'items', 1))).toEqual(['{"id":"second"}']);
    const lastNotAList = '{"_embedded":{"items":[{"id":"first"}],"items":{}}}';
    expect(itemBytes(bytes(lastNotAList), 'items', 1)).toBeUndefined();
  });

  it('keeps whitespace between records and around the envelope, not inside a record', () => {
    const body = '{\n  "_embedded": {\n    "items": [\n      {"id": 1},\n      {"id": 2}\n    ]\n  }\n}\n';
    expect(texts(itemBytes(bytes(body), 'items', 2))).toEqual(['{"id": 1}', '{"id": 2}']);
  });

  it('vouches for nothing it cannot write as one line each', () => {
    const pretty = JSON.stringify({ _embedded: { items: [{ id: 1 }, { id: 2 }] } }, null, 2);
    expect(itemBytes(bytes(pretty), 'items', 2)).toBeUndefined();
    expect(itemBytes(bytes('{"_embedded":{"items":[{"id":1},\r{"id":2\r}]}}'), 'items', 2)).toBeUndefined();
  });

  it('vouches for nothing when the elements are not the records the parser kept', () => {
    // A scalar or an array among the records: the walk left it out, so the counts differ or it is not an object.
    expect(itemBytes(bytes('{"_embedded":{"items":[{"id":1},7,"x"]}}'), 'items', 3)).toBeUndefined();
    expect(itemBytes(bytes('{"_embedded":{"items":[{"id":1},[2]]}}'), 'items', 2)).toBeUndefined();
    expect(itemBytes(bytes('{"_embedded":{"items":[{"id":1}]}}'), 'items', 2)).toBeUndefined();
    // A key spelled with an escape is the same key to JSON.parse, not to a scan of bytes.
    expect(itemBytes(bytes('{"\\u005fembedded":{"items":[{"id":1}]}}'), 'items', 1)).toBeUndefined();
    // No envelope at all, and a body cut short.
    expect(itemBytes(bytes('[{"id":1}]'), 'items', 1)).toBeUndefined();
    expect(itemBytes(bytes('{"_embedded":{"items":[{"id":"1'), 'items', 1)).toBeUndefined();
  });

  it('vouches for nothing in a body that is not UTF-8 (the text read from it has U+FFFD in its place)', () => {
    const body = Buffer.concat([bytes('{"_embedded":{"items":[{"name":"'), Buffer.from([0xff, 0xfe]), bytes('"}]}}')]);
    expect(itemBytes(body, 'items', 1)).toBeUndefined();
  });

  it('agrees with JSON.parse and JSON.stringify on any envelope of records', () => {
    const record = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 6 }),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        (records, extra) => {
          const { _embedded: _ignored, ...rest } = extra;
          const body = JSON.stringify({ ...rest, _embedded: { items: records } });
          const sent = texts(itemBytes(bytes(body), 'items', records.length));
          expect(sent?.map((text) => JSON.parse(text))).toEqual(
            (JSON.parse(body) as { _embedded: { items: unknown[] } })._embedded.items,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
