// The column choices kept beside the config file: per control plane's origin and resource, forgotten on
// request, ignored when the file is unreadable, and a table's default only (never a machine format's).
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenColumns, columnsFile, keepColumns, tableColumns } from '../../../src/config/chosen-columns.js';
import { temporaryFolder } from '../../helpers/temporary.js';

let dir = '';
let config = '';
beforeAll(async () => {
  dir = temporaryFolder('dpx-column-choice-');
  config = join(dir, 'config.json');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('column choices', () => {
  it('are kept per origin and resource, in their order, in a file only the user reads', async () => {
    await keepColumns(config, 'https://eu.example.com/api', 'tasks', ['status', 'id']);
    await keepColumns(config, 'https://us.example.com/api', 'tasks', ['name']);
    await keepColumns(config, 'https://eu.example.com/api/', 'users', ['email']);
    expect(await chosenColumns(config, 'https://eu.example.com/other', 'tasks')).toEqual(['status', 'id']);
    expect(await chosenColumns(config, 'https://us.example.com/api', 'tasks')).toEqual(['name']);
    expect(await chosenColumns(config, 'https://eu.example.com/api', 'users')).toEqual(['email']);
    expect(await chosenColumns(config, 'https://eu.example.com/api', 'alerts')).toBeUndefined();
    expect((await stat(columnsFile(config))).mode & 0o777).toBe(0o600);
  });

  it('are forgotten on request, and an unreadable file holds none', async () => {
    await keepColumns(config, 'https://us.example.com/api', 'tasks', undefined);
    expect(await chosenColumns(config, 'https://us.example.com/api', 'tasks')).toBeUndefined();
    expect(JSON.parse(await readFile(columnsFile(config), 'utf8')).origins['https://us.example.com']).toBeUndefined();
    await writeFile(columnsFile(config), '{ not json', { mode: 0o600 });
    expect(await chosenColumns(config, 'https://eu.example.com/api', 'tasks')).toBeUndefined();
    await keepColumns(config, 'https://eu.example.com/api', 'tasks', ['id']);
    expect(await chosenColumns(config, 'https://eu.example.com/api', 'tasks')).toEqual(['id']);
  });

  it('are the default of a table of one control plane, never of json, ndjson or csv', async () => {
    const eu = 'https://eu.example.com/api';
    expect(await tableColumns(config, [eu, eu], 'tasks', 'table')).toEqual(['id']);
    for (const format of ['json', 'ndjson', 'csv'])
      expect(await tableColumns(config, [eu], 'tasks', format)).toBeUndefined();
    expect(await tableColumns(config, [eu, 'https://us.example.com/api'], 'tasks', 'table')).toBeUndefined();
  });
});
