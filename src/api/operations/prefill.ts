// Which template variables a record can fill, by name alone: the index says nothing about how a
// record relates to an operation, so names are the only evidence a generic client has.

import type { Operation } from '../hal/catalog.js';
import { scalarText } from '../json.js';
import { isListOperation } from '../hal/operation.js';

/** Lower case with `-`, `_` and spaces removed, so `organizational-units` and `organizational_unit` compare. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** `policy` names `policies`, `task` names `tasks`, `organizational_unit` names `organizational-units`. */
export function wordNamesResource(word: string, resourceName: string): boolean {
  const singular = squash(word);
  const resourceKey = squash(resourceName);
  return singular !== '' && (resourceKey.startsWith(singular) || resourceKey.replace(/ies$/, 'y') === singular);
}

/** True when `name` is `<x>_id` and the record's resource is named after `<x>` (`backup_id` for a `backups` record). */
export function namesRecordId(name: string, resourceName: string): boolean {
  const idOf = /^(.+)_id$/i.exec(name)?.[1];
  return idOf !== undefined && wordNamesResource(idOf, resourceName);
}

/**
 * The names among `names` that take record.id because they are `<x>_id` of the record's own resource:
 * the only evidence that an operation of another resource acts on this record.
 */
export function recordIdValues(
  names: Iterable<string>,
  record: Record<string, unknown> | undefined,
  resourceName: string,
): Record<string, string> {
  const recordId = record ? scalarText(record['id']) : undefined;
  if (recordId === undefined) return {};
  return Object.fromEntries(
    [...names].filter((name) => namesRecordId(name, resourceName)).map((name) => [name, recordId]),
  );
}

/**
 * Values for the operation's variables taken from `record`:
 * 1. a variable named like a record field takes that field (`role_id` ← record.role_id);
 * 2. `id` takes record.id;
 * 3. `<x>_id` takes record.id when the record's resource is named after `<x>` (`task_id` ← a task's id);
 * 4. the last still-unfilled `<x>_id` variable of the path takes record.id when it is the path's last
 *    variable: an operation of the record's own resource addresses the record by its final segment. Not
 *    so a list under a parent (`/groups/{group_id}/backups`): its variables name the parent, never the record.
 */
export function prefillFromRecord(
  operation: Operation,
  record: Record<string, unknown> | undefined,
  resourceName: string,
): Record<string, string> {
  const values: Record<string, string> = {};
  if (!record) return values;
  const { pathVariables: path, queryVariables: query } = operation;
  const recordId = scalarText(record['id']);
  for (const name of [...path, ...query]) {
    const own = scalarText(record[name]);
    if (own !== undefined) {
      values[name] = own;
      continue;
    }
    if (recordId === undefined || query.includes(name)) continue;
    if (name.toLowerCase() === 'id' || namesRecordId(name, resourceName)) values[name] = recordId;
  }
  const last = path[path.length - 1];
  const idsLeft = path.filter((name) => values[name] === undefined && /_id$/i.test(name));
  if (
    recordId !== undefined &&
    last !== undefined &&
    idsLeft.length === 1 &&
    idsLeft[0] === last &&
    !Object.values(values).includes(recordId) &&
    !isListOperation(operation)
  ) {
    values[last] = recordId;
  }
  return values;
}
