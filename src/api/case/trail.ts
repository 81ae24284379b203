// The trail: every exchange of a command as a HAR 1.2 entry, appended to a case file (layout.ts) as one
// page per command — for browser developer tools, a support ticket, and dpx's own offline browsing and
// replay (har.ts reads it back).
//
// While the command runs its entries go to a spool of its own beside the case (one line each, so an
// entry costs the same whatever the size of the case). When the command ends, under a lock on the case
// (proper-lockfile: a directory `<case>.lock` whose holder keeps it fresh, taken over once stale, so a
// writer killed with SIGKILL holds it up for seconds, not for ever), the case is copied, the spool
// appended to the copy with the command's page, and the copy renamed over the case. A rename is atomic:
// the file at the case's path is always a whole HAR document — the one before this command or the one
// after — so a kill at any moment leaves a case that devtools and dpx open with every command that ended,
// and concurrent writers each add their command to the case the one before them left.
//
// A file that exists and was not written by dpx (another program's HAR, a text file, an empty file) is
// refused before anything is sent, and never written to.

import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, rmSync, writeSync } from 'node:fs';
import { chmod, copyFile, link, mkdtemp, open, realpath, rename, rm, type FileHandle } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { lock } from 'proper-lockfile';
import { UsageError } from '../errors.js';
import type { Exchange, ExchangeResponse } from '../exchange.js';
import { authorizationCredential, redactHeaders, redactText, redactValue, tokenParts } from '../security/redact.js';
import { CASE_HEAD, caseTail, inspectCase, type CasePage } from './layout.js';

/** How a trail marks a body it kept only the start of; the reader will not answer from such a body. */
export const TRUNCATED_COMMENT = 'body truncated by dpx';
const HTTP_VERSION = 'HTTP/1.1';
/** A lock not refreshed for this long belongs to a writer that is gone (its holder refreshes it every second). */
const STALE_LOCK_MS = 4_000;
/** How long a writer waits for the case's lock, at most: several stale periods. */
const LOCK_WAIT_MS = 60_000;

interface HarHeader {
  name: string;
  value: string;
}

/** What a case's page says about the command that recorded it; the command line is masked when written. */
export interface CommandInfo {
  /** The arguments after `dpx`, as typed. */
  argv: string[];
  profile?: string;
  baseUrl?: string;
  unit?: string;
}

export class HarTrail {
  /** The case this command's entries go into (for a temporary trail: the spool itself). */
  readonly path: string;
  private readonly secrets: () => string[];
  private readonly spool: string;
  private readonly ownedDir: string | undefined;
  private readonly command: CommandInfo | undefined;
  private readonly startedAt = new Date();
  private readonly pageId: string;
  private fd: number | undefined;
  /** Bytes in the spool. */
  private length = 0;
  private entries = 0;
  private scratch = Buffer.alloc(0);
  /** Credentials seen in the Authorization headers recorded so far, masked wherever else they appear. */
  private readonly seenCredentials = new Set<string>();
  private readonly partsOf = new Map<string, string[]>();
  private closing: Promise<void> | undefined;

  private constructor(path: string, secrets: () => string[], spool: string, fd: number, command: CommandInfo | undefined, ownedDir?: string) {
    this.path = path;
    this.secrets = secrets;
    this.spool = spool;
    this.fd = fd;
    this.command = command;
    this.ownedDir = ownedDir;
    this.pageId = `page_${this.startedAt.toISOString().replace(/[-:.]/g, '').replace('T', '_')}_${process.pid}_${randomBytes(3).toString('hex')}`;
  }

  /**
   * Starts recording a command into the case at `path`: a new file, or a case dpx wrote, which gets this
   * command as one more page when it ends (`close`). Any other file is refused (a UsageError) and left
   * as it is. `secrets` is asked on every record, so a token that changes during the session is masked.
   */
  static async open(path: string, secrets: () => string[], command: CommandInfo = { argv: [] }): Promise<HarTrail> {
    const target = await realpath(resolve(path)).catch(() => resolve(path));
    await refuseUnlessOurs(target);
    const spool = join(dirname(target), `.${basename(target)}.${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}.spool`);
    try {
      return new HarTrail(target, secrets, spool, openSync(spool, 'wx', 0o600), command);
    } catch (error) {
      throw new UsageError(`cannot write the case ${target}: ${(error as Error).message}`, 'give --trail a file in a folder you can write to');
    }
  }

  /** A trail in a private temporary folder, removed on close: for `T` when no --trail file was given. */
  static async temporary(secrets: () => string[]): Promise<HarTrail> {
    const dir = await mkdtemp(join(tmpdir(), 'dpx-trail-'));
    const spool = join(dir, 'trail.spool');
    return new HarTrail(spool, secrets, spool, openSync(spool, 'wx', 0o600), undefined, dir);
  }

  /** Appends one entry to the spool. An arrow function, so `onExchange: trail.record` works as is; no-op once closed. */
  readonly record = (exchange: Exchange): void => {
    if (this.fd === undefined) return;
    const credential = authorizationCredential(exchange.request.headers);
    if (credential !== undefined) this.seenCredentials.add(credential);
    const secrets = this.secretParts();
    const entry = redactValue(harEntry(exchange, secrets, this.pageId), secrets);
    const json = JSON.stringify(entry);
    // Encoded into one buffer kept for the next entry: a template string joining the comma to the entry
    // would be flattened (a copy of the whole entry) before being encoded into a new buffer, and that
    // cost more than stringifying it. UTF-8 takes at most 3 bytes per UTF-16 unit.
    const room = 2 + 3 * json.length;
    if (this.scratch.length < room) this.scratch = Buffer.allocUnsafe(room);
    let written = this.scratch.write(',', 0, 'latin1');
    written += this.scratch.write(json, written);
    written += this.scratch.write('\n', written, 'latin1');
    writeAt(this.fd, this.scratch.subarray(0, written), this.length);
    this.length += written;
    this.entries += 1;
  };

  /** Entries recorded by this command so far. */
  get entryCount(): number {
    return this.entries;
  }

  /** This command's trail so far, as a case of its own (owner-only permissions: it holds API data). */
  async writeSnapshot(path: string): Promise<void> {
    const target = resolve(path);
    if (target === this.path) return;
    const length = this.length;
    const partial = `${target}.${process.pid}.partial`;
    try {
      const file = await open(partial, 'w', 0o600);
      try {
        await writeCase(file, 0, CASE_HEAD, this.spool, length, false, caseTail([JSON.stringify(this.page(new Date()))]));
      } finally {
        await file.close();
      }
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw new UsageError(`cannot write the trail to ${target}: ${(error as Error).message}`, 'choose a file in a folder you can write to');
    }
  }

  /** Adds this command to the case (under the case's lock) and removes the spool; a temporary trail is removed. */
  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<void> {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    try {
      if (this.ownedDir === undefined) await this.appendToCase(new Date());
    } finally {
      if (this.ownedDir !== undefined) await rm(this.ownedDir, { recursive: true, force: true });
      else rmSync(this.spool, { force: true });
    }
  }

  private async appendToCase(endedAt: Date): Promise<void> {
    const target = this.path;
    const held = await lockCase(target);
    const release = held.release;
    const copy = join(dirname(target), `.${basename(target)}.${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      const found = await inspectCase(target);
      if (found.kind === 'foreign' || found.kind === 'earlier-dpx') {
        const aside = `${target}.${this.startedAt.toISOString().replace(/[:.]/g, '-')}.har`;
        await this.writeSnapshot(aside);
        throw new UsageError(
          `${target} was replaced while this command ran by a file dpx did not write (${found.kind === 'foreign' ? found.why : 'an earlier dpx trail'}); it is left as it is`,
          `this command's trail is in ${aside}`,
        );
      }
      const page = JSON.stringify(this.page(endedAt));
      if (found.kind === 'absent') {
        const file = await open(copy, 'wx', 0o600);
        try {
          await writeCase(file, 0, CASE_HEAD, this.spool, this.length, false, caseTail([page]));
        } finally {
          await file.close();
        }
        held.check();
        // A link, unlike a rename, never replaces a file that appeared meanwhile.
        await link(copy, target).catch(async (error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') throw new UsageError(`${target} appeared while this command ran`, 'run the command again');
          await rename(copy, target);
        });
      } else {
        await copyFile(target, copy, constants.COPYFILE_FICLONE);
        await chmod(copy, found.mode);
        const file = await open(copy, 'r+');
        try {
          await file.truncate(found.entriesEnd);
          await writeCase(file, found.entriesEnd, '', this.spool, this.length, found.entriesEnd > found.headLength, caseTail([...found.pageLines, page]));
        } finally {
          await file.close();
        }
        held.check();
        await rename(copy, target);
      }
    } finally {
      await rm(copy, { force: true });
      await release().catch(() => undefined);
    }
  }

  /** This command's page, its command line masked like its entries. */
  private page(endedAt: Date): CasePage {
    const command = this.command ?? { argv: [] };
    const secrets = this.secretParts();
    const argv = maskArguments(command.argv, secrets);
    return {
      startedDateTime: this.startedAt.toISOString(),
      id: this.pageId,
      title: ['dpx', ...argv].map(shellWord).join(' '),
      pageTimings: { onContentLoad: -1, onLoad: Math.max(0, endedAt.getTime() - this.startedAt.getTime()) },
      _dpx: {
        argv,
        ...(command.profile === undefined ? {} : { profile: command.profile }),
        ...(command.baseUrl === undefined ? {} : { baseUrl: maskUrl(command.baseUrl, secrets).url }),
        ...(command.unit === undefined ? {} : { unit: command.unit }),
        endedDateTime: endedAt.toISOString(),
      },
    };
  }

  /** Every secret, and every part of one that must not be kept either (tokenParts). */
  private secretParts(): string[] {
    const parts: string[] = [];
    for (const secret of [...this.secrets(), ...this.seenCredentials]) {
      if (secret === '') continue;
      let known = this.partsOf.get(secret);
      if (!known) {
        known = tokenParts(secret);
        this.partsOf.set(secret, known);
      }
      parts.push(...known);
    }
    return parts;
  }
}

/**
 * Takes the case's lock (`<case>.lock`), waiting for another writer to finish; a lock its holder stopped
 * refreshing (killed) is taken over once stale. `check` throws when the lock was lost meanwhile.
 */
export async function lockCase(target: string): Promise<{ release: () => Promise<void>; check: () => void }> {
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lock(target, {
      realpath: false,
      stale: STALE_LOCK_MS,
      update: 1_000,
      retries: { retries: Math.ceil(LOCK_WAIT_MS / 250), factor: 1, minTimeout: 250, maxTimeout: 250, randomize: true },
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    throw new UsageError(
      `cannot add this command to the case ${target}: its lock ${target}.lock stayed taken (${(error as Error).message})`,
      `another dpx is writing it; if none is, remove the folder ${target}.lock`,
    );
  }
  return {
    release,
    check: () => {
      if (compromised) throw new UsageError(`lost the lock of the case ${target} while writing it: ${compromised.message}`, 'run the command again');
    },
  };
}

/** Refuses any existing file at `target` that dpx did not write as a case. */
async function refuseUnlessOurs(target: string): Promise<void> {
  const found = await inspectCase(target).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${target}: ${error.code ?? error.message}`, 'give --trail a file you can read and write');
  });
  if (found.kind === 'foreign') {
    throw new UsageError(`${target} was not written by dpx (${found.why}): dpx never writes over a file it did not write`, 'give --trail a new file name, or a case that dpx recorded');
  }
  if (found.kind === 'earlier-dpx') {
    throw new UsageError(`${target} is a trail of an earlier dpx, written before case files: dpx reads it but does not add to it`, 'give --trail a new file name');
  }
}

/**
 * Writes at `position`: `head`, then the spool's entries (its leading comma dropped when the case has no
 * entry before them), then `tail`.
 */
async function writeCase(file: FileHandle, position: number, head: string, spool: string, spoolLength: number, afterEntries: boolean, tail: string): Promise<void> {
  let at = position;
  if (head !== '') at += (await file.write(head, at)).bytesWritten;
  if (spoolLength > 0) {
    const source = await open(spool, 'r');
    try {
      const chunk = Buffer.allocUnsafe(Math.min(spoolLength, 1 << 20));
      let from = afterEntries ? 0 : 1;
      while (from < spoolLength) {
        const { bytesRead } = await source.read(chunk, 0, Math.min(chunk.length, spoolLength - from), from);
        if (bytesRead === 0) break;
        await writeAll(file, chunk.subarray(0, bytesRead), at);
        at += bytesRead;
        from += bytesRead;
      }
    } finally {
      await source.close();
    }
  }
  await writeAll(file, Buffer.from(tail), at);
}

async function writeAll(file: FileHandle, chunk: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < chunk.length) written += (await file.write(chunk, written, chunk.length - written, position + written)).bytesWritten;
}

function writeAt(fd: number, chunk: Buffer, position: number): void {
  let written = 0;
  while (written < chunk.length) written += writeSync(fd, chunk, written, chunk.length - written, position + written);
}

/** Option values that name a secret by their name (`--var password=…`) are masked whole, besides every secret. */
const SECRET_NAME = /pass|secret|token|api-?key|credential/i;

function maskArguments(argv: string[], secrets: string[]): string[] {
  return argv.map((arg) => {
    const named = /^([^=\s]+)=/.exec(arg);
    if (named && SECRET_NAME.test(named[1]!)) return `${named[1]}=***`;
    return maskUrl(redactText(arg, secrets), secrets).url;
  });
}

/** A URL's user and password masked (`https://***@host/`), and the password among the secrets. */
function maskUrl(text: string, secrets: string[]): { url: string; secrets: string[] } {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) return { url: text, secrets };
  try {
    const url = new URL(text);
    const found = [decodeURIComponent(url.password), decodeURIComponent(url.username)].filter((part) => part.length > 0);
    url.username = '';
    url.password = '';
    return { url: url.href.replace('://', '://***@'), secrets: [...secrets, ...found] };
  } catch {
    return { url: text, secrets };
  }
}

/** An argument as a shell would need it to be the same word. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function harEntry(exchange: Exchange, known: string[], pageref: string | undefined): Record<string, unknown> {
  const { request, response, error } = exchange;
  const { url, secrets } = maskUrl(request.url, known);
  const time = Math.max(0, exchange.durationMs);
  const requestHeaders = harHeaders(request.headers, secrets);
  const entry: Record<string, unknown> = {
    ...(pageref === undefined ? {} : { pageref }),
    startedDateTime: exchange.startedAt.toISOString(),
    time,
    request: {
      method: request.method,
      url,
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
  return secrets === known ? entry : redactValue(entry, secrets);
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


export type { CasePage };
