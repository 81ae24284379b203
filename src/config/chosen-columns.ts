// The columns a reader chose for a resource (`c` in the explorer), kept per control plane's origin and
// resource in `columns.json` beside the config file: the explorer's lists open with them, and `dpx list`'s
// table takes them as its default `--fields`. Machine formats (json, ndjson, csv) never read them, so a
// script's output does not change because someone tidied a screen.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isObject } from '../api/json.js';
import { writeAtomically } from './files.js';

/** The version of the file's layout. */
const COLUMNS_FORMAT = 1;

type Choices = Record<string, Record<string, string[]>>;

export function columnsFile(configPath: string): string {
  return join(dirname(configPath), 'columns.json');
}

/** Every choice in the file; a missing or unreadable file holds none (a choice is a convenience, never a reason to fail). */
async function readChoices(configPath: string): Promise<Choices> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(columnsFile(configPath), 'utf8'));
  } catch {
    return {};
  }
  const origins = isObject(data) && isObject(data['origins']) ? data['origins'] : {};
  const choices: Choices = {};
  for (const [origin, resources] of Object.entries(origins)) {
    if (!isObject(resources)) continue;
    const kept = Object.entries(resources).filter(
      (entry): entry is [string, string[]] =>
        Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every((field) => typeof field === 'string'),
    );
    if (kept.length > 0) choices[origin] = Object.fromEntries(kept);
  }
  return choices;
}

/** The origin a choice is kept under: scheme, host and port of the control plane's base URL. */
function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** The fields chosen for `resource` on the control plane at `baseUrl`, in their order; undefined when none were. */
export async function chosenColumns(
  configPath: string,
  baseUrl: string,
  resource: string,
): Promise<string[] | undefined> {
  return (await readChoices(configPath))[originOf(baseUrl)]?.[resource];
}

/**
 * The fields a table of `resource` read from `baseUrls` shows by default: the choice kept for their one
 * control plane; none when they are several (each may have its own) or the output is for a machine.
 */
export async function tableColumns(
  configPath: string,
  baseUrls: readonly string[],
  resource: string,
  format: string,
): Promise<string[] | undefined> {
  const origins = new Set(baseUrls.map(originOf));
  const [only] = baseUrls;
  return format === 'table' && origins.size === 1 && only !== undefined
    ? chosenColumns(configPath, only, resource)
    : undefined;
}

/** Keeps `fields` as the choice for `resource` at `baseUrl`; undefined forgets it (every field again, ranked). */
export async function keepColumns(
  configPath: string,
  baseUrl: string,
  resource: string,
  fields: readonly string[] | undefined,
): Promise<void> {
  const choices = await readChoices(configPath);
  const origin = originOf(baseUrl);
  const resources = { ...choices[origin] };
  if (fields && fields.length > 0) resources[resource] = [...fields];
  else delete resources[resource];
  if (Object.keys(resources).length > 0) choices[origin] = resources;
  else delete choices[origin];
  await writeAtomically(
    columnsFile(configPath),
    `${JSON.stringify({ dpxColumns: COLUMNS_FORMAT, origins: choices }, null, 2)}\n`,
  );
}
