// The discovery index: how it is asked for, kept between runs, and read into a catalog.
import { parseCatalog, type Catalog } from './catalog.js';
import { ApiError, CancelledError, DpxError, messageOf, ProtocolError, ProxyError, withHint } from '../errors.js';
import { isObject } from '../json.js';
import { parseVendorMediaType } from '../media.js';
import { isCertificateProblem } from '../wire/network-words.js';
import type { ApiResponse } from '../wire/response.js';
import { checkIndex } from './schemas.js';

// The index is vendor-neutral to ask for: a generic JSON Accept gets every resource's newest version.
const DISCOVERY_ACCEPT = 'application/json';

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
export function catalogFromIndex(
  index: Pick<StoredIndex, 'body' | 'contentType'>,
  url: string,
  vendor: string,
): Catalog {
  if (!isObject(index.body)) {
    throw new ProtocolError(
      `the discovery index at ${url} is not a JSON object`,
      "check the base URL: it must be the control plane's API root",
    );
  }
  const catalog = parseCatalog(index.body, parseVendorMediaType(index.contentType)?.vendor ?? vendor);
  catalog.warnings.unshift(...checkIndex(index.body));
  if (catalog.resources.length === 0) {
    throw new ProtocolError(
      `the discovery index at ${url} lists no usable resource`,
      `${catalog.warnings[0] ?? 'the token may have access to nothing here'}; ` +
        "or check the base URL: it must be the control plane's API root",
    );
  }
  return catalog;
}

export interface IndexSource {
  baseUrl: string;
  /** Where the index is asked for (the base URL's root), named in the hint of a failure. */
  url: string;
  /** Where the index is kept between runs, if anywhere. */
  store?: IndexStore;
  /** Sends GET / with these headers (the session adds its unit's). */
  ask: (headers: Record<string, string>) => Promise<ApiResponse>;
  /** The vendor to read it with when its Content-Type names none. */
  vendor: string;
  warn: (message: string) => void;
}

/**
 * The discovery index as a catalog: asked for with the kept copy's ETag when there is one (a 304 keeps
 * it), then kept again. `vendor` is the one its Content-Type names, when it names one.
 */
export async function loadIndex(source: IndexSource): Promise<{ catalog: Catalog; vendor?: string }> {
  const stored = await source.store?.read(source.baseUrl).catch(() => undefined);
  const headers: Record<string, string> = { accept: DISCOVERY_ACCEPT };
  if (stored?.etag !== undefined) headers['if-none-match'] = stored.etag;
  const response = await source.ask(headers).catch((error: unknown) => {
    throw indexFailure(error, source.url);
  });
  const checkedAt = Date.now();
  const etag = response.headers['etag'];
  const index: StoredIndex =
    response.status === 304 && stored
      ? { ...stored, checkedAt }
      : { body: response.body, contentType: response.contentType, checkedAt, ...(etag === undefined ? {} : { etag }) };
  const vendor = parseVendorMediaType(index.contentType)?.vendor;
  // An answer that is no index says what it is, with its own hint (an index that lists nothing the token
  // may use is no wrong base URL).
  const catalog = catalogFromIndex(index, response.url, vendor ?? source.vendor);
  for (const warning of catalog.warnings) source.warn(warning);
  await source.store
    ?.write(source.baseUrl, index)
    .catch((error: unknown) => source.warn(`the discovery index was not kept for next time: ${messageOf(error)}`));
  return vendor === undefined ? { catalog } : { catalog, vendor };
}

/**
 * A failure to read the index, with a hint to check the base URL and the URL that was tried: a wrong base
 * URL fails there first, whether it is a 404, an HTML page, a TLS error or a host that is not there. What
 * is about the token (401, 403), the pace (429) or the server's health (5xx), or a refusal for safety,
 * keeps its own hint; so do a certificate not trusted here, a proxy's failure and a cancelled run.
 */
function indexFailure(error: unknown, url: string): unknown {
  if (!(error instanceof DpxError) || error instanceof ProxyError || error.kind === 'safety' || error.kind === 'usage')
    return error;
  if (error instanceof ApiError && [401, 403, 429].includes(error.status)) return error;
  if ((error instanceof ApiError && error.status >= 500) || error instanceof CancelledError) return error;
  if (isCertificateProblem(error.cause)) return error;
  return withHint(
    error,
    `check the base URL: dpx asked ${url} for the discovery index, which should be the control plane's API root ` +
      "(--base-url, DPX_BASE_URL or the profile's baseUrl)",
  );
}
