// How a case file lies on disk, so that dpx can append to it, tell its own files from anyone else's, and
// read a large one line by line. A case is strict HAR 1.2 at every moment (devtools open it as is), with
// one JSON value per line — JSON.stringify never writes a raw line break, so a line is never torn by
// what it holds:
//
//   {"log":{"version":"1.2","creator":{"name":"dpx","version":"0.1.0"},"entries":[
//   {entry 1}
//   ,{entry 2}
//   ],"pages":[
//   {page 1: one command}
//   ,{page 2}
//   ]}}
//
// `pages` comes after `entries` (JSON objects have no order), so that appending a command rewrites only
// the tail: the entries region keeps its bytes and its offsets. Trails of dpx before case files had
// `"pages":[],"entries":[` in their head line and `]}}` alone as their tail; they are read, not appended to.

import { type FileHandle, open } from 'node:fs/promises';
import packageJson from '../../../package.json' with { type: 'json' };
import { isObject } from '../json.js';

export const CREATOR = { name: 'dpx', version: packageJson.version };
/** The head line, with its line break: the document up to the first entry. */
export const CASE_HEAD = `${JSON.stringify({ log: { version: '1.2', creator: CREATOR } }).slice(0, -2)},"entries":[\n`;
/** Where the entries end and the pages begin: a line of its own. */
export const PAGES_LINE = '],"pages":[\n';
export const CASE_END = ']}}\n';
/** The head of a trail written by dpx before case files, without its line break. */
const EARLIER_HEAD_END = '"pages":[],"entries":[';

/** dpx's own record of a command, beside the page fields of HAR 1.2 (custom fields start with `_`). */
export interface CasePage {
  startedDateTime: string;
  id: string;
  /** The command line as typed, secrets masked: `dpx list tasks --ou …`. */
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
  _dpx: {
    argv: string[];
    profile?: string;
    baseUrl?: string;
    /** The organizational unit the command ran in. */
    unit?: string;
    endedDateTime?: string;
  };
}

/** The tail of a case holding these pages (each one JSON line). */
export function caseTail(pageLines: string[]): string {
  return `${PAGES_LINE}${pageLines.map((line, index) => `${index === 0 ? '' : ','}${line}\n`).join('')}${CASE_END}`;
}

/** What a file at a case's path is, read from its first line and its tail only (a case may be large). */
export type CaseInspection =
  | { kind: 'absent' }
  | { kind: 'case'; size: number; mode: number; headLength: number; entriesEnd: number; pageLines: string[] }
  | { kind: 'earlier-dpx' }
  | { kind: 'foreign'; why: string };

/** Reads as little as it can: the head line, and the tail back to its pages line. */
export async function inspectCase(path: string): Promise<CaseInspection> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) return { kind: 'foreign', why: 'it is not a regular file' };
    if (stat.size === 0) return { kind: 'foreign', why: 'it is empty' };
    const start = Buffer.alloc(Math.min(stat.size, 4096));
    await file.read(start, 0, start.length, 0);
    const firstLine = start.toString('utf8').split('\n', 1)[0] ?? '';
    if (firstLine.endsWith(EARLIER_HEAD_END) && isDpxHead(`${firstLine}]}}`)) return { kind: 'earlier-dpx' };
    if (`${firstLine}\n` !== CASE_HEAD && !(firstLine.endsWith('"entries":[') && isDpxHead(`${firstLine}]}}`))) {
      return { kind: 'foreign', why: describeForeign(firstLine) };
    }
    const headLength = Buffer.byteLength(firstLine) + 1;
    // The tail: back from the end until the pages line is found.
    for (let window = Math.min(stat.size, 65_536); ; window = Math.min(stat.size, window * 4)) {
      const tail = Buffer.alloc(window);
      await file.read(tail, 0, window, stat.size - window);
      const text = tail.toString('utf8');
      const at = text.lastIndexOf(`\n${PAGES_LINE}`);
      if (at >= 0 && text.endsWith(CASE_END)) {
        const entriesEnd = stat.size - Buffer.byteLength(text.slice(at + 1));
        const pagesText = text.slice(at + 1 + PAGES_LINE.length, text.length - CASE_END.length);
        const pageLines =
          pagesText === ''
            ? []
            : pagesText
                .slice(0, -1)
                .split('\n')
                .map((line) => (line.startsWith(',') ? line.slice(1) : line));
        if (entriesEnd >= headLength && pageLines.every(isPageLine)) {
          return { kind: 'case', size: stat.size, mode: stat.mode & 0o777, headLength, entriesEnd, pageLines };
        }
      }
      if (window >= stat.size) return { kind: 'foreign', why: 'it starts as a dpx case but does not end as one' };
    }
  } finally {
    await file.close();
  }
}

function isDpxHead(text: string): boolean {
  try {
    const document: unknown = JSON.parse(text);
    const log = isObject(document) ? document['log'] : undefined;
    return isObject(log) && isObject(log['creator']) && log['creator']['name'] === 'dpx' && log['version'] === '1.2';
  } catch {
    return false;
  }
}

function isPageLine(line: string): boolean {
  try {
    const page: unknown = JSON.parse(line);
    return isObject(page) && typeof page['id'] === 'string';
  } catch {
    return false;
  }
}

/** A few words on what the file seems to be, for the refusal. */
function describeForeign(firstLine: string): string {
  const trimmed = firstLine.trim();
  if (trimmed === '{' || trimmed.startsWith('{"log"') || trimmed.startsWith('{ "log"'))
    return 'it is a HAR file (or JSON) written by another program';
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'it is JSON written by another program';
  return 'it is not a HAR file';
}
