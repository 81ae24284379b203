// The discovery index: how it is asked for, kept between runs, and read into a catalog.
import { parseCatalog, type Catalog } from './catalog.js';
import { ProtocolError } from './errors.js';
import { isObject } from './json.js';
import { parseVendorMediaType } from './media.js';
import { checkIndex } from './schemas.js';

// The index is vendor-neutral to ask for: a generic JSON Accept gets every resource's newest version.
export const DISCOVERY_ACCEPT = 'application/json';

/** A discovery index as the server sent it, kept between runs. */
export interface StoredIndex {
  body: unknown;
  contentType: string;
  /** The server's validator, when it sent one. */
  etag?: string;
  /** When the server last sent or confirmed it (ms since the epoch). */
  checkedAt: number;
}

/** Where discovery indexes are kept between runs, by the base URL of their control plane (files, for the CLI). */
export interface IndexStore {
  read(baseUrl: string): Promise<StoredIndex | undefined>;
  write(baseUrl: string, index: StoredIndex): Promise<void>;
}

/**
 * The catalog of a discovery index, fetched or kept (`url` names where it came from in errors). Its vendor
 * is the one the index's Content-Type names, else `vendor`. An index with no usable resource is a ProtocolError.
 */
export function catalogFromIndex(index: Pick<StoredIndex, 'body' | 'contentType'>, url: string, vendor: string): Catalog {
  if (!isObject(index.body)) {
    throw new ProtocolError(`the discovery index at ${url} is not a JSON object`, 'check the base URL: it must be the control plane\'s API root');
  }
  const catalog = parseCatalog(index.body, parseVendorMediaType(index.contentType)?.vendor ?? vendor);
  catalog.warnings.unshift(...checkIndex(index.body));
  if (catalog.resources.length === 0) {
    throw new ProtocolError(`the discovery index at ${url} lists no usable resource`, catalog.warnings[0] ?? 'the token may have access to nothing here');
  }
  return catalog;
}
