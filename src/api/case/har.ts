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
// wherever else they appear, bodies included (har-collect.ts).

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { Collector, NOT_A_CASE_HINT } from './har-collect.js';
import { type Attachment, contentText } from './har-body.js';
import { isZip, unzip } from './zip.js';
import { readLines, readStreaming, readText } from './har-read.js';
import type { RecordedExchange, RecordedTrail, TrailOptions } from './recorded.js';

export type { RecordedApi, RecordedExchange, RecordedPage, RecordedTrail, TrailOptions } from './recorded.js';

export async function readTrail(path: string, options: TrailOptions = {}): Promise<RecordedTrail> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(
      `cannot read the trail ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      NOT_A_CASE_HINT,
    );
  }
  // The descriptor stays open for the bodies asked later: it keeps this version of the file, whatever
  // a writer renames over the path meanwhile.
  const collector = new Collector(path);
  const first = Buffer.alloc(4096);
  const firstLength = readSync(fd, first, 0, first.length, 0);
  const firstLine = first.subarray(0, firstLength).toString('utf8').split('\n', 1)[0] ?? '';
  if (isZip(first.subarray(0, firstLength))) {
    closeSync(fd);
    return readZipped(path, options);
  }
  if (firstLine.startsWith('{"log":') && firstLine.endsWith('"entries":[')) {
    readLines(fd, path, collector);
  } else {
    closeSync(fd);
    fd = -1;
    collector.attachment = besideFile(dirname(path));
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

/** Playwright's bodies beside its HAR (`content._file`): a file of that name in `folder`, never a path elsewhere. */
function besideFile(folder: string): Attachment {
  return (name) => {
    if (name !== basename(name) || name.startsWith('.')) return undefined;
    try {
      return readFileSync(join(folder, name), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** Playwright's zip: the HAR inside (`har.har`), its bodies the archive's other files; read whole into memory. */
function readZipped(path: string, options: TrailOptions): RecordedTrail {
  const files = unzip(readFileSync(path), path);
  const harName = files.has('har.har') ? 'har.har' : [...files.keys()].find((name) => name.endsWith('.har'));
  if (harName === undefined) throw new UsageError(`${path} is a zip archive without a HAR file in it`, NOT_A_CASE_HINT);
  const har = files.get(harName)!.toString('utf8');
  files.delete(harName);
  return parseTrail(har, path, options, (name) => files.get(name)?.toString('utf8'));
}

/** A case given as text (tests, small files, a zip's): read the same way, its bodies kept in memory. */
export function parseTrail(
  text: string,
  source: string,
  options: TrailOptions = {},
  attachment?: Attachment,
): RecordedTrail {
  const { document, repaired } = parseHarText(text, source);
  const collector = new Collector(source);
  collector.attachment = attachment;
  const log = isObject(document) ? document['log'] : undefined;
  if (!isObject(log) || !Array.isArray(log['entries']))
    throw new UsageError(`${source} is not a HAR file: it has no log.entries`, NOT_A_CASE_HINT);
  collector.sawLog = true;
  if (isObject(log['creator'])) collector.creator = log['creator'];
  if (Array.isArray(log['pages'])) for (const page of log['pages']) collector.page(page);
  for (const entry of log['entries']) collector.entry(entry, (text) => ({ text: text() ?? '' }));
  if (repaired) collector.repaired = repaired;
  return collector.finish(options, async (at) => ('text' in at ? at.text : undefined));
}

/**
 * The whole document when it parses (a case, a devtools export); else a trail of an earlier dpx cut
 * short, rebuilt from its head line and one entry per line. Only the last line may be torn: a bad line
 * before it means the file was damaged some other way.
 */
export function parseHarText(
  text: string,
  source: string,
): { document: unknown; repaired?: { droppedTornEntry: boolean } } {
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
        if (i !== last)
          throw new UsageError(
            `${source} is damaged at line ${i + 1}`,
            'only the last entry of a trail can be cut short (by a kill); this file was changed some other way',
          );
        droppedTornEntry = true;
      }
    }
    if (isObject(document) && isObject(document['log'])) document['log']['entries'] = entries;
    return { document, repaired: { droppedTornEntry } };
  }
}

/** The recorded organizational unit of an exchange: the value of the unit header, or undefined. */
export function recordedUnit(trail: Pick<RecordedTrail, 'ouHeader'>, exchange: RecordedExchange): string | undefined {
  return exchange.requestHeaders[trail.ouHeader] || undefined;
}

/** The case seen from another of its control planes (a command recorded against another profile). */
export function withApi(trail: RecordedTrail, baseUrl: string, options: TrailOptions = {}): RecordedTrail {
  const api = trail.apis.find((each) => each.baseUrl === baseUrl);
  if (!api || api.baseUrl === trail.baseUrl) return trail;
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
