// Reading a case back, for offline browsing, replay and `dpx case`: dpx's own (layout.ts: one JSON line
// per entry, read line by line) or any other HAR, such as a browser's devtools export (read with a
// streaming JSON parser). Either way it is read as a stream and only what describes each request stays
// in memory: a body is read from the file again when it is asked for (`text`), so a case far larger
// than memory opens. The API inside is found by its discovery index: the request `GET <base>/` whose
// answer is a resource index gives the base URL, the vendor and the unit; only the requests at or below
// that base URL are kept (a browser's export also holds pages, scripts, images).
//
// Nothing recorded to authenticate is kept where it could be shown: Authorization, Cookie and
// Set-Cookie headers (and their kind) are masked as they are read, the credentials they carried (and a
// URL's user and password, which are dropped from the URL) are collected so that they are masked
// wherever else they appear, bodies included.

import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSONParser } from '@streamparser/json';
import { parseCatalog, type Catalog } from '../hal/catalog.js';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { parseVendorMediaType } from '../media.js';
import { authorizationCredential, redactHeaders, redactText } from '../security/redact.js';
import { TRUNCATED_COMMENT } from './trail.js';
import { baseOf, isUnder } from '../urls.js';

/** One request of the case and what came back, as recorded; its body is read with `RecordedTrail.text`. */
export interface RecordedExchange {
  /** Position in the file's entries, from 0. */
  position: number;
  /** The page (a dpx command, a browser's page) the entry belongs to. */
  pageref?: string;
  startedAt: string;
  method: string;
  /** Normalised (`..` resolved), without any user or password. */
  url: string;
  /** Header names in lower case; repeated headers joined with ", "; credentials masked. */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0 when no response arrived (refused, timed out). */
  status: number;
  statusText: string;
  responseHeaders: Record<string, string>;
  contentType: string;
  /** The case holds the whole body. */
  hasText: boolean;
  /** The case kept only the start of the body. */
  truncated: boolean;
  /** Why no response arrived, or what went wrong, as recorded. */
  error?: string;
}

/** One command of a dpx case, or one page of a browser's export. */
export interface RecordedPage {
  id: string;
  /** dpx: the command line (secrets masked); a browser: the page's title. */
  title: string;
  startedAt: string;
  endedAt?: string;
  /** dpx: the arguments after `dpx`. */
  argv?: string[];
  profile?: string;
  baseUrl?: string;
  /** dpx: the organizational unit the command ran in. */
  unit?: string;
}

/** One control plane whose discovery index the case holds. */
export interface RecordedApi {
  baseUrl: string;
  vendor: string;
  catalog: Catalog;
  /** The unit the index was first asked for in, when it was asked for in one. */
  ou?: string;
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
  /** Every control plane whose index the case holds, the one above first. */
  apis: RecordedApi[];
  /** The requests to those control planes, in the order recorded. */
  exchanges: RecordedExchange[];
  /** The commands (dpx) or pages (a browser), in the order written. */
  pages: RecordedPage[];
  /** Credentials seen in recorded headers, cookies and URLs: mask them in anything shown. */
  credentials: string[];
  /** The file ended without its tail (a trail of an earlier dpx, killed): whether a torn last entry was dropped. */
  repaired?: { droppedTornEntry: boolean };
  warnings: string[];
  /** A recorded body, read from the file when asked; undefined when the case holds none, or only its start. */
  text(exchange: RecordedExchange): Promise<string | undefined>;
}

export interface TrailOptions {
  /** The organizational-unit header's name, when it is not the vendor's default. */
  ouHeader?: string;
}

const NOT_A_CASE_HINT = "give a HAR file written by dpx --trail, by T in the explorer, or exported from a browser's developer tools";
/** Bodies of a browser's export up to this size are kept in memory; larger ones in a private temporary file. */
const KEPT_BODY_CHARS = 64 * 1024;
/** An answer this large is not a discovery index. */
const MAX_INDEX_CHARS = 8 * 1024 * 1024;
const READ_CHUNK = 1 << 20;

/** Where a body is: a line of the case (dpx's layout), in memory, or in the spill file (a browser's export). */
type BodyAt = { line: number; length: number } | { text: string } | { spill: number; length: number };

/** Reads a case as a stream; every problem is a UsageError naming the file. */
export async function readTrail(path: string, options: TrailOptions = {}): Promise<RecordedTrail> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`cannot read the trail ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, NOT_A_CASE_HINT);
  }
  // The descriptor stays open for the bodies asked later: it keeps this version of the file, whatever
  // a writer renames over the path meanwhile.
  const collector = new Collector(path);
  const first = Buffer.alloc(4096);
  const firstLength = readSync(fd, first, 0, first.length, 0);
  const firstLine = first.subarray(0, firstLength).toString('utf8').split('\n', 1)[0] ?? '';
  if (firstLine.startsWith('{"log":') && firstLine.endsWith('"entries":[')) {
    readLines(fd, path, collector);
  } else {
    closeSync(fd);
    fd = -1;
    await readStreaming(path, collector);
  }
  return collector.finish(options, async (at) => {
    if ('text' in at) return at.text;
    if ('spill' in at) return readText(collector.spillFd, at.spill, at.length);
    const line = readText(fd, at.line, at.length);
    const entry: unknown = JSON.parse(line.startsWith(',') ? line.slice(1) : line);
    const response = isObject(entry) && isObject(entry['response']) ? entry['response'] : {};
    return contentText(isObject(response['content']) ? response['content'] : {});
  });
}

/** A case given as text (tests, small files): read the same way, its bodies kept in memory. */
export function parseTrail(text: string, source: string, options: TrailOptions = {}): RecordedTrail {
  const { document, repaired } = parseHarText(text, source);
  const collector = new Collector(source);
  const log = isObject(document) ? document['log'] : undefined;
  if (!isObject(log) || !Array.isArray(log['entries'])) throw new UsageError(`${source} is not a HAR file: it has no log.entries`, NOT_A_CASE_HINT);
  collector.sawLog = true;
  if (isObject(log['creator'])) collector.creator = log['creator'];
  if (Array.isArray(log['pages'])) for (const page of log['pages']) collector.page(page);
  for (const entry of log['entries']) collector.entry(entry, (content) => ({ text: contentText(content) ?? '' }));
  if (repaired) collector.repaired = repaired;
  return collector.finish(options, async (at) => ('text' in at ? at.text : undefined));
}

/**
 * The whole document when it parses (a case, a devtools export); else a trail of an earlier dpx cut
 * short, rebuilt from its head line and one entry per line. Only the last line may be torn: a bad line
 * before it means the file was damaged some other way.
 */
export function parseHarText(text: string, source: string): { document: unknown; repaired?: { droppedTornEntry: boolean } } {
  try {
    return { document: JSON.parse(text) };
  } catch (error) {
    const lines = text.split('\n');
    const head = lines[0] ?? '';
    if (!head.endsWith('"entries":[')) {
      throw new UsageError(`${source} is not a HAR file (not JSON: ${(error as Error).message})`, NOT_A_CASE_HINT);
    }
    let document: unknown;
    try {
      document = JSON.parse(`${head}]}}`);
    } catch {
      throw new UsageError(`${source} is not a HAR file: its first line is not the start of one`, NOT_A_CASE_HINT);
    }
    const entries: unknown[] = [];
    let droppedTornEntry = false;
    const last = lines.findLastIndex((line) => line.trim() !== '');
    for (let i = 1; i <= last; i += 1) {
      const line = lines[i] ?? '';
      if (line.trim() === '' || line.startsWith(']')) continue;
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

/** dpx's layout: the head line, one entry per line, then (a case) the pages line and one page per line. */
function readLines(fd: number, source: string, collector: Collector): void {
  collector.sawLog = true;
  let section: 'head' | 'entries' | 'pages' | 'end' = 'head';
  let lineNumber = 0;
  let pendingError: { line: number; error: Error } | undefined;
  eachLine(fd, (line, offset, length) => {
    lineNumber += 1;
    if (pendingError) throw new UsageError(`${source} is damaged at line ${pendingError.line}`, 'only the last entry of a trail can be cut short (by a kill); this file was changed some other way');
    if (section === 'head') {
      let head: { log?: { creator?: unknown } };
      try {
        head = JSON.parse(`${line}]}}`) as typeof head;
      } catch {
        throw new UsageError(`${source} is not a HAR file: its first line is not the start of one`, NOT_A_CASE_HINT);
      }
      if (isObject(head.log?.creator)) collector.creator = head.log.creator;
      section = 'entries';
      return;
    }
    if (line.trim() === '') return;
    if (section === 'entries' && line.startsWith(']')) {
      section = line.startsWith('],"pages":[') ? 'pages' : 'end';
      return;
    }
    if (section === 'pages' && line.startsWith(']')) {
      section = 'end';
      return;
    }
    if (section === 'end') return;
    let value: unknown;
    try {
      value = JSON.parse(line.startsWith(',') ? line.slice(1) : line);
    } catch (error) {
      pendingError = { line: lineNumber, error: error as Error };
      return;
    }
    if (section === 'pages') collector.page(value);
    else collector.entry(value, () => ({ line: offset, length }));
  });
  // A file of this layout that stops before its end was cut short by a kill (an earlier dpx wrote
  // entries into the file itself): its torn last line is left out. A case is renamed into place whole.
  if ((section as string) !== 'end') collector.repaired = { droppedTornEntry: pendingError !== undefined };
  else if (pendingError) throw new UsageError(`${source} is damaged at line ${pendingError.line}`, 'this file was changed by something other than dpx');
}

/** Calls `onLine` with each line's text, its byte offset and its byte length, reading the file in chunks. */
function eachLine(fd: number, onLine: (line: string, offset: number, length: number) => void): void {
  const chunk = Buffer.allocUnsafe(READ_CHUNK);
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let lineStart = 0;
  let position = 0;
  for (;;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(10, from);
      if (newline < 0 || newline >= read) break;
      const tail = chunk.subarray(from, newline);
      const bytes = pieceBytes === 0 ? tail : Buffer.concat([...pieces, tail], pieceBytes + tail.length);
      onLine(bytes.toString('utf8'), lineStart, bytes.length);
      pieces = [];
      pieceBytes = 0;
      lineStart += bytes.length + 1;
      from = newline + 1;
    }
    if (from < read) {
      pieces.push(Buffer.from(chunk.subarray(from, read)));
      pieceBytes += read - from;
    }
    position += read;
  }
  if (pieceBytes > 0) {
    const bytes = Buffer.concat(pieces, pieceBytes);
    onLine(bytes.toString('utf8'), lineStart, bytes.length);
  }
}

/** Any other HAR (a browser's export, pretty-printed): streamed through a JSON parser, entry by entry. */
async function readStreaming(path: string, collector: Collector): Promise<void> {
  const parser = new JSONParser({ paths: ['$.log.version', '$.log.creator', '$.log.pages.*', '$.log.entries.*'], keepStack: false, stringBufferSize: 64 * 1024 });
  parser.onValue = ({ value, stack }) => {
    const section = stack[2]?.key;
    if (stack.length === 2) {
      collector.sawLog = true;
      if (isObject(value)) collector.creator = value;
    } else if (section === 'pages') {
      collector.page(value);
    } else if (section === 'entries') {
      collector.sawLog = true;
      collector.entry(value, (content) => collector.keepBody(content));
    }
  };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(`cannot read the trail ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, NOT_A_CASE_HINT);
  }
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    let position = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      position += read;
      if (parser.isEnded) {
        if (chunk.subarray(0, read).toString('utf8').trim() !== '') throw new Error('unexpected text after the document');
        continue;
      }
      parser.write(chunk.subarray(0, read));
      // Let other work (a spinner, a signal) in between large chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path} is not a HAR file (not JSON: ${(error as Error).message})`, NOT_A_CASE_HINT);
  } finally {
    closeSync(fd);
  }
}

function readText(fd: number, offset: number, length: number): string {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, offset + done);
    if (read === 0) throw new UsageError('the case changed while it was read', 'open it again');
    done += read;
  }
  return buffer.toString('utf8');
}

interface Candidate {
  exchange: RecordedExchange;
  text: string;
}

/** What reading a case gathers, entry by entry, whatever the layout. */
class Collector {
  creator: Record<string, unknown> | undefined;
  sawLog = false;
  repaired: { droppedTornEntry: boolean } | undefined;
  spillFd = -1;
  private spillLength = 0;
  private readonly all: RecordedExchange[] = [];
  private readonly bodies: (BodyAt | undefined)[] = [];
  private readonly pages: RecordedPage[] = [];
  private readonly candidates: Candidate[] = [];
  private readonly credentials = new Set<string>();
  private readonly warnings: string[] = [];
  private droppedUserinfo = 0;
  private position = 0;

  constructor(private readonly source: string) {}

  page(value: unknown): void {
    if (!isObject(value) || typeof value['id'] !== 'string') return;
    const dpx = isObject(value['_dpx']) ? value['_dpx'] : undefined;
    const text = (name: string, from: Record<string, unknown> | undefined = value) => (typeof from?.[name] === 'string' ? (from[name] as string) : undefined);
    const argv = Array.isArray(dpx?.['argv']) ? dpx['argv'].filter((arg): arg is string => typeof arg === 'string') : undefined;
    this.pages.push(
      dropUndefined({
        id: value['id'],
        title: text('title') ?? '',
        startedAt: text('startedDateTime') ?? '',
        endedAt: text('endedDateTime', dpx),
        argv,
        profile: text('profile', dpx),
        baseUrl: text('baseUrl', dpx),
        unit: text('unit', dpx),
      }) as RecordedPage,
    );
  }

  /** One entry: what describes it kept, its body left where `bodyAt` says. */
  entry(value: unknown, bodyAt: (content: Record<string, unknown>) => BodyAt): void {
    const position = this.position;
    this.position += 1;
    const exchange = this.readEntry(value, position);
    if (!exchange) {
      this.warnings.push(`entry ${position + 1} of ${this.source} has no request method and URL; left out`);
      return;
    }
    const content = isObject(value) && isObject(value['response']) && isObject(value['response']['content']) ? value['response']['content'] : {};
    if (exchange.hasText) {
      const at = bodyAt(content);
      this.bodies[this.all.length] = at;
      if (exchange.method === 'GET' && exchange.status === 200 && !exchange.url.includes('?')) {
        const text = contentText(content);
        if (text !== undefined && text.length <= MAX_INDEX_CHARS) this.candidates.push({ exchange, text });
      }
    }
    this.all.push(exchange);
  }

  /** A browser's body: in memory when small, else in a private temporary file removed as soon as it is open. */
  keepBody(content: Record<string, unknown>): BodyAt {
    const text = contentText(content) ?? '';
    if (text.length <= KEPT_BODY_CHARS) return { text };
    if (this.spillFd < 0) {
      const dir = mkdtempSync(join(tmpdir(), 'dpx-case-'));
      const file = join(dir, 'bodies');
      this.spillFd = openSync(file, 'w+', 0o600);
      unlinkSync(file);
      rmdirSync(dir);
    }
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    while (done < bytes.length) done += writeSync(this.spillFd, bytes, done, bytes.length - done, this.spillLength + done);
    const at = { spill: this.spillLength, length: bytes.length };
    this.spillLength += bytes.length;
    return at;
  }

  private readEntry(entry: unknown, position: number): RecordedExchange | undefined {
    if (!isObject(entry) || !isObject(entry['request'])) return undefined;
    const request = entry['request'];
    const method = request['method'];
    const rawUrl = request['url'];
    if (typeof method !== 'string' || typeof rawUrl !== 'string' || method === '' || rawUrl === '') return undefined;
    const url = this.cleanUrl(rawUrl);
    if (url === undefined) return undefined;
    const response = isObject(entry['response']) ? entry['response'] : {};
    const content = isObject(response['content']) ? response['content'] : {};
    const requestHeaders = this.headers(request['headers']);
    const responseHeaders = this.headers(response['headers']);
    for (const list of [request['cookies'], response['cookies']]) {
      if (Array.isArray(list)) for (const cookie of list) if (isObject(cookie) && typeof cookie['value'] === 'string') this.secret(cookie['value']);
    }
    const truncated = content['comment'] === TRUNCATED_COMMENT;
    const postData = isObject(request['postData']) ? request['postData']['text'] : undefined;
    const status = typeof response['status'] === 'number' && Number.isInteger(response['status']) ? response['status'] : 0;
    const error = [response['_error'], entry['comment']].find((value): value is string => typeof value === 'string' && value !== '');
    return {
      position,
      ...(typeof entry['pageref'] === 'string' ? { pageref: entry['pageref'] } : {}),
      startedAt: typeof entry['startedDateTime'] === 'string' ? entry['startedDateTime'] : '',
      method: method.toUpperCase(),
      url,
      requestHeaders,
      ...(typeof postData === 'string' ? { requestBody: postData } : {}),
      status,
      statusText: typeof response['statusText'] === 'string' ? response['statusText'] : '',
      responseHeaders,
      contentType: responseHeaders['content-type'] ?? (typeof content['mimeType'] === 'string' ? content['mimeType'] : ''),
      hasText: !truncated && typeof content['text'] === 'string',
      truncated,
      ...(error === undefined ? {} : { error }),
    };
  }

  /** The URL as a request would be sent: `..` resolved, and never with a user or password in it. */
  private cleanUrl(raw: string): string | undefined {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return undefined;
    }
    if (url.username !== '' || url.password !== '') {
      for (const part of [url.username, url.password]) if (part !== '') this.secret(safeDecode(part));
      url.username = '';
      url.password = '';
      this.droppedUserinfo += 1;
    }
    return url.href;
  }

  /** Header names in lower case, credentials collected, then masked. */
  private headers(headers: unknown): Record<string, string> {
    const record: Record<string, string> = {};
    if (!Array.isArray(headers)) return record;
    for (const header of headers) {
      if (!isObject(header) || typeof header['name'] !== 'string' || typeof header['value'] !== 'string') continue;
      const name = header['name'].toLowerCase();
      record[name] = record[name] === undefined ? header['value'] : `${record[name]}, ${header['value']}`;
    }
    const credential = authorizationCredential(record);
    if (credential !== undefined) this.secret(credential);
    const proxy = record['proxy-authorization']?.trim().split(/\s+/).slice(1).join(' ');
    if (proxy) this.secret(proxy);
    for (const cookie of [record['cookie'], record['set-cookie']]) {
      if (cookie === undefined) continue;
      for (const pair of cookie.split(/[;,]\s*/)) {
        const value = pair.slice(pair.indexOf('=') + 1).trim();
        if (pair.includes('=') && value.length >= 8) this.secret(value);
      }
    }
    return redactHeaders(record);
  }

  private secret(value: string): void {
    if (value !== '' && !/^\*+$/.test(value)) this.credentials.add(value);
  }

  finish(options: TrailOptions, load: (at: BodyAt) => Promise<string | undefined>): RecordedTrail {
    const source = this.source;
    if (!this.sawLog) throw new UsageError(`${source} is not a HAR file: it has no log.entries`, NOT_A_CASE_HINT);
    const apis = this.findApis();
    const [api] = apis;
    if (!api) {
      throw new UsageError(
        `${source} holds no discovery index, so dpx cannot tell where its API is`,
        'dpx finds the API in a trail by the recorded GET <base URL>/ that answered with the resource index: record from the start of a dpx session, or in a browser, from before the app first loads the API root',
      );
    }
    const warnings = [...this.warnings];
    if (apis.length > 1) warnings.push(`${source} also holds the index of ${apis.slice(1).map((other) => other.baseUrl).join(', ')}; dpx reads the API at ${api.baseUrl}, the first recorded, unless a command recorded elsewhere is asked for`);
    const kept: number[] = [];
    this.all.forEach((exchange, index) => {
      if (apis.some((each) => isUnder(exchange.url, each.baseUrl))) kept.push(index);
    });
    if (kept.length < this.all.length) warnings.push(`${this.all.length - kept.length} of the ${this.all.length} requests in ${source} are not to ${apis.map((each) => each.baseUrl).join(', ')} and are left out`);
    if (this.droppedUserinfo > 0) warnings.push(`${this.droppedUserinfo} recorded URL${this.droppedUserinfo === 1 ? '' : 's'} in ${source} carried a user or password: dpx dropped it and never sends it`);
    if (this.repaired) {
      warnings.push(`${source} was not closed (its writer was stopped): its ${this.all.length} whole entries are read${this.repaired.droppedTornEntry ? ', and a torn last one is left out' : ''}`);
    }
    const exchanges = kept.map((index) => this.all[index]!);
    const bodies = new Map(kept.map((index) => [this.all[index]!, this.bodies[index]]));
    const credentials = [...this.credentials];
    const creator = this.creator ? `${String(this.creator['name'] ?? '')} ${String(this.creator['version'] ?? '')}`.trim() : '';
    const ouHeader = (options.ouHeader ?? `x-${api.vendor}-organizationalunit-context`).toLowerCase();
    return {
      source,
      creator,
      baseUrl: api.baseUrl,
      vendor: api.vendor,
      catalog: api.catalog,
      ouHeader,
      ...(api.ou ? { ou: api.ou } : {}),
      apis,
      exchanges,
      pages: this.pages,
      credentials,
      ...(this.repaired ? { repaired: this.repaired } : {}),
      warnings,
      text: async (exchange) => {
        const at = bodies.get(exchange);
        if (!at) return undefined;
        const text = await load(at);
        // A browser's export holds what it authenticated with, and a body may repeat it.
        return text === undefined || credentials.length === 0 ? text : redactText(text, credentials);
      },
    };
  }

  /** Every recorded GET without a query answered with a resource index, one per base URL, in the order recorded. */
  private findApis(): RecordedApi[] {
    const apis: RecordedApi[] = [];
    for (const { exchange, text } of this.candidates) {
      const catalog = indexCatalog(exchange, text);
      if (!catalog) continue;
      const baseUrl = baseOf(new URL(exchange.url));
      if (apis.some((api) => api.baseUrl === baseUrl)) continue;
      const ouHeader = `x-${catalog.vendor}-organizationalunit-context`;
      const ou = exchange.requestHeaders[ouHeader];
      apis.push({ baseUrl, vendor: catalog.vendor, catalog, ...(ou ? { ou } : {}) });
    }
    return apis;
  }
}

/** A body as text: browsers store binary and sometimes JSON as base64. */
function contentText(content: Record<string, unknown>): string | undefined {
  const text = content['text'];
  if (typeof text !== 'string' || content['comment'] === TRUNCATED_COMMENT) return undefined;
  return content['encoding'] === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

function indexCatalog(exchange: RecordedExchange, text: string): Catalog | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(body) || isObject(body['_embedded'])) return undefined;
  const vendor = parseVendorMediaType(exchange.contentType)?.vendor ?? 'service';
  const catalog = parseCatalog(body, vendor);
  return catalog.resources.length > 0 ? catalog : undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The recorded organizational unit of an exchange: the value of the unit header, or undefined. */
export function recordedUnit(trail: Pick<RecordedTrail, 'ouHeader'>, exchange: RecordedExchange): string | undefined {
  return exchange.requestHeaders[trail.ouHeader] || undefined;
}

/** The case seen from another of its control planes (a command recorded against another profile). */
export function withApi(trail: RecordedTrail, baseUrl: string, options: TrailOptions = {}): RecordedTrail {
  const api = trail.apis.find((each) => each.baseUrl === baseUrl);
  if (!api || api === trail.apis[0]) return trail;
  const { ou: _ou, ...rest } = trail;
  return {
    ...rest,
    baseUrl: api.baseUrl,
    vendor: api.vendor,
    catalog: api.catalog,
    ouHeader: (options.ouHeader ?? `x-${api.vendor}-organizationalunit-context`).toLowerCase(),
    ...(api.ou ? { ou: api.ou } : {}),
  };
}
