// What changed between two answers: two documents side by side by field path, two lists record by
// record, two responses to the same request. Headless and synchronous, shared by `dpx replay`,
// `dpx diff` and the explorer (a record against another version, unit or profile; a watched list
// against its previous refresh; a record's last versions).
//
// Ignored everywhere, as not being data: `_links` and `_etag` at any depth, and the response's own
// timestamps. Those are what says when the answer was made rather than what the data is: the HTTP
// headers (Date, Last-Modified, Expires, Age — headers are never compared), and every field of a list
// envelope outside its items (a generated-at stamp, counts, the page number describe the page; the
// records added and removed say what changed in it). A record's own timestamps (`created_timestamp`,
// `end_timestamp`) are data: a task that finished is a change.

import { isObject, scalarText } from '../json.js';
import { linkOf, recordLinks } from '../hal/links.js';
import { isListEnvelope } from '../session/pages.js';
import { rebase } from '../urls.js';

/** Keys that are never data, at any depth. */
const IGNORED_KEYS = new Set(['_links', '_etag']);

/** One value that differs; a side the field is absent from has no key. */
export interface FieldChange {
  path: string;
  then?: unknown;
  now?: unknown;
}

export type FieldState = 'equal' | 'changed' | 'only-then' | 'only-now' | 'same-value';

/**
 * One row of two documents side by side. `same-value` pairs a field of one side with a differently named
 * field of the other holding the same value (users v1 `username`, v2 `email`): `path` is the first
 * side's name, `nowPath` the second's.
 */
export interface AlignedField {
  path: string;
  nowPath?: string;
  state: FieldState;
  then?: unknown;
  now?: unknown;
}

export interface RecordChange {
  /** The record's id, else its self link, else its position in the list (`#3`). */
  id: string;
  fields: FieldChange[];
}

/** A record with the key it was matched by. */
export interface KeyedRecord {
  /** The record's id, else its self link, else its position in the list (`#3`). */
  id: string;
  record: Record<string, unknown>;
}

export interface RecordsDiff {
  added: KeyedRecord[];
  removed: KeyedRecord[];
  changed: RecordChange[];
}

export type BodyKind = 'list' | 'record' | 'other';

export interface ResponseDiff extends RecordsDiff {
  thenStatus: number;
  nowStatus: number;
  /** What the bodies were compared as: records only when both sides are lists, or both records. */
  kind: BodyKind;
}

/** Where each side's records' self links are relative to, so that links of two control planes compare. */
export interface BaseUrls {
  then?: string;
  now?: string;
}

/** A path in a document: `a.b`, `items[2].name`; a key that would read ambiguously is quoted (`["a.b"]`). */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[^.[\]"\s]+$/.test(key);
  if (!plain) return `${parent}[${JSON.stringify(key)}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** The record field a path starts in (`role.id` → `role`): the column a change shows in. */
export function topLevelField(path: string): string {
  const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(path);
  if (quoted) return JSON.parse(quoted[1]!) as string;
  return /^[^.[]*/.exec(path)?.[0] ?? path;
}

/** Every leaf of a document (scalars, null, empty objects and arrays) by path, in document order, without ignored keys. */
export function flattenDocument(document: unknown): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      if (value.length === 0) leaves.set(path, []);
      for (const [index, item] of value.entries()) visit(item, childPath(path, index));
    } else if (isObject(value)) {
      const keys = Object.keys(value).filter((key) => !IGNORED_KEYS.has(key));
      if (keys.length === 0) leaves.set(path, {});
      for (const key of keys) visit(value[key], childPath(path, key));
    } else {
      leaves.set(path, value);
    }
  };
  visit(document, '');
  return leaves;
}

/** The fields whose values differ between two documents, in the first one's order, then the second's new ones. */
export function changedFields(then: unknown, now: unknown): FieldChange[] {
  const before = flattenDocument(then);
  const after = flattenDocument(now);
  const changes: FieldChange[] = [];
  for (const [path, value] of before) {
    if (!after.has(path)) changes.push({ path, then: value });
    else if (!sameLeaf(value, after.get(path))) changes.push({ path, then: value, now: after.get(path) });
  }
  for (const [path, value] of after) if (!before.has(path)) changes.push({ path, now: value });
  return changes;
}

/**
 * Two documents side by side, aligned by field path: every field of the first in its order (a field
 * only the second has paired in when it holds the same value), then the second's fields of its own.
 */
export function alignDocuments(then: unknown, now: unknown): AlignedField[] {
  const before = flattenDocument(then);
  const after = flattenDocument(now);
  const onlyThen = [...before.keys()].filter((path) => !after.has(path));
  const onlyNow = [...after.keys()].filter((path) => !before.has(path));
  const pairs = pairSameValues(onlyThen, onlyNow, before, after);
  const paired = new Set(pairs.values());
  const rows: AlignedField[] = [];
  for (const [path, value] of before) {
    const partner = pairs.get(path);
    if (partner !== undefined)
      rows.push({ path, nowPath: partner, state: 'same-value', then: value, now: after.get(partner) });
    else if (!after.has(path)) rows.push({ path, state: 'only-then', then: value });
    else
      rows.push({
        path,
        state: sameLeaf(value, after.get(path)) ? 'equal' : 'changed',
        then: value,
        now: after.get(path),
      });
  }
  for (const path of onlyNow) if (!paired.has(path)) rows.push({ path, state: 'only-now', now: after.get(path) });
  return rows;
}

/** How a list's records pair up: by id, else by self link, else by position. */
export function recordKey(record: Record<string, unknown>, position: number, base?: string): string {
  const id = scalarText(record['id']);
  if (id !== undefined) return id;
  const self = linkOf(recordLinks(record), 'self');
  if (self) return base === undefined ? self.href : (rebase(self.href, base, '') ?? self.href);
  return `#${position}`;
}

/** Records added, removed and changed (with their changed fields) from one list to the other. */
export function diffRecords(
  then: Record<string, unknown>[],
  now: Record<string, unknown>[],
  bases: BaseUrls = {},
): RecordsDiff {
  const before = new Map(then.map((record, position) => [recordKey(record, position, bases.then), record]));
  const after = new Map(now.map((record, position) => [recordKey(record, position, bases.now), record]));
  const diff: RecordsDiff = { added: [], removed: [], changed: [] };
  for (const [id, record] of before) {
    const counterpart = after.get(id);
    if (counterpart === undefined) {
      diff.removed.push({ id, record });
      continue;
    }
    const fields = changedFields(record, counterpart);
    if (fields.length > 0) diff.changed.push({ id, fields });
  }
  for (const [id, record] of after) if (!before.has(id)) diff.added.push({ id, record });
  return diff;
}

/** What a body is for comparing: a list envelope, one record (an object with an id or a self link), or something else. */
export function bodyKind(body: unknown): BodyKind {
  if (isListEnvelope(body)) return 'list';
  if (isObject(body) && (scalarText(body['id']) !== undefined || linkOf(recordLinks(body), 'self') !== undefined))
    return 'record';
  return 'other';
}

/** Two answers to one request: the status, and for two lists or two records, what changed in their records. */
export function diffResponses(
  then: { status: number; body: unknown },
  now: { status: number; body: unknown },
  bases: BaseUrls = {},
): ResponseDiff {
  const thenKind = bodyKind(then.body);
  const kind = thenKind === bodyKind(now.body) ? thenKind : 'other';
  const records: RecordsDiff =
    kind === 'list'
      ? diffRecords(listItems(then.body), listItems(now.body), bases)
      : kind === 'record'
        ? diffRecords([then.body as Record<string, unknown>], [now.body as Record<string, unknown>], bases)
        : { added: [], removed: [], changed: [] };
  return { thenStatus: then.status, nowStatus: now.status, kind, ...records };
}

export function hasDifferences(diff: ResponseDiff): boolean {
  return (
    diff.thenStatus !== diff.nowStatus || diff.added.length > 0 || diff.removed.length > 0 || diff.changed.length > 0
  );
}

function listItems(body: unknown): Record<string, unknown>[] {
  const items = isObject(body) && isObject(body['_embedded']) ? body['_embedded']['items'] : undefined;
  return Array.isArray(items) ? items.filter(isObject) : [];
}

function sameLeaf(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Leaves that are objects or arrays are empty ones: `{}` and `[]` differ, two `{}` do not.
  return (
    typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && Array.isArray(a) === Array.isArray(b)
  );
}

/** Words that say nothing about what a field holds (`is_enabled` is about `enabled`). */
const FILLER_WORDS = new Set(['is', 'has', 'can', 'the', 'of', 'at', 'on', 'by', 'to']);

function words(path: string): Set<string> {
  return new Set(
    path
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '' && !FILLER_WORDS.has(word)),
  );
}

function sharesWord(a: string, b: string): boolean {
  const left = words(a);
  return [...words(b)].some((word) => left.has(word));
}

/** A value unlikely to be shared by chance: text of a few characters. true, 0 or null alone prove nothing. */
function distinctive(value: unknown): boolean {
  return typeof value === 'string' && value.length >= 3;
}

/**
 * Pairs a field only one side has with a field only the other has when they hold the same value: the
 * one such field, if the value is distinctive or the names share a word; else the one among several
 * whose name shares a word. A pair must be each other's choice, so no field is claimed twice.
 */
function pairSameValues(
  onlyThen: string[],
  onlyNow: string[],
  before: Map<string, unknown>,
  after: Map<string, unknown>,
): Map<string, string> {
  const choose = (path: string, value: unknown, others: string[], values: Map<string, unknown>): string | undefined => {
    const same = others.filter((other) => sameLeaf(value, values.get(other)));
    if (same.length === 1) return distinctive(value) || sharesWord(path, same[0]!) ? same[0] : undefined;
    const named = same.filter((other) => sharesWord(path, other));
    return named.length === 1 ? named[0] : undefined;
  };
  const pairs = new Map<string, string>();
  for (const path of onlyThen) {
    const value = before.get(path);
    const partner = choose(path, value, onlyNow, after);
    if (partner !== undefined && choose(partner, value, onlyThen, before) === path) pairs.set(path, partner);
  }
  return pairs;
}
