// The trail: every exchange as a HAR 1.2 entry, for browser developer tools, a support ticket, and dpx's
// own offline browsing and replay (har.ts reads it back).
//
// The file is written append-only, so an entry costs the same whatever the file's size: the HAR document
// up to its `"entries":[`, then one line per entry, and on a clean close the tail `]}}` that makes it
// strict HAR for devtools. A kill (even SIGKILL) can only cut the file short — Linux stops a write to the
// page cache between pages, never leaving a hole — so the tail is missing and the last line may be a torn
// entry; dpx's reader drops that line and keeps every entry before it. `writeSnapshot` writes the entries
// so far with the tail: a complete HAR at any moment.
//
// One entry per line (JSON.stringify never writes a raw line break); the comma leads an entry's line, so
// a cut never leaves a whole entry followed by a dangling comma:
//   {"log":{"version":"1.2","creator":{…},"pages":[],"entries":[
//   {entry 1}
//   ,{entry 2}
//   ]}}

import { closeSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import packageJson from '../../../package.json' with { type: 'json' };
import { UsageError } from '../errors.js';
import type { Exchange, ExchangeResponse } from '../exchange.js';
import { authorizationCredential, redactHeaders, redactValue } from '../security/redact.js';

/** What closes the entries array and the document; written on a clean close, and ending every snapshot. */
export const TRAIL_TAIL = '\n]}}\n';
/** How a trail marks a body it kept only the start of; the reader will not answer from such a body. */
export const TRUNCATED_COMMENT = 'body truncated by dpx';
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
  /** Bytes written so far: the head and every whole entry, never the tail. */
  private length: number;
  private entries = 0;
  private scratch = Buffer.alloc(0);
  /** Credentials seen in the Authorization headers recorded so far, masked wherever else they appear. */
  private readonly seenCredentials = new Set<string>();

  private constructor(path: string, secrets: () => string[], fd: number, length: number, ownedDir?: string) {
    this.path = path;
    this.secrets = secrets;
    this.fd = fd;
    this.length = length;
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
    const document = JSON.stringify({ log: { version: '1.2', creator: { name: 'dpx', version: packageJson.version }, pages: [], entries: [] } });
    // Serialised with `entries` last, so the head is the document without its closing `]}}`.
    const head = document.slice(0, -']}}'.length);
    // Written beside the target and renamed, so there is never an empty or partial file at `path`.
    const partial = `${path}.partial`;
    try {
      rmSync(partial, { force: true });
      writeFileSync(partial, head, { mode: 0o600 });
      renameSync(partial, path);
      return new HarTrail(path, secrets, openSync(path, 'r+'), Buffer.byteLength(head), ownedDir);
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
    const entry = redactValue(harEntry(exchange, secrets), secrets);
    const json = JSON.stringify(entry);
    const separator = this.entries > 0 ? '\n,' : '\n';
    // Encoded into one buffer kept for the next entry: a template string joining the separator to the
    // entry would be flattened (a copy of the whole entry) before being encoded into a new buffer, and
    // that cost more than stringifying it. UTF-8 takes at most 3 bytes per UTF-16 unit.
    const room = separator.length + 3 * json.length;
    if (this.scratch.length < room) this.scratch = Buffer.allocUnsafe(room);
    const written = this.scratch.write(separator, 0, 'latin1');
    const line = this.scratch.subarray(0, written + this.scratch.write(json, written));
    writeAt(this.fd, line, this.length);
    this.length += line.length;
    this.entries += 1;
  };

  get entryCount(): number {
    return this.entries;
  }

  /** The trail so far, as its own strict HAR file (owner-only permissions: it holds API data). */
  async writeSnapshot(path: string): Promise<void> {
    const target = resolve(path);
    if (target === this.path) return;
    // The entries written by now; ones recorded while the copy runs are cut off again below.
    const length = this.length;
    try {
      await copyFile(this.path, target);
      await chmod(target, 0o600);
      const file = await open(target, 'r+');
      try {
        await file.truncate(length);
        await file.write(TRAIL_TAIL, length);
      } finally {
        await file.close();
      }
    } catch (error) {
      throw new UsageError(`cannot write the trail to ${target}: ${(error as Error).message}`, 'choose a file in a folder you can write to');
    }
  }

  /** Ends the document with its tail, so the file is strict HAR; a temporary trail is removed. */
  async close(): Promise<void> {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      writeAt(fd, Buffer.from(TRAIL_TAIL), this.length);
    } finally {
      closeSync(fd);
    }
    if (this.ownedDir !== undefined) await rm(this.ownedDir, { recursive: true, force: true });
  }
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
  const size = response.size ?? Buffer.byteLength(response.body);
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
      ...(response.bodyTruncated ? { comment: TRUNCATED_COMMENT } : {}),
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
