// The user's config file: named profiles (one control plane each), the current profile, and bookmarks.
// Every change is a read-modify-write of the whole file, written atomically with owner-only permissions.

import { isObject } from '../api/json.js';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';
import { didYouMean } from '../api/hal/did-you-mean.js';
import { SafetyError, UsageError } from '../api/errors.js';
import { writeAtomically } from './files.js';

export interface Profile {
  baseUrl: string;
  tokenFile?: string;
  tokenEnv?: string;
  /** A command that prints the token (a password manager's, a vault's), run when the token is first needed. */
  tokenCommand?: string;
  /** The forward proxy to this control plane, over the environment's; "" for none. */
  proxy?: string;
  /** A PEM file of certificate authorities to trust for this control plane, besides Node's own. */
  caFile?: string;
  ou?: string;
  ouHeader?: string;
  vendor?: string;
  pageSize?: number;
  /** Requests in flight at once to this control plane. */
  concurrency?: number;
  /** Requests per second to this control plane, at most. */
  rate?: number;
  readOnly?: boolean;
  schemaDir?: string;
}

export interface Bookmark {
  profile?: string;
  resource: string;
  version?: string;
  ou?: string;
  filter?: string;
  page?: string;
}

export interface ConfigFile {
  current?: string;
  profiles: Record<string, Profile>;
  bookmarks?: Record<string, Bookmark>;
}

type FieldKind = 'string' | 'number' | 'boolean';

const PROFILE_FIELDS: Record<keyof Profile, FieldKind> = {
  baseUrl: 'string',
  tokenFile: 'string',
  tokenEnv: 'string',
  tokenCommand: 'string',
  proxy: 'string',
  caFile: 'string',
  ou: 'string',
  ouHeader: 'string',
  vendor: 'string',
  pageSize: 'number',
  concurrency: 'number',
  rate: 'number',
  readOnly: 'boolean',
  schemaDir: 'string',
};

const BOOKMARK_FIELDS: Record<keyof Bookmark, FieldKind> = {
  profile: 'string',
  resource: 'string',
  version: 'string',
  ou: 'string',
  filter: 'string',
  page: 'string',
};

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['DPX_CONFIG'];
  if (override) return override;
  return join(envPaths('dpx', { suffix: '' }).config, 'config.json');
}

/** A missing file is an empty config: a new user has no profiles yet. */
export async function loadConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new UsageError(
      `cannot read the config file ${path}: ${(error as Error).message}`,
      'check the file permissions, or set DPX_CONFIG to another path',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw malformed(path, `not valid JSON (${(error as Error).message})`);
  }
  return checkConfig(path, parsed);
}

/** Written atomically; 0600 because profiles name token files. */
export async function saveConfig(path: string, config: ConfigFile): Promise<void> {
  try {
    await writeAtomically(path, `${JSON.stringify(config, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(
      `cannot write the config file ${path}: ${(error as Error).message}`,
      'check the folder permissions, or set DPX_CONFIG to another path',
    );
  }
}

export async function listProfiles(path: string): Promise<{ name: string; profile: Profile; current: boolean }[]> {
  const config = await loadConfig(path);
  return Object.entries(config.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, profile]) => ({ name, profile, current: name === config.current }));
}

/**
 * Adds or replaces a profile; the first profile added becomes the current one. A locked profile
 * (`"readOnly": true`) is not replaced by one without the lock: unlocking it is said on purpose.
 */
export async function addProfile(path: string, name: string, profile: Profile): Promise<void> {
  checkName(name, 'profile');
  const problem = profileProblem(profile, `profile "${name}"`);
  if (problem) throw new UsageError(problem, 'a profile needs at least a base URL such as https://dpm.example.com/api');
  const config = await loadConfig(path);
  if (config.profiles[name]?.readOnly === true && profile.readOnly !== true)
    throw new SafetyError(
      `profile ${name} is locked ("readOnly": true), and profile add would replace it without the lock`,
      `to unlock it on purpose: dpx profile set ${name} readOnly false (or edit ${path}); to keep it locked, add --read-only`,
    );
  config.profiles[name] = profile;
  config.current ??= name;
  await saveConfig(path, config);
}

/** The keys a profile may hold, as the config file spells them. */
export const PROFILE_KEYS = Object.keys(PROFILE_FIELDS) as (keyof Profile)[];

/** Where a profile takes its token from; it takes it from one of them at most. */
const TOKEN_KEYS = ['tokenFile', 'tokenEnv', 'tokenCommand'] as const;

/** Whether a profile says where its token is; without, a run reads DPX_TOKEN. */
export function hasTokenSource(profile: Profile): boolean {
  return TOKEN_KEYS.some((key) => profile[key] !== undefined);
}

/**
 * Sets one key of a saved profile from its text, as `dpx profile set NAME KEY VALUE` gives it: the config
 * file's name (`schemaDir`) or the option's (`schema-dir`); a number or `true`/`false` where the key takes
 * one; an empty value removes the key (but for `proxy`, where "" means no proxy at all). A token source
 * replaces the other ones. Returns the keys it removed besides.
 */
export async function setProfileKey(path: string, name: string, key: string, value: string): Promise<string[]> {
  const field = profileKey(key);
  const config = await loadConfig(path);
  const profile = { ...requireProfile(config, name, path) } as Record<string, unknown>;
  const removed: string[] = [];
  if (value === '' && field !== 'proxy') delete profile[field];
  else {
    profile[field] = keyValue(field, value);
    if ((TOKEN_KEYS as readonly string[]).includes(field))
      for (const other of TOKEN_KEYS)
        if (other !== field && profile[other] !== undefined) {
          delete profile[other];
          removed.push(other);
        }
  }
  const problem = profileProblem(profile, `profile "${name}"`);
  if (problem) throw new UsageError(problem, `dpx profile set ${name} ${field} VALUE`);
  config.profiles[name] = profile as unknown as Profile;
  await saveConfig(path, config);
  return removed;
}

/** A saved profile, as the config file holds it. */
export async function showProfile(path: string, name: string): Promise<{ profile: Profile; current: boolean }> {
  const config = await loadConfig(path);
  return { profile: requireProfile(config, name, path), current: config.current === name };
}

function profileKey(key: string): keyof Profile {
  const camel = key.replace(/^--/, '').replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
  const found = PROFILE_KEYS.find((known) => known.toLowerCase() === camel.toLowerCase());
  if (found) return found;
  throw new UsageError(
    `a profile has no key '${key}'`,
    didYouMean(key, PROFILE_KEYS, `keys: ${PROFILE_KEYS.join(', ')}`),
  );
}

function keyValue(field: keyof Profile, value: string): string | number | boolean {
  switch (PROFILE_FIELDS[field]) {
    case 'number': {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number))
        throw new UsageError(`${field} takes a number, not '${value}'`, `dpx profile set NAME ${field} 8`);
      return number;
    }
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      throw new UsageError(`${field} takes true or false, not '${value}'`, `dpx profile set NAME ${field} true`);
    default:
      // A file or folder relative to where the user typed it, as profile add keeps them.
      return PATH_KEYS.has(field) && !value.startsWith('~') ? resolve(value) : value;
  }
}

/** The keys that name a file or a folder. */
const PATH_KEYS: ReadonlySet<keyof Profile> = new Set(['tokenFile', 'caFile', 'schemaDir']);

export async function removeProfile(path: string, name: string): Promise<void> {
  const config = await loadConfig(path);
  requireProfile(config, name, path);
  delete config.profiles[name];
  if (config.current === name) delete config.current;
  await saveConfig(path, config);
}

export async function useProfile(path: string, name: string): Promise<void> {
  const config = await loadConfig(path);
  requireProfile(config, name, path);
  config.current = name;
  await saveConfig(path, config);
}

export async function saveBookmark(path: string, name: string, bookmark: Bookmark): Promise<void> {
  checkName(name, 'bookmark');
  const problem =
    fieldsProblem(bookmark, BOOKMARK_FIELDS, `bookmark "${name}"`) ??
    (bookmark.resource ? undefined : `bookmark "${name}" names no resource`);
  if (problem) throw new UsageError(problem, 'a bookmark needs at least a resource');
  const config = await loadConfig(path);
  config.bookmarks = { ...config.bookmarks, [name]: bookmark };
  await saveConfig(path, config);
}

export async function listBookmarks(path: string): Promise<{ name: string; bookmark: Bookmark }[]> {
  const config = await loadConfig(path);
  return Object.entries(config.bookmarks ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, bookmark]) => ({ name, bookmark }));
}

export function requireProfile(config: ConfigFile, name: string, path: string): Profile {
  const profile = config.profiles[name];
  if (profile) return profile;
  const known = Object.keys(config.profiles);
  throw new UsageError(
    `no profile named "${name}" in ${path}`,
    known.length > 0
      ? didYouMean(name, known, `known profiles: ${known.sort().join(', ')}`)
      : 'add one with: dpx profile add NAME --base-url URL',
  );
}

function checkName(name: string, what: string): void {
  if (!/^[\w.-]+$/.test(name)) {
    throw new UsageError(`invalid ${what} name "${name}"`, 'use letters, digits, dots, dashes and underscores');
  }
}

function malformed(path: string, problem: string): UsageError {
  return new UsageError(
    `malformed config file ${path}: ${problem}`,
    'fix the file by hand, or move it away and add profiles again with dpx profile add',
  );
}

function checkConfig(path: string, parsed: unknown): ConfigFile {
  if (!isObject(parsed)) throw malformed(path, 'the top level must be a JSON object');
  const { current, profiles = {}, bookmarks } = parsed;
  if (current !== undefined && typeof current !== 'string') throw malformed(path, '"current" must be a string');
  if (!isObject(profiles)) throw malformed(path, '"profiles" must be an object');
  for (const [name, profile] of Object.entries(profiles)) {
    const problem = profileProblem(profile, `profiles.${name}`);
    if (problem) throw malformed(path, problem);
  }
  if (bookmarks !== undefined) {
    if (!isObject(bookmarks)) throw malformed(path, '"bookmarks" must be an object');
    for (const [name, bookmark] of Object.entries(bookmarks)) {
      const where = `bookmarks.${name}`;
      const problem = isObject(bookmark)
        ? fieldsProblem(bookmark, BOOKMARK_FIELDS, where)
        : `${where} must be an object`;
      if (problem) throw malformed(path, problem);
    }
  }
  return parsed as unknown as ConfigFile;
}

function profileProblem(profile: unknown, where: string): string | undefined {
  if (!isObject(profile)) return `${where} must be an object`;
  if (typeof profile['baseUrl'] !== 'string' || profile['baseUrl'] === '')
    return `${where}.baseUrl must be a non-empty string`;
  for (const field of ['pageSize', 'concurrency'] as const) {
    const value = profile[field];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0))
      return `${where}.${field} must be a positive integer`;
  }
  const rate = profile['rate'];
  if (rate !== undefined && !(typeof rate === 'number' && Number.isFinite(rate) && rate > 0))
    return `${where}.rate must be a positive number`;
  return fieldsProblem(profile, PROFILE_FIELDS, where);
}

/** Unknown fields are left alone (a newer dpx may have written them); known ones must have their type. */
function fieldsProblem(value: object, fields: Record<string, FieldKind>, where: string): string | undefined {
  for (const [field, kind] of Object.entries(fields)) {
    const actual = (value as Record<string, unknown>)[field];
    if (actual !== undefined && typeof actual !== kind) return `${where}.${field} must be a ${kind}`;
  }
  return undefined;
}
