import { randomUUID } from 'node:crypto';
import {
  newestFirst,
  pathOf,
  resourceDef,
  versionDef,
  type OperationDef,
  type ResourceDef,
  type VersionDef,
} from './catalog.js';
import { validateBody } from './bodies.js';
import { DemoError } from './errors.js';
import { compileFilter } from './filter.js';
import { world } from './generate.js';
import type { LiveTasks } from './live.js';
import { listEnvelope, pageRequest } from './paging.js';
import type { Store, StoredRecord } from './store.js';
import { present, selfPath } from './views.js';

export interface RegionData {
  store: Store;
  live: LiveTasks;
}

export interface OperationContext {
  data: RegionData;
  resourceName: string;
  resource: ResourceDef;
  versionName: string;
  version: VersionDef;
  operationId: string;
  operation: OperationDef;
  variables: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** Organizational units the request may see; undefined when it is not limited. */
  scope: Set<string> | undefined;
  /**
   * Units whose records a request without a unit does not see (DemoOptions.hiddenTenants): set only on
   * such requests. The units themselves are still listed, and a request in their context sees them.
   */
  hidden?: ReadonlySet<string>;
  subject: string;
  now: number;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The resource and version of the body's media type, when not the operation's own. */
  media?: { resource: string; version: string };
}

type Behaviour = (context: OperationContext) => OperationResult;

function inScope(
  resource: ResourceDef,
  record: StoredRecord,
  scope: Set<string> | undefined,
  hidden?: ReadonlySet<string>,
): boolean {
  if (resource.scope_field === null) return true;
  if (!scope) return !hiddenField(resource, hidden) || !hidden!.has(record[resource.scope_field] as string);
  return scope.has(record[resource.scope_field] as string);
}

/** Whether a resource's records can be hidden from a request without a unit: those that name their unit (not the units themselves). */
function hiddenField(
  resource: ResourceDef,
  hidden: ReadonlySet<string> | undefined,
): resource is ResourceDef & { scope_field: string } {
  return hidden !== undefined && hidden.size > 0 && resource.scope_field !== null && resource.scope_field !== 'id';
}

/** The record of `resourceName` that the path names by its id variable (the operation's own resource by default), if the request may see it. */
function findRecord(context: OperationContext, resourceName = context.resourceName): StoredRecord {
  const resource = resourceDef(resourceName);
  const id = context.variables[resource.id_variable] ?? '';
  const record = context.data.store.collection(resourceName).get(id);
  if (!record || !inScope(resource, record, context.scope, context.hidden)) {
    throw new DemoError(
      404,
      'record_not_found',
      `No ${resourceName} record with id ${id} in this organizational-unit context`,
    );
  }
  return record;
}

/** Body fields (the version's names, possibly dotted) as stored fields. */
function toStored(version: VersionDef, body: Record<string, unknown>): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) stored[version.fields[name]?.from ?? name] = value;
  return stored;
}

function checkReferences(context: OperationContext, fields: Record<string, unknown>, selfId?: string): void {
  const { resource, data, scope } = context;
  for (const [field, target] of Object.entries(resource.references ?? {})) {
    const id = fields[field];
    if (id === undefined || id === null) continue;
    const referenced = data.store.collection(target).get(String(id));
    if (!referenced || !inScope(resourceDef(target), referenced, scope, context.hidden)) {
      throw new DemoError(
        422,
        'invalid_reference',
        `${field} ${String(id)} names no ${target} record visible in this organizational-unit context`,
      );
    }
  }
  for (const field of resource.unique ?? []) {
    const value = fields[field];
    if (value === undefined) continue;
    const taken = data.store.collection(context.resourceName).items.some((r) => r[field] === value && r.id !== selfId);
    if (taken)
      throw new DemoError(
        409,
        'conflict',
        `Another ${context.resourceName} record already has ${field} ${JSON.stringify(value)}`,
      );
  }
}

function bodyKey(context: OperationContext): string {
  return `${context.resourceName}.${context.versionName}.${context.operationId}`;
}

function presented(context: OperationContext, record: StoredRecord): unknown {
  return present(context.resource, context.version, record);
}

function list(context: OperationContext): OperationResult {
  const request = pageRequest(context.query);
  const { resource, scope } = context;
  const parent = parentOf(context);
  const matches =
    request.filter === undefined
      ? undefined
      : compileFilter(request.filter, context.version, context.resourceName, context.versionName);
  const { store } = context.data;
  // A unit's own records first (kept per unit), then the filter over those alone.
  const items =
    scope && resource.scope_field !== null
      ? store.inScope(context.resourceName, resource.scope_field, scope)
      : !scope && hiddenField(resource, context.hidden)
        ? store.outside(context.resourceName, resource.scope_field, context.hidden!)
        : store.collection(context.resourceName).items;
  const unfiltered = !parent && !matches;
  const matching = unfiltered
    ? items
    : items.filter((r) => (!parent || r[parent.field] === parent.id) && (!matches || matches(r)));
  return {
    status: 200,
    body: listEnvelope(
      parent?.path ?? pathOf(context.operation.href),
      request,
      matching,
      (r) => presented(context, r),
      context.resource.envelope_counts !== false,
    ),
  };
}

/** The parent of a list under one (`/protection-groups/{id}/backups`), found as a read of it would be; its page links keep its path. */
function parentOf(context: OperationContext): { id: string; field: string; path: string } | undefined {
  const parent = context.operation.parent;
  if (!parent) return undefined;
  const record = findRecord(context, parent.resource);
  const path = pathOf(context.operation.href).replace(
    `{${resourceDef(parent.resource).id_variable}}`,
    encodeURIComponent(record.id),
  );
  return { id: record.id, field: parent.field, path };
}

function read(context: OperationContext): OperationResult {
  return { status: 200, body: presented(context, findRecord(context)) };
}

function create(context: OperationContext): OperationResult {
  const { resource, version, data, scope } = context;
  const fields = toStored(version, validateBody(bodyKey(context), context.body));
  if (resource.scope_field !== null && fields[resource.scope_field] === undefined) {
    fields[resource.scope_field] = scope ? [...scope][0] : world.organizational_units[0]?.id;
  }
  checkReferences(context, fields);
  const record: StoredRecord = {
    ...(resource.defaults ?? {}),
    ...fields,
    id: randomUUID(),
    created_timestamp: context.now,
  };
  if (typeof record['full_name'] === 'string' && record['first_name'] === undefined) {
    const [first = '', ...rest] = record['full_name'].split(' ');
    record['first_name'] = first;
    record['last_name'] = rest.join(' ');
  }
  data.store.collection(context.resourceName).addNewest(record);
  const location = selfPath(resource, version, record);
  return { status: 201, body: presented(context, record), ...(location ? { headers: { Location: location } } : {}) };
}

function update(context: OperationContext): OperationResult {
  const record = findRecord(context);
  const fields = toStored(context.version, validateBody(bodyKey(context), context.body));
  checkReferences(context, fields, record.id);
  Object.assign(record, fields);
  context.data.store.collection(context.resourceName).touch();
  if (typeof fields['full_name'] === 'string') {
    const [first = '', ...rest] = fields['full_name'].split(' ');
    Object.assign(record, { first_name: first, last_name: rest.join(' ') });
  }
  return { status: 200, body: presented(context, record) };
}

function remove(context: OperationContext): OperationResult {
  const record = findRecord(context);
  validateBody(bodyKey(context), context.body);
  context.data.store.collection(context.resourceName).remove(record.id);
  return { status: 204 };
}

function setFields(context: OperationContext): OperationResult {
  const record = findRecord(context);
  validateBody(bodyKey(context), context.body);
  Object.assign(record, context.operation.set ?? {});
  context.data.store.collection(context.resourceName).touch();
  return { status: 200, body: presented(context, record) };
}

function newestTasks(): { version: string; def: VersionDef } {
  const version = newestFirst(resourceDef('tasks').supported_versions)[0] ?? 'v1';
  return { version, def: versionDef('tasks', version) };
}

function taskResult(status: number, task: StoredRecord): OperationResult {
  const tasks = newestTasks();
  const location = selfPath(resourceDef('tasks'), tasks.def, task);
  return {
    status,
    body: present(resourceDef('tasks'), tasks.def, task),
    media: { resource: 'tasks', version: tasks.version },
    ...(location ? { headers: { Location: location } } : {}),
  };
}

function abortTask(context: OperationContext): OperationResult {
  const task = findRecord(context);
  validateBody(bodyKey(context), context.body);
  if (!context.data.live.abort(task, context.now)) {
    throw new DemoError(
      409,
      'task_not_abortable',
      `Task ${task.id} is ${String(task['status'])}; only scheduled, queued or in_progress tasks can be aborted`,
    );
  }
  return taskResult(202, task);
}

/** An on-demand restore: a restore record and the task that carries it out, answered with 202 and the task. */
function startRestore(context: OperationContext): OperationResult {
  const body = validateBody(bodyKey(context), context.body);
  checkReferences(context, body);
  const backup = context.data.store.collection('backups').get(String(body['backup_id']));
  if (!backup) throw new DemoError(422, 'invalid_reference', `backup_id ${String(body['backup_id'])} names no backup`);
  const unitId = backup['organizational_unit_id'] as string;
  const live = world.live;
  const restoreType = typeof body['restore_type'] === 'string' ? body['restore_type'] : 'full';
  const target = typeof body['target'] === 'string' ? body['target'] : `${String(backup['object_name'])}-restored`;
  const restoreId = randomUUID();
  const task: StoredRecord = {
    id: randomUUID(),
    name: `On demand restore – ${String(backup['object_name'])} → ${target}`,
    category: 'restore',
    type: 'on_demand_restore',
    status: 'queued',
    progress_percentage: 0,
    created_timestamp: context.now,
    start_timestamp: null,
    end_timestamp: null,
    organizational_unit_id: unitId,
    initiated_by_type: 'user',
    initiated_by_email: context.subject,
    protection_group_id: backup['protection_group_id'] ?? null,
    backup_id: backup.id,
    restore_id: restoreId,
    error_code: null,
    error_message: null,
  };
  const restore: StoredRecord = {
    id: restoreId,
    restore_type: restoreType,
    target,
    status: 'queued',
    requested_by: context.subject,
    backup_id: backup.id,
    task_id: task.id,
    organizational_unit_id: unitId,
    created_timestamp: context.now,
  };
  context.data.store.collection('tasks').addNewest(task);
  context.data.store.collection('restores').addNewest(restore);
  // The outcome follows from the task id, so a test can only wait for a final state, not pick one.
  const failed = parseInt(task.id.slice(0, 8), 16) / 0xffffffff < live.restore_failure_share;
  context.data.live.track(
    {
      task,
      waitMs: live.restore_queue_seconds * 1000,
      runMs: live.restore_run_seconds * 1000,
      outcome: failed ? 'failed' : 'completed',
    },
    context.now,
  );
  return taskResult(202, task);
}

/** The behaviours an operation in fixtures/demo/resources.json can name. */
export const behaviours: Record<string, Behaviour> = {
  list,
  read,
  create,
  update,
  delete: remove,
  set_fields: setFields,
  abort_task: abortTask,
  start_restore: startRestore,
};
