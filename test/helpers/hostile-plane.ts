// A control plane shaped like the real service and hostile where the real one may be: built on
// servers.ts, for the tests of issue 21's "reverse lookups" and "interrupted, cyclic and endless work".
//   - Filters in the operator form only (`{"field": {"$eq": value}}`, also $in, $contains, $gt…), on each
//     list's declared fields; anything else is a 400 whose `errors` carry a numeric `error_code`.
//   - A unit tree (the OU header scopes a list to the unit and its descendants) that may hold a parent
//     cycle, or be thousands of units large; a unit whose requests are never answered.
//   - Lists whose `next` links never end (a new page token every time), with or without counts that say
//     otherwise.
//   - Jobs for the x-ray: one referred to by an operator-only list, by a pair of fields, by a list that
//     refuses the filter's field, and one with more links than the x-ray's record cap; a snapshot list whose
//     `volume_type` (gp2, io1) sits beside `volume_id` and names no resource.
// Every request is in `requests`, with the time it arrived, so a test can say what was sent when.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { parseOperatorFilter } from './operator-filter.js';
import { sendJson, startServer, type RecordedRequest, type TestServer } from './servers.js';

export const VENDOR = 'dpm';
export const OU_HEADER = `x-${VENDOR}-organizationalunit-context`;

/** The real service's error codes are numbers; these are the plane's own (the filter's are operator-filter.ts's). */
const CODES = { unauthorized: 40100, notFound: 40400 } as const;

export interface HostileUnit {
  id: string;
  name: string;
  parent_id?: string;
}

/** u-root, u-e under it, and u-a ⇄ u-b naming each other as parents, with u-c under u-a. */
export const CYCLIC_UNITS: HostileUnit[] = [
  { id: 'u-root', name: 'Global' },
  { id: 'u-e', name: 'Engineering', parent_id: 'u-root' },
  { id: 'u-a', name: 'Alpha', parent_id: 'u-b' },
  { id: 'u-b', name: 'Beta', parent_id: 'u-a' },
  { id: 'u-c', name: 'Gamma', parent_id: 'u-a' },
];

/** A tree of `count` units, ten children to a parent: `unit-0` is the root. */
export function bigTree(count: number): HostileUnit[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `unit-${index}`,
    name: `Unit ${index}`,
    ...(index === 0 ? {} : { parent_id: `unit-${Math.floor((index - 1) / 10)}` }),
  }));
}

export interface HostilePlaneOptions {
  units?: HostileUnit[];
  /** Tasks each unit holds itself (default 2). */
  tasksPerUnit?: number;
  /** Requests naming this unit in the OU header are never answered. */
  silentUnit?: string;
  /** Each answer waits this long (default none). */
  delayMs?: number;
  /** Linked jobs of the job `j-wide` (default 520, past the x-ray's cap of 500). */
  wideLinks?: number;
  /** Characters in the name of each of j-wide's jobs (default 40): a long x-ray output. */
  wideNameLength?: number;
  /** Changes every task's name: what a replay of an earlier trail then finds different. */
  generation?: number;
}

export interface HostilePlane extends TestServer {
  units: HostileUnit[];
  /** Requests other than the discovery index, in arrival order. */
  apiRequests(): RecordedRequest[];
  /** Changes the answers from now on (see HostilePlaneOptions.generation). */
  setGeneration(generation: number): void;
}

const listHref = (path: string) => ({ href: `${path}{?limit,start,filter}`, type: 'get', templated: true });
const readHref = (path: string, variable: string) => ({ href: `${path}/{${variable}}`, type: 'get', templated: true });

const INDEX = {
  'organizational-units': {
    supported_versions: ['v1'],
    v1: { list_organizational_units: listHref('/organizational-units') },
  },
  tasks: { supported_versions: ['v1'], v1: { list_tasks: listHref('/tasks') } },
  users: { supported_versions: ['v1'], v1: { list_users: listHref('/users') } },
  jobs: { supported_versions: ['v1'], v1: { list_jobs: listHref('/jobs'), get_job: readHref('/jobs', 'job_id') } },
  snapshots: { supported_versions: ['v1'], v1: { list_snapshots: listHref('/snapshots') } },
  activities: { supported_versions: ['v1'], v1: { list_activities: listHref('/activities') } },
  'audit-logs': { supported_versions: ['v1'], v1: { list_audit_logs: listHref('/audit-logs') } },
  notifications: { supported_versions: ['v1'], v1: { list_notifications: listHref('/notifications') } },
  events: { supported_versions: ['v1'], v1: { list_events: listHref('/events') } },
  feeds: { supported_versions: ['v1'], v1: { list_feeds: listHref('/feeds') } },
};

/** The fields each list accepts a filter on; any other is refused (40013). */
const FILTERABLE: Record<string, string[]> = {
  'organizational-units': ['id', 'name', 'parent_id'],
  tasks: ['id', 'status', 'category', 'type', 'created_timestamp', 'organizational_unit_id'],
  users: ['id', 'name', 'role_id', 'organizational_unit_id'],
  jobs: ['id', 'name', 'status'],
  snapshots: ['id', 'job_id', 'volume_id', 'volume_type'],
  activities: ['id', 'action', 'primary_entity.type', 'primary_entity.id'],
  'audit-logs': ['id', 'action', 'user_email'],
  notifications: ['id', 'severity'],
  events: ['id'],
  feeds: ['id'],
};

const JOB_ONE = { id: 'j-1', name: 'Nightly copy', status: 'failed', _links: { self: { href: '/jobs/j-1' } } };

const STATIC: Record<string, Record<string, unknown>[]> = {
  users: [{ id: 'p-1', name: 'Ada' }],
  snapshots: [
    { id: 's-1', job_id: 'j-1', volume_id: 'vol-1', volume_type: 'gp2', created_timestamp: '2026-01-02T03:00:00Z' },
    { id: 's-2', job_id: 'j-1', volume_id: 'vol-2', volume_type: 'io1', created_timestamp: '2026-01-02T04:00:00Z' },
    { id: 's-3', job_id: 'j-9', volume_id: 'j-1', volume_type: 'gp2', created_timestamp: '2026-01-02T05:00:00Z' },
  ],
  activities: [
    {
      id: 'a-1',
      action: 'job.start',
      user: 'ada',
      created_timestamp: '2026-01-02T03:00:00Z',
      primary_entity: { type: 'job', id: 'j-1' },
    },
    {
      id: 'a-2',
      action: 'job.fail',
      user: 'ada',
      created_timestamp: '2026-01-02T04:00:00Z',
      primary_entity: { type: 'job', id: 'j-1' },
    },
    {
      id: 'a-3',
      action: 'user.login',
      user: 'bob',
      created_timestamp: '2026-01-02T05:00:00Z',
      primary_entity: { type: 'user', id: 'p-1' },
    },
  ],
  'audit-logs': [
    { id: 'l-1', action: 'update', user_email: 'ada@example.com', target_type: 'job', target_id: 'j-1' },
    { id: 'l-2', action: 'login', user_email: 'bob@example.com', target_type: 'user', target_id: 'p-1' },
  ],
  notifications: [{ id: 'n-1', severity: 'high', job_id: 'j-1', text: 'the copy failed' }],
};

/** Starts the plane on 127.0.0.1; any bearer token is accepted (the plane checks that one is sent). */
export async function startHostilePlane(options: HostilePlaneOptions = {}): Promise<HostilePlane> {
  const units = options.units ?? CYCLIC_UNITS;
  const tasksPerUnit = options.tasksPerUnit ?? 2;
  const wideLinks = options.wideLinks ?? 520;
  const wideName = (index: number) => `Wide member ${index} `.padEnd(options.wideNameLength ?? 40, '·');
  let generation = options.generation ?? 0;
  const scopeSizes = scopeSizesOf(units);
  const server = await startServer(async (request, response, self) => {
    const url = new URL(request.url, self.baseUrl);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const ou = header(request, OU_HEADER);
    // A unit that never answers: the socket stays open until the test closes the plane.
    if (options.silentUnit !== undefined && ou === options.silentUnit) return;
    if (!/^Bearer \S+/.test(header(request, 'authorization') ?? ''))
      return fail(response, 401, CODES.unauthorized, 'a bearer token is required');
    if (url.pathname === '/')
      return sendJson(response, 200, INDEX, { 'content-type': `application/api.${VENDOR}.*=v1+json` });
    const [, name = '', id] = url.pathname.split('/');
    const media = { 'content-type': `application/api.${VENDOR}.${name}=v1+json` };
    if (!(name in INDEX) || request.method !== 'GET')
      return fail(response, 404, CODES.notFound, `nothing at ${url.pathname}`);

    if (id !== undefined) {
      const job = name === 'jobs' ? jobById(id) : undefined;
      return job ? sendJson(response, 200, job, media) : fail(response, 404, CODES.notFound, `no ${name} ${id}`);
    }
    const filter = parseOperatorFilter(url.searchParams.get('filter'), FILTERABLE[name]!);
    if ('error' in filter) return fail(response, 400, filter.code, filter.error);
    const limit = Math.max(1, Number(url.searchParams.get('limit') ?? '10'));
    const start = url.searchParams.get('start');

    if (name === 'events' || name === 'feeds') {
      // Paging that never ends: each page links to a page token never seen before. Feeds also claims 5 records in all.
      const token = start ?? 'first';
      const next = `${name}-${randomBytes(9).toString('base64url')}`;
      const body: Record<string, unknown> = {
        _embedded: { items: [{ id: `${name}-${token}` }] },
        _links: { self: { href: `/${name}?start=${token}` }, next: { href: `/${name}?limit=${limit}&start=${next}` } },
        current_count: 1,
      };
      if (name === 'feeds') Object.assign(body, { total_count: 5, total_pages_count: 5 });
      return sendJson(response, 200, body, media);
    }

    let records: Record<string, unknown>[];
    let total: number;
    if (name === 'organizational-units') {
      records = units.map((unit) => ({ ...unit }));
      total = records.length;
    } else if (name === 'tasks') {
      // The unit's scope: itself and its descendants. Only one page is built, whatever the scope's size.
      const scope = ou === undefined ? units.length : (scopeSizes.get(ou) ?? 0);
      total = scope * tasksPerUnit;
      const offset = (pageNumber(start) - 1) * limit;
      records = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, index) =>
        task(offset + index, ou, generation),
      );
      return sendPage(response, name, media, records, total, limit, pageNumber(start), url, true);
    } else if (name === 'jobs') {
      records = [JOB_ONE, ...Array.from({ length: Math.min(wideLinks, 20) }, (_, index) => wideJob(index))];
      total = wideLinks + 2;
    } else {
      records = STATIC[name] ?? [];
      total = records.length;
    }
    const matching = records.filter((record) => filter.test(record));
    const page = pageNumber(start);
    return sendPage(
      response,
      name,
      media,
      matching.slice((page - 1) * limit, page * limit),
      name === 'jobs' ? total : matching.length,
      limit,
      page,
      url,
      false,
    );
  });

  function jobById(id: string): Record<string, unknown> | undefined {
    if (id === 'j-1') return JOB_ONE;
    if (id === 'j-wide') {
      return {
        id: 'j-wide',
        name: 'Everything at once',
        status: 'completed',
        _links: {
          self: { href: '/jobs/j-wide' },
          members: Array.from({ length: wideLinks }, (_, index) => ({ href: `/jobs/j-w-${index}` })),
        },
      };
    }
    const wide = /^j-w-(\d+)$/.exec(id);
    return wide && Number(wide[1]) < wideLinks ? wideJob(Number(wide[1])) : undefined;
  }

  function wideJob(index: number): Record<string, unknown> {
    return {
      id: `j-w-${index}`,
      name: wideName(index),
      status: 'completed',
      _links: { self: { href: `/jobs/j-w-${index}` } },
    };
  }

  return {
    ...server,
    units,
    apiRequests: () => server.requests.filter((request) => request.url !== '/'),
    setGeneration: (value) => {
      generation = value;
    },
  };
}

function task(index: number, ou: string | undefined, generation: number): Record<string, unknown> {
  return {
    id: `t-${ou ?? 'all'}-${index}`,
    name: `Task ${index}${generation > 0 ? ` (generation ${generation})` : ''}`,
    status: index % 3 === 0 ? 'failed' : 'completed',
    category: 'backup',
    organizational_unit_id: ou ?? null,
  };
}

function sendPage(
  response: ServerResponse,
  name: string,
  media: Record<string, string>,
  items: Record<string, unknown>[],
  total: number,
  limit: number,
  page: number,
  url: URL,
  keepQuery: boolean,
): void {
  const pages = Math.max(1, Math.ceil(total / limit));
  const href = (number: number) => {
    const query = new URLSearchParams(keepQuery ? url.searchParams : undefined);
    query.set('limit', String(limit));
    query.set('start', String(number));
    return `/${name}?${query.toString()}`;
  };
  const links: Record<string, unknown> = {
    self: { href: href(page) },
    first: { href: href(1) },
    last: { href: href(pages) },
  };
  if (page < pages) links['next'] = { href: href(page + 1) };
  if (page > 1) links['previous'] = { href: href(page - 1) };
  sendJson(
    response,
    200,
    {
      _embedded: { items },
      _links: links,
      current_count: items.length,
      total_count: total,
      total_pages_count: pages,
      start: String(page),
    },
    media,
  );
}

function pageNumber(start: string | null): number {
  const number = Number(start ?? '1');
  return Number.isInteger(number) && number >= 1 ? number : 1;
}

/** How many units each unit's scope holds (itself and every descendant), a parent cycle walked once. */
function scopeSizesOf(units: HostileUnit[]): Map<string, number> {
  const children = new Map<string, string[]>();
  for (const unit of units)
    if (unit.parent_id !== undefined) children.set(unit.parent_id, [...(children.get(unit.parent_id) ?? []), unit.id]);
  const sizes = new Map<string, number>();
  for (const unit of units) {
    const seen = new Set([unit.id]);
    const stack = [unit.id];
    while (stack.length > 0)
      for (const child of children.get(stack.pop()!) ?? []) if (!seen.has(child)) stack.push(child), seen.add(child);
    sizes.set(unit.id, seen.size);
  }
  return sizes;
}

function header(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function fail(response: ServerResponse, status: number, code: number, message: string): void {
  sendJson(response, status, { errors: [{ error_code: code, error_message: message }] });
}
