import { readFile, rm, stat, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import {
  addProfile,
  defaultConfigPath,
  listBookmarks,
  listProfiles,
  loadConfig,
  removeProfile,
  saveBookmark,
  saveConfig,
  useProfile,
} from '../../../src/config/profiles.js';
import { temporaryFolder } from '../../helpers/temporary.js';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = temporaryFolder('dpx-profiles-');
  path = join(dir, 'nested', 'config.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function loadError(text: string): Promise<UsageError> {
  await saveConfig(path, { profiles: {} });
  await writeFile(path, text);
  const error = await loadConfig(path).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('config path', () => {
  it('is DPX_CONFIG when set', () => {
    expect(defaultConfigPath({ DPX_CONFIG: '/somewhere/dpx.json' })).toBe('/somewhere/dpx.json');
  });

  it('is config.json in a dpx folder of the user config directory otherwise', () => {
    const path = defaultConfigPath({});
    expect(path.endsWith(join('dpx', 'config.json'))).toBe(true);
    expect(path).not.toContain('nodejs');
  });
});

describe('loadConfig', () => {
  it('gives an empty config when the file does not exist', async () => {
    expect(await loadConfig(path)).toEqual({ profiles: {} });
  });

  it('names the path and the JSON problem when the file is not JSON', async () => {
    const error = await loadError('{"profiles": {,}');
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/not valid JSON \(.+\)/);
    expect(error.exitCode).toBe(2);
  });

  it('names the path and the field when a profile has the wrong shape', async () => {
    const error = await loadError(JSON.stringify({ profiles: { prod: { baseUrl: 'https://x', pageSize: 'ten' } } }));
    expect(error.message).toContain(path);
    expect(error.message).toContain('profiles.prod.pageSize');
  });

  it('refuses a profile without a base URL and a top level that is not an object', async () => {
    expect((await loadError(JSON.stringify({ profiles: { a: { ou: 'x' } } }))).message).toContain('profiles.a.baseUrl');
    expect((await loadError('[]')).message).toContain('top level');
  });
});

describe('saveConfig', () => {
  it('creates the folder, writes mode 0600 and leaves no temporary file', async () => {
    await saveConfig(path, { profiles: { a: { baseUrl: 'https://a.example' } } });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'nested'))).toEqual(['config.json']);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ profiles: { a: { baseUrl: 'https://a.example' } } });
  });
});

describe('profile operations', () => {
  it('add makes the first profile current, use switches, remove forgets it', async () => {
    await addProfile(path, 'prod', { baseUrl: 'https://prod.example/api', tokenEnv: 'PROD_TOKEN', ou: 'ou-1' });
    await addProfile(path, 'lab', { baseUrl: 'https://lab.example/api', readOnly: false });
    expect((await loadConfig(path)).current).toBe('prod');

    await useProfile(path, 'lab');
    expect(await listProfiles(path)).toEqual([
      { name: 'lab', profile: { baseUrl: 'https://lab.example/api', readOnly: false }, current: true },
      {
        name: 'prod',
        profile: { baseUrl: 'https://prod.example/api', tokenEnv: 'PROD_TOKEN', ou: 'ou-1' },
        current: false,
      },
    ]);

    await removeProfile(path, 'lab');
    const config = await loadConfig(path);
    expect(Object.keys(config.profiles)).toEqual(['prod']);
    expect(config.current).toBeUndefined();
  });

  it('refuses to use or remove a profile that does not exist, naming the known ones', async () => {
    await addProfile(path, 'prod', { baseUrl: 'https://prod.example/api' });
    const error = await useProfile(path, 'staging').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('"staging"');
    expect((error as UsageError).hint).toContain('prod');
    await expect(removeProfile(path, 'staging')).rejects.toBeInstanceOf(UsageError);
  });

  it('refuses a profile without a base URL or with an unusable name', async () => {
    await expect(addProfile(path, 'x', { baseUrl: '' })).rejects.toBeInstanceOf(UsageError);
    await expect(addProfile(path, 'two words', { baseUrl: 'https://a' })).rejects.toBeInstanceOf(UsageError);
  });
});

describe('bookmarks', () => {
  it('are saved beside the profiles and listed by name', async () => {
    await addProfile(path, 'prod', { baseUrl: 'https://prod.example/api' });
    await saveBookmark(path, 'failed-tasks', {
      profile: 'prod',
      resource: 'tasks',
      version: 'v1',
      filter: '{"state":"failed"}',
      page: '3',
    });
    await saveBookmark(path, 'admins', { resource: 'users', ou: 'ou-9' });
    expect(await listBookmarks(path)).toEqual([
      { name: 'admins', bookmark: { resource: 'users', ou: 'ou-9' } },
      {
        name: 'failed-tasks',
        bookmark: { profile: 'prod', resource: 'tasks', version: 'v1', filter: '{"state":"failed"}', page: '3' },
      },
    ]);
    expect(Object.keys((await loadConfig(path)).profiles)).toEqual(['prod']);
  });

  it('replaces a bookmark of the same name and refuses one without a resource', async () => {
    await saveBookmark(path, 'b', { resource: 'users' });
    await saveBookmark(path, 'b', { resource: 'tasks' });
    expect(await listBookmarks(path)).toEqual([{ name: 'b', bookmark: { resource: 'tasks' } }]);
    await expect(saveBookmark(path, 'c', { resource: '' })).rejects.toBeInstanceOf(UsageError);
  });
});
