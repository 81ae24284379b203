// A page read for its records as sent: the same page readPage gives from the parsed body (items, warnings,
// counts, links), its records parsed only when read, and counted and cut at the item cap without that.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readListBody } from '../../../src/api/wire/list-body.js';
import { itemsAsSent, readPage } from '../../../src/api/session/pages.js';
import type { Page } from '../../../src/api/session/page.js';
import { keepFirst, recordCount } from '../../../src/api/session/sent-page.js';

const url = 'https://cp.example/api/things?page=1';

/** The page read both ways from one body: from its bytes in one pass, and from JSON.parse of its text. */
function bothWays(text: string): { sent: Page; parsed: Page } {
  const read = readListBody(Buffer.from(text), 256);
  if (read === undefined) throw new Error(`not read in one pass: ${text}`);
  return {
    sent: readPage({ body: read.body, url, records: read.records }),
    parsed: readPage({ body: JSON.parse(text), url }),
  };
}

const isParsed = (page: Page): boolean => Object.getOwnPropertyDescriptor(page, 'items')?.get === undefined;

describe('a page read for its records as sent', () => {
  it('is the page read from the parsed body, its items parsed only when read', () => {
    const { sent, parsed } = bothWays(
      '{"_links":{"next":{"href":"?page=2"}},"_embedded":{"items":[{"id":1},{"id":"b"}]},"current_count":2,"total_count":9}',
    );
    expect(isParsed(sent)).toBe(false);
    expect(recordCount(sent)).toBe(2);
    expect(texts(itemsAsSent(sent))).toEqual(['{"id":1}', '{"id":"b"}']);
    expect(isParsed(sent)).toBe(false);
    expect(sent.warnings).toEqual(parsed.warnings);
    expect([sent.totalCount, sent.currentCount, sent.links.get('next')?.href]).toEqual([9, 2, '?page=2']);
    expect(sent.items).toEqual(parsed.items);
    expect(isParsed(sent)).toBe(true);
  });

  it('warns as readPage does about records under another key and elements that are not objects', () => {
    const { sent, parsed } = bothWays('{"_links":{},"_embedded":{"tasks":[7,{"id":1},[2]]},"current_count":"x"}');
    expect(sent.warnings).toEqual(parsed.warnings);
    expect(sent.warnings).toContain('list: items read from _embedded.tasks, not _embedded.items');
    expect(sent.warnings).toContain('list /_embedded/items/0: not an object; left out');
    expect(recordCount(sent)).toBe(1);
    expect(itemsAsSent(sent)).toBeUndefined();
    expect(sent.items).toEqual([{ id: 1 }]);
  });

  it('is cut at the item cap without parsing its records, and keeps the records it starts with', () => {
    const { sent } = bothWays('{"_links":{},"_embedded":{"items":[{"id":1},{"id":2},{"id":3}]},"current_count":3}');
    keepFirst(sent, 2);
    expect(recordCount(sent)).toBe(2);
    expect(texts(itemsAsSent(sent))).toEqual(['{"id":1}', '{"id":2}']);
    expect(isParsed(sent)).toBe(false);
    expect(sent.items).toEqual([{ id: 1 }, { id: 2 }]);
    keepFirst(sent, 1);
    expect(sent.items).toEqual([{ id: 1 }]);
    expect(texts(itemsAsSent(sent))).toEqual(['{"id":1}']);
  });

  it("gives the envelope's schema check what the parsed body gives it, whatever the records hold", () => {
    const element = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(
        fc.array(element, { maxLength: 5 }),
        fc.record({ current_count: fc.jsonValue({ maxDepth: 1 }), _links: fc.jsonValue({ maxDepth: 2 }) }),
        (records, extra) => {
          const { sent, parsed } = bothWays(JSON.stringify({ ...extra, _embedded: { items: records } }));
          expect(sent.warnings).toEqual(parsed.warnings);
        },
      ),
      { numRuns: 200 },
    );
  });
});

function texts(items: Uint8Array[] | undefined): string[] | undefined {
  return items?.map((item) => Buffer.from(item).toString('utf8'));
}
