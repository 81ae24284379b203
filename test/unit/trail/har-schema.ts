// Checks a document against HAR 1.2 (har-1.2.schema.json, written from the spec) and reads a trail file.

import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import harSchema from './har-1.2.schema.json' with { type: 'json' };

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const validate = addFormats(new Ajv({ allErrors: true, strict: true, strictRequired: false })).compile(harSchema);

export interface HarDocument {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  comment?: string;
  request: {
    method: string;
    url: string;
    headers: { name: string; value: string }[];
    queryString: { name: string; value: string }[];
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    headers: { name: string; value: string }[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    bodySize: number;
    _error?: string;
  };
  timings: { send: number; wait: number; receive: number };
}

/** The problems ajv finds, as `pointer message` lines; empty when the document is valid HAR 1.2. */
export function harProblems(document: unknown): string[] {
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/** Parses a trail file and asserts it is HAR 1.2, returning the document. */
export function readHar(path: string): HarDocument {
  const document: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const problems = harProblems(document);
  if (problems.length > 0) throw new Error(`${path} is not valid HAR 1.2:\n${problems.join('\n')}`);
  return document as HarDocument;
}
