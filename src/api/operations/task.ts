// Following the task a 202 response names, until it reaches a final state. Which resource holds tasks,
// and which words end one, are not in the index: both are read from the response and the catalog.
import { setTimeout as sleep } from 'node:timers/promises';
import { findResource, type Catalog } from '../hal/catalog.js';
import { isObject } from '../json.js';
import { resolve } from 'ketting/dist/util/uri.js';
import { isPagingRel, linkOf, recordLinks, type Link } from '../hal/links.js';
import { parseVendorMediaType } from '../media.js';
import { findReadOperation, type PreparedRequest, type RequestTarget } from '../hal/operation.js';
import { routeFor } from '../hal/routes.js';
import { isFinalStatus, isPassingStatus, statusMeaning } from '../hal/status.js';
import { wordNamesResource } from './prefill.js';

/** The parts of a response this module reads (an ApiResponse has them all). */
export interface ResponseLike {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  url: string;
  contentType: string;
}

/** How to fetch the task: by URL (a link or Location header), or by a resource's read operation. */
export type FollowableTask =
  | { kind: 'link'; href: string; resource: string; version: string; taskId?: string; reason: string }
  | {
      kind: 'operation';
      resource: string;
      version: string;
      operationId: string;
      variables: Record<string, string>;
      taskId: string;
      reason: string;
    };

/** The task read by its resource's read operation, its id as the operation's one path variable. */
function byReadOperation(
  resource: string,
  read: NonNullable<ReturnType<typeof findReadOperation>>,
  taskId: string,
  reason: string,
): FollowableTask {
  return {
    kind: 'operation',
    resource,
    version: read.version,
    operationId: read.operation.id,
    variables: { [read.operation.pathVariables[0]!]: taskId },
    taskId,
    reason,
  };
}

const STATUS_FIELDS = ['status', 'state', 'phase', 'task_status', 'task_state'];

/** A record's status word, lower case, from the first status-like field it has. */
export function taskStatus(record: Record<string, unknown>): string | undefined {
  for (const name of STATUS_FIELDS) {
    const value = record[name];
    if (typeof value === 'string' && value !== '') return value.toLowerCase();
  }
  const named = Object.entries(record).find(
    ([name, value]) => /_(status|state)$/i.test(name) && typeof value === 'string',
  );
  return named ? String(named[1]).toLowerCase() : undefined;
}

/** A record's progress in percent, from the first numeric field whose name speaks of progress or percent. */
export function taskProgress(record: Record<string, unknown>): number | undefined {
  const named = Object.entries(record).find(
    ([name, value]) => /progress|percent/i.test(name) && typeof value === 'number' && Number.isFinite(value),
  );
  return named ? (named[1] as number) : undefined;
}

/** An object that is a task: it has an id and a status or progress. */
export function isTaskLike(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const id = value['id'];
  const hasId = (typeof id === 'string' && id !== '') || typeof id === 'number';
  return hasId && (taskStatus(value) !== undefined || taskProgress(value) !== undefined);
}

export type TaskOutcome = 'running' | 'succeeded' | 'warning' | 'failed';

/**
 * Final when the status is a word that ends a task, or when progress has reached 100 and the status is
 * not one a task passes through. An unknown status below 100 % keeps polling.
 */
export function isFinalTask(record: Record<string, unknown>): boolean {
  const status = taskStatus(record);
  if (status !== undefined && isFinalStatus(status)) return true;
  const progress = taskProgress(record);
  return progress !== undefined && progress >= 100 && (status === undefined || !isPassingStatus(status));
}

export function taskOutcome(record: Record<string, unknown>): TaskOutcome {
  if (!isFinalTask(record)) return 'running';
  const status = taskStatus(record);
  if (status === undefined) return 'succeeded';
  const meaning = statusMeaning(status);
  if (meaning === 'succeeded') return 'succeeded';
  if (meaning === 'failed' || meaning === 'stopped') return 'failed';
  return 'warning';
}

function linkTarget(catalog: Catalog, link: Link, base: string): FollowableTask | undefined {
  if (link.templated) return undefined;
  let url: URL;
  try {
    url = new URL(resolve(link));
  } catch {
    return undefined;
  }
  // Only a link to one record (a read operation with one path variable) can be a task to follow.
  const owner = routeFor(catalog, url.toString(), base);
  if (!owner || owner.operation.pathVariables.length !== 1) return undefined;
  const segments = url.pathname.split('/').filter(Boolean);
  return {
    kind: 'link',
    href: url.toString(),
    resource: owner.resource,
    version: owner.version,
    taskId: segments[segments.length - 1],
    reason: `link "${link.rel}"`,
  };
}

/**
 * How to follow the task a 202 response names, or undefined when it names none. In order:
 * the Location header; a `_links` entry (of the body or an object in it) that points into a resource
 * of the index, relations that name their resource first; the body itself when it is a task, by its
 * self link or by the resource its Content-Type names; a `<x>_id` field when exactly one resource is
 * named that way.
 */
export function findFollowableTask(response: ResponseLike, catalog: Catalog): FollowableTask | undefined {
  if (response.status !== 202) return undefined;
  const location = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'location')?.[1];
  if (location) {
    const target = linkTarget(catalog, { rel: 'Location', href: location, context: response.url }, response.url);
    if (target) return { ...target, reason: 'Location header' };
  }
  const body = isObject(response.body) ? response.body : undefined;
  if (!body) return undefined;
  const holders = [
    body,
    ...Object.entries(body)
      .filter(([name, value]) => !name.startsWith('_') && isObject(value))
      .map(([, value]) => value as Record<string, unknown>),
  ];

  const links = holders.flatMap((holder) => recordLinks(holder, response.url).filter((link) => !isPagingRel(link.rel)));
  const targets = links.flatMap((link) => {
    const target = linkTarget(catalog, link, response.url);
    return target ? [{ link, target }] : [];
  });
  const named = targets.find(({ link, target }) => wordNamesResource(link.rel, target.resource)) ?? targets[0];
  if (named) return named.target;

  const task = holders.find(isTaskLike);
  if (task) {
    const self = linkOf(recordLinks(task, response.url), 'self');
    const bySelf = self && linkTarget(catalog, self, response.url);
    if (bySelf) return { ...bySelf, reason: 'the task’s self link' };
    const media = parseVendorMediaType(response.contentType);
    const resource = media && findResource(catalog, media.resource);
    const read = resource && findReadOperation(resource, media.version);
    if (resource && read) {
      return byReadOperation(resource.name, read, String(task['id']), 'the response’s media type');
    }
  }

  const byField = Object.entries(body).flatMap(([name, value]) => {
    const singular = /^(.+)_id$/i.exec(name)?.[1];
    if (singular === undefined || (typeof value !== 'string' && typeof value !== 'number')) return [];
    return catalog.resources.flatMap((resource) => {
      const read = findReadOperation(resource);
      const addressed =
        read && (read.operation.pathVariables[0] === name || wordNamesResource(singular, resource.name));
      return read && addressed ? [{ resource, read, taskId: String(value), name }] : [];
    });
  });
  if (byField.length === 1) {
    const [{ resource, read, taskId, name }] = byField as [(typeof byField)[number]];
    return byReadOperation(resource.name, read, taskId, `the field ${name}`);
  }
  return undefined;
}

/** The parts of a session that following a task uses (a Session has them all). */
export interface TaskSession {
  prepare(target: RequestTarget): Promise<PreparedRequest>;
  prepareLink(
    href: string,
    context: { resource: string; version: string },
    values?: Record<string, string>,
  ): PreparedRequest;
  send(
    request: PreparedRequest,
    options?: { reload?: boolean; signal?: AbortSignal },
  ): Promise<{ status: number; body: unknown }>;
}

export async function taskRequest(session: TaskSession, task: FollowableTask): Promise<PreparedRequest> {
  if (task.kind === 'link') return session.prepareLink(task.href, { resource: task.resource, version: task.version });
  return session.prepare({
    resource: task.resource,
    version: task.version,
    operationId: task.operationId,
    variables: task.variables,
  });
}

export interface TaskState {
  record: Record<string, unknown>;
  status?: string;
  progress?: number;
  final: boolean;
  outcome: TaskOutcome;
  polls: number;
}

/**
 * Fetches the task every `intervalMs` and yields each state, the last one final. Stops early when the
 * signal aborts (the pending wait rejects with an AbortError) or after `maxPolls`.
 */
export async function* followTask(
  session: Pick<TaskSession, 'send'>,
  request: PreparedRequest,
  options: { intervalMs?: number; signal?: AbortSignal; maxPolls?: number } = {},
): AsyncGenerator<TaskState> {
  const intervalMs = options.intervalMs ?? 1000;
  for (let polls = 1; options.maxPolls === undefined || polls <= options.maxPolls; polls++) {
    // Every poll must reach the server: the session would otherwise answer from its freshness window.
    const response = await session.send(request, {
      reload: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const record = isObject(response.body) ? response.body : {};
    const state: TaskState = { record, final: isFinalTask(record), outcome: taskOutcome(record), polls };
    const status = taskStatus(record);
    const progress = taskProgress(record);
    if (status !== undefined) state.status = status;
    if (progress !== undefined) state.progress = progress;
    yield state;
    if (state.final) return;
    await sleep(intervalMs, undefined, options.signal ? { signal: options.signal } : {});
  }
}
