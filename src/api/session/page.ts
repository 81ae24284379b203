// What one page of a list is: the answer it is read from, and the page read (pages.ts reads and walks
// them; sent-page.ts and walk-guards.ts help it and name these types without importing their reader).
import type { Links } from 'ketting/dist/link.js';
import type { SentRecords } from '../wire/list-body.js';

/** What a page is read from: an answer's body, the URL it came from, and its headers (for a `Link` header). */
export interface PageAnswer {
  body: unknown;
  url: string;
  headers?: Record<string, string>;
  /** The body as it came off the wire, when it did (see itemsAsSent). */
  bytes?: Uint8Array;
  /** The records as sent, read in one pass, when the answer was read for them (ApiResponse.records). */
  records?: SentRecords;
}

export interface Page {
  url: string;
  items: Record<string, unknown>[];
  /** The page's links by role (`self`, `first`, `last`, `next`, `prev`), each relative to the page's URL. */
  links: Links;
  currentCount?: number;
  totalCount?: number;
  totalPages?: number;
  start?: string;
  warnings: string[];
  /** Where the items are in the body as sent, for itemsAsSent: absent when the body's bytes are not at hand. */
  sent?: { bytes: Uint8Array; itemsKey: string; count: number };
  /**
   * The records as the server sent them, read in one pass when the page was read for them (an export
   * that writes them as they are); `items` is then parsed when first read (sent-page.ts).
   */
  records?: SentRecords;
}
