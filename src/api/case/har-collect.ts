// What reading a case gathers, entry by entry, whatever its layout: what describes each request (bodies
// stay in the file, or for a browser's export in memory when small, else in a private temporary file),
// the pages, the control planes whose index it holds, and every credential it recorded — collected to be
// masked, and masked in the headers kept.

import { mkdtempSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Catalog } from '../hal/catalog.js';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { authorizationCredential, redactHeaders, redactText } from '../security/redact.js';
import { baseOf, isUnder } from '../urls.js';
import type { RecordedApi, RecordedExchange, RecordedPage, RecordedTrail, TrailOptions } from './recorded.js';
import { TRUNCATED_COMMENT } from './har-entry.js';
import { type Attachment, contentText, indexCatalog } from './har-body.js';

export const NOT_A_CASE_HINT =
  "give a HAR file written by dpx --trail, by T in the explorer, or exported from a browser's developer tools";
/** Bodies of a browser's export up to this size are kept in memory; larger ones in a private temporary file. */
const KEPT_BODY_CHARS = 64 * 1024;

/** Where a body is: a line of the case (dpx's layout), in memory, or in the spill file (a browser's export). */
export type BodyAt = { line: number; length: number } | { text: string } | { spill: number; length: number };

/** A recorded answer that is a discovery index: read when its entry is, so no body waits in memory. */
interface FoundIndex {
  exchange: RecordedExchange;
  catalog: Catalog;
}

/** What reading a case gathers, entry by entry, whatever the layout. */
export class Collector {
  creator: Record<string, unknown> | undefined;
  /** Where bodies kept beside the HAR are read; none for a HAR that holds its bodies. */
  attachment: Attachment | undefined;
  sawLog = false;
  repaired: { droppedTornEntry: boolean } | undefined;
  spillFd = -1;
  private spillLength = 0;
  private readonly all: RecordedExchange[] = [];
  private readonly bodies: (BodyAt | undefined)[] = [];
  private readonly pages: RecordedPage[] = [];
  private readonly indexes: FoundIndex[] = [];
  private readonly credentials = new Set<string>();
  private readonly warnings: string[] = [];
  private droppedUserinfo = 0;
  private position = 0;

  constructor(private readonly source: string) {}

  page(value: unknown): void {
    if (!isObject(value) || typeof value['id'] !== 'string') return;
    const dpx = isObject(value['_dpx']) ? value['_dpx'] : undefined;
    const text = (name: string, from: Record<string, unknown> | undefined = value) =>
      typeof from?.[name] === 'string' ? (from[name] as string) : undefined;
    const argv = Array.isArray(dpx?.['argv'])
      ? dpx['argv'].filter((arg): arg is string => typeof arg === 'string')
      : undefined;
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

  /** One entry: what describes it kept, its body left where `bodyAt` says (`text` reads the body). */
  entry(value: unknown, bodyAt: (text: () => string | undefined) => BodyAt): void {
    const position = this.position;
    this.position += 1;
    const content =
      isObject(value) && isObject(value['response']) && isObject(value['response']['content'])
        ? value['response']['content']
        : {};
    // Read once, when first asked for: a body in a file beside the HAR is otherwise read for each question.
    let read: { text: string | undefined } | undefined;
    const text = () => {
      read ??= { text: contentText(content, this.attachment) };
      return read.text;
    };
    const exchange = this.readEntry(value, position, text);
    if (!exchange) {
      this.warnings.push(`entry ${position + 1} of ${this.source} has no request method and URL; left out`);
      return;
    }
    if (exchange.hasText) {
      this.bodies[this.all.length] = bodyAt(text);
      if (exchange.method === 'GET' && exchange.status === 200 && !exchange.url.includes('?')) {
        const body = text();
        const catalog = body === undefined ? undefined : indexCatalog(exchange.contentType, body);
        if (catalog) this.indexes.push({ exchange, catalog });
      }
    }
    this.all.push(exchange);
  }

  /** A browser's body: in memory when small, else in a private temporary file removed as soon as it is open. */
  keepBody(text: string): BodyAt {
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
    while (done < bytes.length)
      done += writeSync(this.spillFd, bytes, done, bytes.length - done, this.spillLength + done);
    const at = { spill: this.spillLength, length: bytes.length };
    this.spillLength += bytes.length;
    return at;
  }

  private readEntry(entry: unknown, position: number, text: () => string | undefined): RecordedExchange | undefined {
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
      if (Array.isArray(list))
        for (const cookie of list)
          if (isObject(cookie) && typeof cookie['value'] === 'string') this.secret(cookie['value']);
    }
    const truncated = content['comment'] === TRUNCATED_COMMENT;
    const postData = isObject(request['postData']) ? request['postData']['text'] : undefined;
    const status =
      typeof response['status'] === 'number' && Number.isInteger(response['status']) ? response['status'] : 0;
    const error = [response['_error'], entry['comment']].find(
      (value): value is string => typeof value === 'string' && value !== '',
    );
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
      contentType:
        responseHeaders['content-type'] ?? (typeof content['mimeType'] === 'string' ? content['mimeType'] : ''),
      // A body in a file beside the HAR counts only when that file is there (a HAR sent alone has none).
      hasText:
        !truncated &&
        (typeof content['text'] === 'string' || (typeof content['_file'] === 'string' && text() !== undefined)),
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
      const bodiless = this.all
        .filter(
          (exchange) =>
            exchange.method === 'GET' &&
            exchange.status === 200 &&
            !exchange.hasText &&
            /json/i.test(exchange.contentType),
        )
        // The likeliest index first: a GET without a query.
        .sort((a, b) => Number(a.url.includes('?')) - Number(b.url.includes('?')))[0];
      if (bodiless) {
        const { pathname, search } = new URL(bodiless.url);
        throw new UsageError(
          `${source}: the recording holds GET ${pathname}${search} without its body; record with bodies`,
          "dpx reads the API's index and its answers from the bodies: in a browser's developer tools, " +
            "save the HAR with content; with Playwright, recordHar with content 'embed' or 'attach'",
        );
      }
      throw new UsageError(
        `${source} holds no discovery index, so dpx cannot tell where its API is`,
        'dpx finds the API in a trail by the recorded GET <base URL>/ that answered with the resource index: ' +
          'record from the start of a dpx session, or in a browser, from before the app first loads the API root',
      );
    }
    const warnings = [...this.warnings];
    if (apis.length > 1) {
      const others = apis.slice(1).map((other) => other.baseUrl);
      warnings.push(
        `${source} also holds the index of ${others.join(', ')}; dpx reads the API at ${api.baseUrl}, ` +
          'the first recorded, unless a command recorded elsewhere is asked for',
      );
    }
    const kept: number[] = [];
    this.all.forEach((exchange, index) => {
      if (apis.some((each) => isUnder(exchange.url, each.baseUrl))) kept.push(index);
    });
    if (kept.length < this.all.length)
      warnings.push(
        `${this.all.length - kept.length} of the ${this.all.length} requests in ${source} ` +
          `are not to ${apis.map((each) => each.baseUrl).join(', ')} and are left out`,
      );
    if (this.droppedUserinfo > 0)
      warnings.push(
        `${this.droppedUserinfo} recorded URL${this.droppedUserinfo === 1 ? '' : 's'} in ${source} ` +
          'carried a user or password: dpx dropped it and never sends it',
      );
    if (this.repaired) {
      warnings.push(
        `${source} was not closed (its writer was stopped): its ${this.all.length} whole entries are read` +
          (this.repaired.droppedTornEntry ? ', and a torn last one is left out' : ''),
      );
    }
    const exchanges = kept.map((index) => this.all[index]!);
    const bodies = new Map(kept.map((index) => [this.all[index]!, this.bodies[index]]));
    const credentials = [...this.credentials];
    const creator = this.creator
      ? `${String(this.creator['name'] ?? '')} ${String(this.creator['version'] ?? '')}`.trim()
      : '';
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
    for (const { exchange, catalog } of this.indexes) {
      const baseUrl = baseOf(new URL(exchange.url));
      if (apis.some((api) => api.baseUrl === baseUrl)) continue;
      const ouHeader = `x-${catalog.vendor}-organizationalunit-context`;
      const ou = exchange.requestHeaders[ouHeader];
      apis.push({ baseUrl, vendor: catalog.vendor, catalog, ...(ou ? { ou } : {}) });
    }
    return apis;
  }
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
