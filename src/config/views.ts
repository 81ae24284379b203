// Saved views: a dpx command line kept under a name, as a small JSON file a person can read, edit and
// hand to a colleague. The command line is kept as typed, so a relative window (`--since 24h`) stays
// relative and a profile is kept by name; a token never reaches argv (args.ts refuses one), so none is
// ever saved.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { isObject } from '../api/json.js';
import { writeAtomically } from './files.js';

/** The version of the view file's layout; a file from a newer dpx names a higher one. */
export const VIEW_FORMAT = 1;

export interface SavedView {
  name: string;
  /** The command line after `dpx`, as typed. */
  argv: string[];
  savedAt: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Views live beside the config file, one file each: `views/<name>.json`. */
export function viewsFolder(configPath: string): string {
  return join(dirname(configPath), 'views');
}

export function checkViewName(name: string | undefined): string {
  if (name === undefined || !NAME.test(name)) {
    throw new UsageError(
      `'${name ?? ''}' is not a view name`,
      'a view name is letters, digits, dots, dashes and underscores, e.g. failed-restores',
    );
  }
  return name;
}

export async function saveView(configPath: string, view: SavedView): Promise<string> {
  const path = join(viewsFolder(configPath), `${checkViewName(view.name)}.json`);
  await writeAtomically(path, `${JSON.stringify({ dpxView: VIEW_FORMAT, ...view }, null, 2)}\n`);
  return path;
}

export async function loadView(configPath: string, name: string): Promise<SavedView> {
  const path = join(viewsFolder(configPath), `${checkViewName(name)}.json`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const names = (await listViews(configPath)).map((view) => view.name);
    throw new UsageError(
      `no view named ${name}`,
      names.length === 0 ? 'save one with: dpx view save NAME -- <command>' : `saved views: ${names.join(', ')}`,
    );
  }
  return parseView(text, path);
}

/** Every readable view, by name; a file that is not a view is named by `problem`, not hidden. */
export async function listViews(configPath: string): Promise<(SavedView | { name: string; problem: string })[]> {
  const folder = viewsFolder(configPath);
  let files: string[];
  try {
    files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(
    files.map(async (file) => {
      const path = join(folder, file);
      try {
        return parseView(await readFile(path, 'utf8'), path);
      } catch (error) {
        return { name: file.slice(0, -'.json'.length), problem: (error as Error).message };
      }
    }),
  );
}

/** A view file's text, checked: a malformed file or one from a newer dpx is a clear usage error. */
export function parseView(text: string, path: string): SavedView {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the view file ${path} is not JSON: ${(error as Error).message}`,
      'fix the file, or save the view again with dpx view save',
    );
  }
  if (!isObject(data) || typeof data['dpxView'] !== 'number') {
    throw new UsageError(
      `${path} is not a dpx view (it has no "dpxView" version)`,
      'save the view again with dpx view save',
    );
  }
  if (data['dpxView'] > VIEW_FORMAT) {
    throw new UsageError(
      `the view ${path} was saved by a newer dpx (format ${data['dpxView']}; this dpx reads ${VIEW_FORMAT})`,
      'update dpx, or save the view again with this one',
    );
  }
  const argv = data['argv'];
  if (
    typeof data['name'] !== 'string' ||
    !Array.isArray(argv) ||
    argv.length === 0 ||
    !argv.every((arg) => typeof arg === 'string')
  ) {
    throw new UsageError(
      `the view file ${path} has no command line ("argv": a list of words)`,
      'save the view again with dpx view save',
    );
  }
  return {
    name: data['name'],
    argv: argv as string[],
    savedAt: typeof data['savedAt'] === 'string' ? data['savedAt'] : '',
  };
}
