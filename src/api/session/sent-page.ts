// A page read for its records as sent (list-body.ts): its `items` are parsed the first time something
// reads them, so that an export which writes the records' bytes never parses them. What a walk needs of
// them before that (how many there are, a cut at the item cap) is had without parsing.
import { isObject } from '../json.js';
import type { SentRecords } from '../wire/list-body.js';
import type { Page } from './page.js';

/** Pages whose items are not parsed yet, and how many of their records they hold (fewer once cut). */
const unparsed = new WeakMap<Page, number>();

export function itemsKeyWarning(key: string): string {
  return `list: items read from _embedded.${key}, not _embedded.items`;
}

export function leftOutWarning(index: number): string {
  return `list /_embedded/items/${index}: not an object; left out`;
}

/**
 * The envelope as its schema check sees it, the records not parsed: each object of the records' array is
 * there as `{}`, as the list envelope's schema asks only that a record be an object
 * (fixtures/schemas/list-envelope.json); any other element as itself.
 */
export function envelopeStandIn(body: Record<string, unknown>, records: SentRecords): Record<string, unknown> {
  const embedded = body['_embedded'] as Record<string, unknown>;
  const standIn = Array.from({ length: records.count }, (_, index) =>
    records.isObject(index) ? {} : records.element(index),
  );
  // Not spread: spreading would read, and so parse, the records' array.
  const shown = Object.fromEntries(
    Object.keys(embedded).map((key) => [key, key === records.key ? standIn : embedded[key]]),
  );
  return { ...body, _embedded: shown };
}

/** Gives `page` the records of `records`, with the warnings readPage gives, its `items` parsed on first read. */
export function readSentItems(page: Page, records: SentRecords): void {
  if (records.key !== 'items') page.warnings.push(itemsKeyWarning(records.key));
  let count = 0;
  for (let index = 0; index < records.count; index += 1) {
    if (records.isObject(index)) count += 1;
    else page.warnings.push(leftOutWarning(index));
  }
  page.records = records;
  unparsed.set(page, count);
  Object.defineProperty(page, 'items', {
    get: () => {
      const items = records.elements().filter(isObject).slice(0, unparsed.get(page));
      settle(page, items);
      return items;
    },
    set: (items: Record<string, unknown>[]) => settle(page, items),
    enumerable: true,
    configurable: true,
  });
}

function settle(page: Page, items: Record<string, unknown>[]): void {
  unparsed.delete(page);
  Object.defineProperty(page, 'items', { value: items, writable: true, enumerable: true, configurable: true });
}

/** How many records the page holds: its items', counted without parsing them. */
export function recordCount(page: Page): number {
  return unparsed.get(page) ?? page.items.length;
}

/** Keeps only the first `count` records of the page. */
export function keepFirst(page: Page, count: number): void {
  const held = unparsed.get(page);
  if (held === undefined) page.items = page.items.slice(0, count);
  else unparsed.set(page, Math.min(held, count));
}
