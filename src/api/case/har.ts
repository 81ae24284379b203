// Reading a trail back, for offline browsing and replay: a dpx trail (closed, or cut short by a kill) or
// a browser's devtools HAR export. The API inside it is found by its discovery index: the request
// `GET <base>/` whose answer is a resource index gives the base URL, the vendor and the unit; only the
// requests at or below that base URL are kept (a browser's export also holds pages, scripts, images).

import { readFile } from 'node:fs/promises';
import { parseCatalog, type Catalog } from '../hal/catalog.js';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { parseVendorMediaType } from '../media.js';
import { authorizationCredential } from '../security/redact.js';
import { TRUNCATED_COMMENT } from './trail.js';
import { baseOf, isUnder } from '../urls.js';

/** One request of the trail and what came back, as recorded. */
export interface RecordedExchange {
  /** Position in the file's entries, from 0. */
  position: number;
  startedAt: string;
  method: string;
  url: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0 when no response arrived (refused, timed out). */
  status: number;
  statusText: string;
  responseHeaders: Record<string, string>;
  contentType: string;
  /** The body; undefined when the trail holds none, or only its start. */
  text?: string;
  /** The trail kept only the start of the body. */
  truncated: boolean;
  /** Why no response arrived, or what went wrong, as recorded. */
  error?: string;
}

export interface RecordedTrail {
  source: string;
  /** Who wrote the file: `dpx 0.1.0`, `WebInspector 537.36`. */
  creator: string;
  /** The API's base URL, from the recorded discovery index. */
  baseUrl: string;
  vendor: string;
  /** The recorded index, as the catalog it describes. */
  catalog: Catalog;
  /** The header that carried the organizational unit (the default for the vendor unless told otherwise). */
  ouHeader: string;
  /** The unit the index was asked for in, when it was asked for in one. */
  ou?: string;
  /** The requests to the API, in the order recorded. */
  exchanges: RecordedExchange[];
  /** Credentials seen in recorded Authorization headers (a browser's export keeps them): mask them in anything shown. */
  credentials: string[];
  /** The file ended without its tail (a killed dpx): whether a torn last entry was dropped. */
  repaired?: { droppedTornEntry: boolean };
  warnings: string[];
}

export interface TrailOptions {
  /** The organizational-unit header's name, when it is not the vendor's default. */
  ouHeader?: string;
}

/** Reads and parses a trail file; every problem is a UsageError naming the file. */
export async function readTrail(path: string, options: TrailOptions = {}): Promise<RecordedTrail> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the trail ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, 'give a HAR file written by dpx --trail, by T in the explorer, or exported from a browser\'s developer tools');
  }
  return parseTrail(text, path, options);
}

export function parseTrail(text: string, source: string, options: TrailOptions = {}): RecordedTrail {
  const { document, repaired } = parseHarText(text, source);
  const log = isObject(document) ? document['log'] : undefined;
  if (!isObject(log) || !Array.isArray(log['entries'])) {
    throw new UsageError(`${source} is not a HAR file: it has no log.entries`, 'give a HAR file written by dpx --trail, by T in the explorer, or exported from a browser\'s developer tools');
  }
  const warnings: string[] = [];
  const all: RecordedExchange[] = [];
  log['entries'].forEach((entry, position) => {
    const exchange = readEntry(entry, position);
    if (exchange) all.push(exchange);
    else warnings.push(`entry ${position + 1} of ${source} has no request method and URL; left out`);
  });

  const index = findIndex(all, source);
  const others = new Set(index.others);
  if (others.size > 0) warnings.push(`${source} also holds the index of ${[...others].join(', ')}; dpx reads the API at ${index.baseUrl}, the first recorded`);
  const exchanges = all.filter((exchange) => isUnder(exchange.url, index.baseUrl));
  if (exchanges.length < all.length) warnings.push(`${all.length - exchanges.length} of the ${all.length} requests in ${source} are not to ${index.baseUrl} and are left out`);

  if (repaired) {
    warnings.push(`${source} was not closed (its writer was stopped): its ${all.length} whole entries are read${repaired.droppedTornEntry ? ', and a torn last one is left out' : ''}`);
  }
  const ouHeader = (options.ouHeader ?? `x-${index.vendor}-organizationalunit-context`).toLowerCase();
  const ou = index.exchange.requestHeaders[ouHeader];
  const credentials = [...new Set(all.map((exchange) => authorizationCredential(exchange.requestHeaders)).filter((credential): credential is string => credential !== undefined && !/^\*+$/.test(credential)))];
  const creator = isObject(log['creator']) ? `${String(log['creator']['name'] ?? '')} ${String(log['creator']['version'] ?? '')}`.trim() : '';
  return {
    source,
    creator,
    baseUrl: index.baseUrl,
    vendor: index.vendor,
    catalog: index.catalog,
    ouHeader,
    ...(ou ? { ou } : {}),
    exchanges,
    credentials,
    ...(repaired ? { repaired } : {}),
    warnings,
  };
}

/**
 * The whole document when it parses (a closed dpx trail, a devtools export); else a dpx trail cut short,
 * rebuilt from its head line and one entry per line. Only the last line may be torn: a bad line before
 * it means the file was damaged some other way.
 */
export function parseHarText(text: string, source: string): { document: unknown; repaired?: { droppedTornEntry: boolean } } {
  try {
    return { document: JSON.parse(text) };
  } catch (error) {
    const lines = text.split('\n');
    const head = lines[0] ?? '';
    if (!head.endsWith('"entries":[')) {
      throw new UsageError(`${source} is not a HAR file (not JSON: ${(error as Error).message})`, 'give a HAR file written by dpx --trail, by T in the explorer, or exported from a browser\'s developer tools');
    }
    let document: unknown;
    try {
      document = JSON.parse(`${head}]}}`);
    } catch {
      throw new UsageError(`${source} is not a HAR file: its first line is not the start of one`, 'give a HAR file written by dpx --trail or exported from a browser\'s developer tools');
    }
    const entries: unknown[] = [];
    let droppedTornEntry = false;
    const last = lines.findLastIndex((line) => line.trim() !== '');
    for (let i = 1; i <= last; i += 1) {
      const line = lines[i] ?? '';
      if (line.trim() === '') continue;
      try {
        entries.push(JSON.parse(line.startsWith(',') ? line.slice(1) : line));
      } catch {
        if (i !== last) throw new UsageError(`${source} is damaged at line ${i + 1}`, 'only the last entry of a trail can be cut short (by a kill); this file was changed some other way');
        droppedTornEntry = true;
      }
    }
    if (isObject(document) && isObject(document['log'])) document['log']['entries'] = entries;
    return { document, repaired: { droppedTornEntry } };
  }
}

function readEntry(entry: unknown, position: number): RecordedExchange | undefined {
  if (!isObject(entry) || !isObject(entry['request'])) return undefined;
  const request = entry['request'];
  const method = request['method'];
  const url = request['url'];
  if (typeof method !== 'string' || typeof url !== 'string' || method === '' || url === '') return undefined;
  const response = isObject(entry['response']) ? entry['response'] : {};
  const content = isObject(response['content']) ? response['content'] : {};
  const responseHeaders = headerRecord(response['headers']);
  const truncated = content['comment'] === TRUNCATED_COMMENT;
  const text = truncated ? undefined : contentText(content);
  const postData = isObject(request['postData']) ? request['postData']['text'] : undefined;
  const status = typeof response['status'] === 'number' && Number.isInteger(response['status']) ? response['status'] : 0;
  const error = [response['_error'], entry['comment']].find((value): value is string => typeof value === 'string' && value !== '');
  return {
    position,
    startedAt: typeof entry['startedDateTime'] === 'string' ? entry['startedDateTime'] : '',
    method: method.toUpperCase(),
    url,
    requestHeaders: headerRecord(request['headers']),
    ...(typeof postData === 'string' ? { requestBody: postData } : {}),
    status,
    statusText: typeof response['statusText'] === 'string' ? response['statusText'] : '',
    responseHeaders,
    contentType: responseHeaders['content-type'] ?? (typeof content['mimeType'] === 'string' ? content['mimeType'] : ''),
    ...(text === undefined ? {} : { text }),
    truncated,
    ...(error === undefined ? {} : { error }),
  };
}

/** A body as text: browsers store binary and sometimes JSON as base64. */
function contentText(content: Record<string, unknown>): string | undefined {
  const text = content['text'];
  if (typeof text !== 'string') return undefined;
  return content['encoding'] === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

function headerRecord(headers: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (!Array.isArray(headers)) return record;
  for (const header of headers) {
    if (!isObject(header) || typeof header['name'] !== 'string' || typeof header['value'] !== 'string') continue;
    const name = header['name'].toLowerCase();
    record[name] = record[name] === undefined ? header['value'] : `${record[name]}, ${header['value']}`;
  }
  return record;
}

interface FoundIndex {
  exchange: RecordedExchange;
  baseUrl: string;
  vendor: string;
  catalog: Catalog;
  /** Base URLs of further indexes recorded for other control planes. */
  others: string[];
}

/** The first recorded GET without a query whose answer is a resource index, and the base URL it is at. */
function findIndex(exchanges: RecordedExchange[], source: string): FoundIndex {
  let found: FoundIndex | undefined;
  for (const exchange of exchanges) {
    if (exchange.method !== 'GET' || exchange.status !== 200 || exchange.text === undefined) continue;
    let url: URL;
    try {
      url = new URL(exchange.url);
    } catch {
      continue;
    }
    if (url.search !== '') continue;
    const catalog = indexCatalog(exchange);
    if (!catalog) continue;
    const baseUrl = baseOf(url);
    if (!found) found = { exchange, baseUrl, vendor: catalog.vendor, catalog, others: [] };
    else if (baseUrl !== found.baseUrl) found.others.push(baseUrl);
  }
  if (!found) {
    throw new UsageError(
      `${source} holds no discovery index, so dpx cannot tell where its API is`,
      'dpx finds the API in a trail by the recorded GET <base URL>/ that answered with the resource index: record from the start of a dpx session, or in a browser, from before the app first loads the API root',
    );
  }
  return found;
}

function indexCatalog(exchange: RecordedExchange): Catalog | undefined {
  let body: unknown;
  try {
    body = JSON.parse(exchange.text ?? '');
  } catch {
    return undefined;
  }
  if (!isObject(body) || isObject(body['_embedded'])) return undefined;
  const vendor = parseVendorMediaType(exchange.contentType)?.vendor ?? 'service';
  const catalog = parseCatalog(body, vendor);
  return catalog.resources.length > 0 ? catalog : undefined;
}
