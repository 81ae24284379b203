// The trail: every exchange as a HAR 1.2 entry, for browser developer tools or a support ticket.
//
// The file is a complete HAR document after every entry. It always ends with the closing `]}}` of the
// entries array, and a new entry replaces that tail with `,<entry>]}}`, so that a crash (even SIGKILL)
// between or during records leaves every entry already written readable and the JSON whole.
//
// Linux stops a write to the page cache between pages when the process is killed, so a positional
// write that spans a page boundary can land half-way (measured here: 2 MB entries written in a loop
// and killed at random were torn about one time in twenty). Only a write inside one page is
// all-or-nothing; a larger entry goes into a copy of the file that is then renamed over it. That costs
// a copy of the trail per large entry (about 2 ms per MB here).

import { closeSync, copyFileSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { copyFile, chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { UsageError } from './errors.js';
import type { Exchange, ExchangeResponse } from './exchange.js';
import { redactHeaders, redactText } from './redact.js';

const TAIL = ']}}';
/** The smallest page size of the platforms Node runs on: a write inside one such page is never torn. */
const PAGE_SIZE = 4096;
const HTTP_VERSION = 'HTTP/1.1';

interface HarHeader {
  name: string;
  value: string;
}

export class HarTrail {
  readonly path: string;
  private readonly secrets: () => string[];
  private readonly ownedDir: string | undefined;
  private fd: number | undefined;
  /** Byte offset of the tail `]}}`, where the next entry goes. */
  private tailOffset: number;
  private entries = 0;
  /** Credentials seen in the Authorization headers recorded so far, masked wherever else they appear. */
  private readonly seenCredentials = new Set<string>();

  private constructor(path: string, secrets: () => string[], fd: number, tailOffset: number, ownedDir?: string) {
    this.path = path;
    this.secrets = secrets;
    this.fd = fd;
    this.tailOffset = tailOffset;
    this.ownedDir = ownedDir;
  }

  /**
   * Starts a new trail at `path`, replacing any file there. `secrets` is asked on every record, so a
   * token that changes during the session (another profile) is still masked.
   */
  static async open(path: string, secrets: () => string[]): Promise<HarTrail> {
    return HarTrail.create(resolve(path), secrets);
  }

  /** A trail in a private temporary folder, removed on close: for `T` when no --trail file was given. */
  static async temporary(secrets: () => string[]): Promise<HarTrail> {
    const dir = await mkdtemp(join(tmpdir(), 'dpx-trail-'));
    return HarTrail.create(join(dir, 'trail.har'), secrets, dir);
  }

  private static create(path: string, secrets: () => string[], ownedDir?: string): HarTrail {
    // Serialised with `entries` last, so the document ends with the tail.
    const document = JSON.stringify({ log: { version: '1.2', creator: { name: 'dpx', version: packageJson.version }, pages: [], entries: [] } });
    // Written beside the target and renamed, so there is never an empty or partial file at `path`.
    const partial = partialPath(path);
    try {
      rmSync(partial, { force: true });
      writeFileSync(partial, document, { mode: 0o600 });
      renameSync(partial, path);
      return new HarTrail(path, secrets, openSync(path, 'r+'), Buffer.byteLength(document) - TAIL.length, ownedDir);
    } catch (error) {
      throw new UsageError(`cannot write the trail ${path}: ${(error as Error).message}`, 'give --trail a file in a folder you can write to');
    }
  }

  /** Appends one entry. An arrow function, so `onExchange: trail.record` works as is; no-op once closed. */
  readonly record = (exchange: Exchange): void => {
    if (this.fd === undefined) return;
    const credential = authorizationCredential(exchange.request.headers);
    if (credential !== undefined) this.seenCredentials.add(credential);
    const secrets = [...this.secrets(), ...this.seenCredentials].filter((secret) => secret !== '');
    const entry = redactStrings(harEntry(exchange, secrets), secrets);
    const chunk = Buffer.from(`${this.entries > 0 ? ',' : ''}${JSON.stringify(entry)}${TAIL}`);
    const withinOnePage = Math.floor(this.tailOffset / PAGE_SIZE) === Math.floor((this.tailOffset + chunk.length - 1) / PAGE_SIZE);
    if (withinOnePage) writeAt(this.fd, chunk, this.tailOffset);
    else this.fd = this.replaceWith(chunk, this.fd);
    this.tailOffset += chunk.length - TAIL.length;
    this.entries += 1;
  };

  /** Writes the chunk into a copy of the trail and renames the copy over it; returns the copy's descriptor. */
  private replaceWith(chunk: Buffer, fd: number): number {
    const copy = partialPath(this.path);
    let copyFd: number | undefined;
    try {
      copyFileSync(this.path, copy);
      copyFd = openSync(copy, 'r+');
      writeAt(copyFd, chunk, this.tailOffset);
      renameSync(copy, this.path);
    } catch (error) {
      if (copyFd !== undefined) closeSync(copyFd);
      rmSync(copy, { force: true });
      throw error;
    }
    closeSync(fd);
    return copyFd;
  }

  get entryCount(): number {
    return this.entries;
  }

  /** The trail so far, as its own HAR file (owner-only permissions: it holds API data). */
  async writeSnapshot(path: string): Promise<void> {
    const target = resolve(path);
    if (target === this.path) return;
    try {
      await copyFile(this.path, target);
      await chmod(target, 0o600);
    } catch (error) {
      throw new UsageError(`cannot write the trail to ${target}: ${(error as Error).message}`, 'choose a file in a folder you can write to');
    }
  }

  async close(): Promise<void> {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    if (this.ownedDir !== undefined) await rm(this.ownedDir, { recursive: true, force: true });
  }
}

/** The credential part of an Authorization header (after its scheme), so a token the trail was not told of is masked too. */
function authorizationCredential(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const credential = value?.trim().split(/\s+/).slice(1).join(' ');
  return credential ? credential : undefined;
}

/** One fixed name per trail, so a copy left by a kill is reused by the next record, not piled up. */
function partialPath(path: string): string {
  return `${path}.partial`;
}

function writeAt(fd: number, chunk: Buffer, position: number): void {
  let written = 0;
  while (written < chunk.length) written += writeSync(fd, chunk, written, chunk.length - written, position + written);
}

function harEntry(exchange: Exchange, secrets: string[]): Record<string, unknown> {
  const { request, response, error } = exchange;
  const time = Math.max(0, exchange.durationMs);
  const requestHeaders = harHeaders(request.headers, secrets);
  const entry: Record<string, unknown> = {
    startedDateTime: exchange.startedAt.toISOString(),
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      headers: requestHeaders,
      queryString: queryString(request.url),
      cookies: [],
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
      ...(request.body === undefined
        ? {}
        : { postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? 'application/octet-stream', text: request.body } }),
    },
    response: response === undefined ? failedResponse(error ?? 'no response') : harResponse(response, secrets, error),
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
  };
  if (error !== undefined) entry['comment'] = error;
  return entry;
}

function harResponse(response: ExchangeResponse, secrets: string[], error: string | undefined): Record<string, unknown> {
  const headers = harHeaders(response.headers, secrets);
  const size = Buffer.byteLength(response.body);
  return {
    status: response.status,
    statusText: response.statusText,
    httpVersion: HTTP_VERSION,
    headers,
    cookies: [],
    content: {
      size,
      mimeType: response.contentType || headerValue(headers, 'content-type') || 'x-unknown',
      text: response.body,
      ...(response.bodyTruncated ? { comment: 'body truncated by dpx' } : {}),
    },
    redirectURL: headerValue(headers, 'location') ?? '',
    headersSize: -1,
    bodySize: size,
    ...(error === undefined ? {} : { _error: error }),
  };
}

/** HAR has no place for "no response": status 0 is what browsers record for a request that failed. */
function failedResponse(error: string): Record<string, unknown> {
  return {
    status: 0,
    statusText: '',
    httpVersion: '',
    headers: [],
    cookies: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    _error: error,
  };
}

function harHeaders(headers: Record<string, string>, secrets: string[]): HarHeader[] {
  return Object.entries(redactHeaders(headers, secrets)).map(([name, value]) => ({ name, value }));
}

function headerValue(headers: HarHeader[], name: string): string | undefined {
  return headers.find((header) => header.name.toLowerCase() === name)?.value;
}

function queryString(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** Every string in the entry, wherever it sits, loses its secrets and JWT-looking values. */
function redactStrings<T>(value: T, secrets: string[]): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, secrets)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, secrets)])) as T;
  }
  return value;
}
