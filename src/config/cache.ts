// What dpx keeps between runs, per control plane (base URL), each a JSON file in the XDG cache folder: its
// discovery index and its organizational units, so that shell completion answers without a round trip,
// and what its lists taught about filters (the form they read, fields refused with the server's code,
// type fields), so that the x-ray asks each list in its own language at once, and each list's largest
// page, so that a walk's first request asks for it at once. Nothing secret goes in (no
// token, no token file); a file that is broken, or written for another base URL, reads as absent.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isObject } from '../api/json.js';
import type { IndexStore, StoredIndex } from '../api/hal/discovery.js';
import type { PageSizeStore, StoredPageSizes } from '../api/session/session-options.js';
import type { OrgUnit } from '../api/fanout/units.js';
import type { FilterStore, StoredFilterKnowledge } from '../api/xray/filters.js';
import { writeAtomically } from './files.js';

/**
 * A base URL as part of a file name: its 64-bit FNV-1a hash in hex. Short and stable is all it needs to
 * be (the file holds its base URL, and one written for another reads as absent), and node:crypto would
 * be loaded for it in the middle of an x-ray's first requests (≈ 5 ms), or at every command's start.
 */
function nameOf(baseUrl: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(baseUrl)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

/** One kind of cached value, a file per base URL: `<dir>/<kind>-<hash of the base URL>.json`. */
class CacheFolder<T> {
  constructor(
    private readonly dir: string,
    private readonly kind: string,
    private readonly isValue: (value: unknown) => value is T,
  ) {}

  async read(baseUrl: string): Promise<T | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.path(baseUrl), 'utf8'));
    } catch {
      return undefined;
    }
    return isObject(parsed) && parsed['baseUrl'] === baseUrl && this.isValue(parsed['value'])
      ? parsed['value']
      : undefined;
  }

  write(baseUrl: string, value: T): Promise<void> {
    return writeAtomically(this.path(baseUrl), JSON.stringify({ baseUrl, value }));
  }

  private path(baseUrl: string): string {
    return join(this.dir, `${this.kind}-${nameOf(baseUrl)}.json`);
  }
}

export function indexCache(dir: string): IndexStore {
  return new CacheFolder(dir, 'index', isStoredIndex);
}

export interface StoredUnits {
  /** In tree order, as loadUnits gives them. */
  units: OrgUnit[];
  /** When the server was last asked for them (ms since the epoch). */
  checkedAt: number;
}

export function unitCache(dir: string): {
  read(baseUrl: string): Promise<StoredUnits | undefined>;
  write(baseUrl: string, units: StoredUnits): Promise<void>;
} {
  return new CacheFolder(dir, 'units', isStoredUnits);
}

export function pageSizeCache(dir: string): PageSizeStore {
  return new CacheFolder(dir, 'page-sizes', isStoredPageSizes);
}

function isStoredPageSizes(value: unknown): value is StoredPageSizes {
  const isCount = (count: unknown): boolean => typeof count === 'number' && Number.isInteger(count) && count > 0;
  const isServerDefault = (size: Record<string, unknown>): boolean =>
    size['serverDefault'] === true && typeof size['at'] === 'number' && Number.isFinite(size['at']);
  return (
    isObject(value) &&
    Object.values(value).every(
      (size) =>
        size === null ||
        (isObject(size) && (isServerDefault(size) || (isCount(size['ask']) && isCount(size['perPage'])))),
    )
  );
}

export function filterCache(dir: string): FilterStore {
  return new CacheFolder(dir, 'filters', isStoredFilters);
}

function isStoredFilters(value: unknown): value is StoredFilterKnowledge {
  if (!isObject(value) || !isObject(value['lists'])) return false;
  if (value['form'] !== undefined && value['form'] !== 'operator' && value['form'] !== 'bare') return false;
  return Object.values(value['lists']).every(
    (entry) =>
      isObject(entry) &&
      typeof entry['at'] === 'number' &&
      (entry['form'] === undefined || entry['form'] === 'operator' || entry['form'] === 'bare') &&
      Array.isArray(entry['accepted']) &&
      entry['accepted'].every((field) => typeof field === 'string') &&
      isObject(entry['refused']) &&
      Object.values(entry['refused']).every(
        (refusal) =>
          isObject(refusal) &&
          typeof refusal['code'] === 'string' &&
          typeof refusal['message'] === 'string' &&
          typeof refusal['at'] === 'number',
      ) &&
      isObject(entry['typeFields']) &&
      Object.values(entry['typeFields']).every((verdict) => typeof verdict === 'boolean') &&
      (entry['seen'] === undefined ||
        (isObject(entry['seen']) &&
          typeof entry['seen']['at'] === 'number' &&
          Array.isArray(entry['seen']['fields']) &&
          entry['seen']['fields'].every((field) => typeof field === 'string'))),
  );
}

function isStoredIndex(value: unknown): value is StoredIndex {
  return (
    isObject(value) &&
    isObject(value['body']) &&
    typeof value['contentType'] === 'string' &&
    typeof value['checkedAt'] === 'number' &&
    (value['etag'] === undefined || typeof value['etag'] === 'string')
  );
}

function isStoredUnits(value: unknown): value is StoredUnits {
  return (
    isObject(value) &&
    typeof value['checkedAt'] === 'number' &&
    Array.isArray(value['units']) &&
    value['units'].every(
      (unit) =>
        isObject(unit) &&
        typeof unit['id'] === 'string' &&
        typeof unit['name'] === 'string' &&
        typeof unit['depth'] === 'number',
    )
  );
}
