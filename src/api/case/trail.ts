// The trail: every exchange of a command as a HAR 1.2 entry, appended to a case file (layout.ts) as one
// page per command — for browser developer tools, a support ticket, and dpx's own offline browsing and
// replay (har.ts reads it back).
//
// While the command runs its entries go to a spool of its own beside the case (one line each, so an
// entry costs the same whatever the size of the case). When the command ends, it is added to the case
// under the case's lock (append.ts): the file at the case's path is always a whole HAR document, so a
// kill at any moment leaves a case that devtools and dpx open with every command that ended, and
// concurrent writers each add their command to the case the one before them left.
//
// A file that exists and was not written by dpx (another program's HAR, a text file, an empty file) is
// refused before anything is sent, and never written to.

import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { mkdtemp, open, realpath, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Exchange } from '../exchange.js';
import { authorizationCredential, redactValue, tokenParts } from '../security/redact.js';
import { appendToCase, besideCase, refuseUnlessOurs, writeCase } from './append.js';
import { harEntry, maskArguments, maskUrl, shellWord } from './har-entry.js';
import { CASE_HEAD, caseTail, type CasePage } from './layout.js';
import { randomHex } from './random-hex.js';

/** What a case's page says about the command that recorded it; the command line is masked when written. */
export interface CommandInfo {
  /** The arguments after `dpx`, as typed. */
  argv: string[];
  profile?: string;
  baseUrl?: string;
  unit?: string;
  /** When the command started: its page's time, and the `now` its relative windows were read against. */
  startedAt?: Date;
}

/**
 * What a temporary trail keeps of response bodies in memory, in characters: the newest exchanges are kept whole
 * until `T` asks for them; older ones go to the spool with their request, status and headers but no body, so that
 * a long session (a list scrolled through a million records) neither holds nor redacts and encodes every page.
 */
const TEMPORARY_BODY_BUDGET = 2 * 1024 * 1024;

interface Held {
  exchange: Exchange;
  /** The secrets known when it was recorded (a token may change before it is written). */
  secrets: string[];
}

const bodyLength = (exchange: Exchange): number => exchange.response?.body.length ?? 0;

export class HarTrail {
  /** The case this command's entries go into (for a temporary trail: the spool itself). */
  readonly path: string;
  private readonly secrets: () => string[];
  private readonly spool: string;
  private readonly ownedDir: string | undefined;
  private readonly command: CommandInfo | undefined;
  private readonly startedAt: Date;
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
  /** Set for a temporary trail: the most body text held for `T` (see TEMPORARY_BODY_BUDGET). */
  private readonly bodyBudget: number | undefined;
  /** The newest exchanges, not yet written, their bodies whole. */
  private readonly held: Held[] = [];
  private heldLength = 0;
  private dropped = 0;

  private constructor(
    path: string,
    secrets: () => string[],
    spool: string,
    fd: number,
    command: CommandInfo | undefined,
    ownedDir?: string,
    bodyBudget?: number,
  ) {
    this.path = path;
    this.secrets = secrets;
    this.spool = spool;
    this.fd = fd;
    this.command = command;
    this.startedAt = command?.startedAt ?? new Date();
    this.ownedDir = ownedDir;
    this.bodyBudget = bodyBudget;
    this.pageId = `page_${this.startedAt.toISOString().replace(/[-:.]/g, '').replace('T', '_')}_${process.pid}_${randomHex(3)}`;
  }

  /**
   * Starts recording a command into the case at `path`: a new file, or a case dpx wrote, which gets this
   * command as one more page when it ends (`close`). Any other file is refused (a UsageError) and left
   * as it is. `secrets` is asked on every record, so a token that changes during the session is masked.
   */
  static async open(path: string, secrets: () => string[], command: CommandInfo = { argv: [] }): Promise<HarTrail> {
    const target = await realpath(resolve(path)).catch(() => resolve(path));
    await refuseUnlessOurs(target);
    const spool = besideCase(target, 'spool');
    try {
      return new HarTrail(target, secrets, spool, openSync(spool, 'wx', 0o600), command);
    } catch (error) {
      throw new UsageError(
        `cannot write the case ${target}: ${(error as Error).message}`,
        'give --trail a file in a folder you can write to',
      );
    }
  }

  /**
   * A trail in a private temporary folder, removed on close: for `T` when no --trail file was given. It keeps the
   * bodies of its newest exchanges only, `bodyBudget` characters of them (the newest one whole whatever its size).
   */
  static async temporary(secrets: () => string[], bodyBudget = TEMPORARY_BODY_BUDGET): Promise<HarTrail> {
    const dir = await mkdtemp(join(tmpdir(), 'dpx-trail-'));
    const spool = join(dir, 'trail.spool');
    return new HarTrail(spool, secrets, spool, openSync(spool, 'wx', 0o600), undefined, dir, bodyBudget);
  }

  /** Records one exchange. An arrow function, so `onExchange: trail.record` works as is; no-op once closed. */
  readonly record = (exchange: Exchange): void => {
    if (this.fd === undefined) return;
    const credential = authorizationCredential(exchange.request.headers);
    if (credential !== undefined) this.seenCredentials.add(credential);
    const secrets = this.secretParts();
    if (this.bodyBudget === undefined) {
      this.write(exchange, secrets);
      return;
    }
    this.held.push({ exchange, secrets });
    this.heldLength += bodyLength(exchange);
    while (this.heldLength > this.bodyBudget && this.held.length > 1) {
      const oldest = this.held.shift() as Held;
      this.heldLength -= bodyLength(oldest.exchange);
      // Redacted with the secrets known when it was recorded and now: a token may have changed since.
      const known = [...new Set([...oldest.secrets, ...secrets])];
      const response = oldest.exchange.response;
      if (response === undefined || response.body === '') {
        this.write(oldest.exchange, known);
        continue;
      }
      // Marked as a truncated body, which the trail's reader never answers from.
      this.write({ ...oldest.exchange, response: { ...response, body: '', bodyTruncated: true } }, known);
      this.dropped += 1;
    }
  };

  /** Writes the exchanges held whole to the spool, so that a snapshot has them. */
  private flush(): void {
    const now = this.secretParts();
    for (const { exchange, secrets } of this.held.splice(0)) this.write(exchange, [...new Set([...secrets, ...now])]);
    this.heldLength = 0;
  }

  /** Appends one entry to the spool. */
  private write(exchange: Exchange, secrets: string[]): void {
    if (this.fd === undefined) return;
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
  }

  /** Entries recorded by this command so far. */
  get entryCount(): number {
    return this.entries + this.held.length;
  }

  /** Exchanges whose response body a temporary trail dropped to stay within its budget. */
  get bodiesDropped(): number {
    return this.dropped;
  }

  /** The body text a temporary trail holds for `T`: at most its budget, or the newest body alone. */
  get heldBodyLength(): number {
    return this.heldLength;
  }

  /** This command's trail so far, as a case of its own (owner-only permissions: it holds API data). */
  async writeSnapshot(path: string): Promise<void> {
    const target = resolve(path);
    if (target === this.path) return;
    this.flush();
    const length = this.length;
    const partial = `${target}.${process.pid}.partial`;
    try {
      const file = await open(partial, 'w', 0o600);
      try {
        await writeCase(
          file,
          0,
          CASE_HEAD,
          { path: this.spool, length },
          false,
          caseTail([JSON.stringify(this.page(new Date()))]),
        );
      } finally {
        await file.close();
      }
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw new UsageError(
        `cannot write the trail to ${target}: ${(error as Error).message}`,
        'choose a file in a folder you can write to',
      );
    }
  }

  /** Adds this command to the case (under the case's lock) and removes the spool; a temporary trail is removed. */
  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<void> {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    try {
      if (this.ownedDir === undefined) {
        const page = JSON.stringify(this.page(new Date()));
        await appendToCase(this.path, { path: this.spool, length: this.length }, page, async () => {
          const aside = `${this.path}.${this.startedAt.toISOString().replace(/[:.]/g, '-')}.har`;
          await this.writeSnapshot(aside);
          return aside;
        });
      }
    } finally {
      if (this.ownedDir !== undefined) await rm(this.ownedDir, { recursive: true, force: true });
      else rmSync(this.spool, { force: true });
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
function writeAt(fd: number, chunk: Buffer, position: number): void {
  let written = 0;
  while (written < chunk.length) written += writeSync(fd, chunk, written, chunk.length - written, position + written);
}

export { TRUNCATED_COMMENT } from './har-entry.js';
export type { CasePage };
