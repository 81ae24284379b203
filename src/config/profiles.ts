// The user's config file: named profiles (one control plane each), the current profile, and bookmarks.
// Every change is a read-modify-write of the whole file, written atomically with owner-only permissions.

import { isObject } from '../api/json.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { didYouMean } from '../api/hal/did-you-mean.js';
import { UsageError } from '../api/errors.js';
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

/** Adds or replaces a profile; the first profile added becomes the current one. */
export async function addProfile(path: string, name: string, profile: Profile): Promise<void> {
  checkName(name, 'profile');
  const problem = profileProblem(profile, `profile "${name}"`);
  if (problem) throw new UsageError(problem, 'a profile needs at least a base URL such as https://dpm.example.com/api');
  const config = await loadConfig(path);
  config.profiles[name] = profile;
  config.current ??= name;
  await saveConfig(path, config);
}

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
