// The two ways a case is read as a stream: dpx's layout line by line (each line's byte offset kept, so a
// body is read again from the file when asked), and any other HAR through a streaming JSON parser.

import { closeSync, openSync, readSync } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { UsageError } from '../errors.js';
import { isObject } from '../json.js';
import { NOT_A_CASE_HINT, type Collector } from './har-collect.js';

const READ_CHUNK = 1 << 20;

/** dpx's layout: the head line, one entry per line, then (a case) the pages line and one page per line. */
export function readLines(fd: number, source: string, collector: Collector): void {
  collector.sawLog = true;
  let section: 'head' | 'entries' | 'pages' | 'end' = 'head';
  let lineNumber = 0;
  let pendingError: { line: number; error: Error } | undefined;
  eachLine(fd, (line, offset, length) => {
    lineNumber += 1;
    if (pendingError)
      throw new UsageError(
        `${source} is damaged at line ${pendingError.line}`,
        'only the last entry of a trail can be cut short (by a kill); this file was changed some other way',
      );
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
  else if (pendingError)
    throw new UsageError(
      `${source} is damaged at line ${pendingError.line}`,
      'this file was changed by something other than dpx',
    );
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
export async function readStreaming(path: string, collector: Collector): Promise<void> {
  const parser = new JSONParser({
    paths: ['$.log.version', '$.log.creator', '$.log.pages.*', '$.log.entries.*'],
    keepStack: false,
    stringBufferSize: 64 * 1024,
  });
  parser.onValue = ({ value, stack }) => {
    const section = stack[2]?.key;
    if (stack.length === 2) {
      collector.sawLog = true;
      if (isObject(value)) collector.creator = value;
    } else if (section === 'pages') {
      collector.page(value);
    } else if (section === 'entries') {
      collector.sawLog = true;
      collector.entry(value, (text) => collector.keepBody(text() ?? ''));
    }
  };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new UsageError(
      `cannot read the trail ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      NOT_A_CASE_HINT,
    );
  }
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    let position = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      position += read;
      if (parser.isEnded) {
        if (chunk.subarray(0, read).toString('utf8').trim() !== '')
          throw new Error('unexpected text after the document');
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

export function readText(fd: number, offset: number, length: number): string {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, offset + done);
    if (read === 0) throw new UsageError('the case changed while it was read', 'open it again');
    done += read;
  }
  return buffer.toString('utf8');
}
