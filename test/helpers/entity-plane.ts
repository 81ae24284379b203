// A control plane shaped like a real one, not like the demo: its own vendor token (`dpm` unless another is
// asked for: the spec's own, `service`, makes dpx's shipped schemas apply to it), the spec's
// resource names (tasks, alerts: dpx ships their spec schemas, which have no `primary_entity`), and
// records that name what they are about in `primary_entity: {id, type, value}`. Its lists take a filter in
// the operator form only, on `primary_entity.id` with `$eq` or `$in` (and on `id`), and refuse
// `primary_entity.type` with a 400, as such a server does; its events take a filter on `id` alone. A page
// is at most 100 records.
import { sendJson, type Handler } from './servers.js';

/** The vendor token of a server that is not the spec's. */
export const OWN_VENDOR = 'dpm';
const list = (path: string) => ({ href: `${path}{?limit,start,filter}`, type: 'get', templated: true });
const read = (path: string, variable: string) => ({ href: `${path}/{${variable}}`, type: 'get', templated: true });

export const ENTITY_INDEX = {
  volumes: {
    supported_versions: ['v1'],
    v1: { list_volumes: list('/volumes'), get_volume: read('/volumes', 'volume_id') },
  },
  tasks: { supported_versions: ['v1'], v1: { list_tasks: list('/tasks'), get_task: read('/tasks', 'task_id') } },
  alerts: { supported_versions: ['v1'], v1: { list_alerts: list('/alerts') } },
  events: { supported_versions: ['v1'], v1: { list_events: list('/events') } },
};

/** The volume the x-ray is of, and the records that name it. */
export const VOLUME = 'vol-7f3a';
export const TASKS_OF_VOLUME = ['t-1', 't-2', 't-4', 't-6'];
export const ALERTS_OF_VOLUME = ['a-1', 'a-3'];

const about = (id: string, type: string, value: string) => ({ primary_entity: { id, type, value } });
const self = (path: string) => ({ _links: { self: { href: path } } });

const RECORDS: Record<string, Record<string, unknown>[]> = {
  volumes: [
    { id: VOLUME, name: 'vol-prod-01', size_gb: 512, ...self(`/volumes/${VOLUME}`) },
    { id: 'vol-0001', name: 'vol-test-02', size_gb: 64, ...self('/volumes/vol-0001') },
  ],
  tasks: [
    {
      id: 't-1',
      name: 'Snapshot',
      status: 'completed',
      ...about(VOLUME, 'volume', 'vol-prod-01'),
      ...self('/tasks/t-1'),
    },
    { id: 't-2', name: 'Backup', status: 'failed', ...about(VOLUME, 'volume', 'vol-prod-01'), ...self('/tasks/t-2') },
    {
      id: 't-3',
      name: 'Backup',
      status: 'completed',
      ...about('vol-0001', 'volume', 'vol-test-02'),
      ...self('/tasks/t-3'),
    },
    { id: 't-4', name: 'Restore', status: 'running', ...about(VOLUME, 'volume', 'vol-prod-01'), ...self('/tasks/t-4') },
    {
      id: 't-5',
      name: 'Alert digest',
      status: 'completed',
      ...about('a-2', 'alert', 'Task slow'),
      ...self('/tasks/t-5'),
    },
    { id: 't-6', name: 'Grow', status: 'completed', ...about(VOLUME, 'volume', 'vol-prod-01'), ...self('/tasks/t-6') },
    // Another kind of record whose id happens to be the volume's: only the type on the record tells them apart.
    { id: 't-7', name: 'Audit', status: 'completed', ...about(VOLUME, 'report', 'weekly'), ...self('/tasks/t-7') },
  ],
  alerts: [
    { id: 'a-1', severity: 'critical', message: 'Volume almost full', ...about(VOLUME, 'volume', 'vol-prod-01') },
    { id: 'a-2', severity: 'warning', message: 'Task slow', ...about('t-2', 'task', 'Backup') },
    { id: 'a-3', severity: 'warning', message: 'Snapshot late', ...about(VOLUME, 'volume', 'vol-prod-01') },
  ],
  // A list that takes a filter on its own id alone: it cannot be searched for what its records are about.
  events: [{ id: 'e-1', action: 'resize', ...about(VOLUME, 'volume', 'vol-prod-01') }],
};

function refuse(response: Parameters<Handler>[1], code: string, message: string): void {
  sendJson(response, 400, { errors: [{ error_code: code, error_message: message }] });
}

/** The records `filter` selects, or the refusal's message. */
function select(
  records: Record<string, unknown>[],
  filter: Record<string, unknown>,
  fields: string[],
): Record<string, unknown>[] | string {
  let selected = records;
  for (const [field, condition] of Object.entries(filter)) {
    if (!fields.includes(field)) return `filtering on ${field} is not supported`;
    if (typeof condition !== 'object' || condition === null || Array.isArray(condition))
      return `the condition on ${field} must be an operator object ($eq, $in)`;
    const [[operator, value] = []] = Object.entries(condition);
    const wanted = operator === '$eq' ? [value] : operator === '$in' && Array.isArray(value) ? value : undefined;
    if (wanted === undefined) return `operator ${String(operator)} is not supported on ${field}`;
    selected = selected.filter((record) => {
      const own = field === 'id' ? record['id'] : (record['primary_entity'] as { id?: unknown } | undefined)?.id;
      return wanted.includes(own);
    });
  }
  return selected;
}

export function entityPlane(vendor = OWN_VENDOR): Handler {
  return (request, response, server) => {
    const url = new URL(request.url, server.baseUrl);
    const [, name = '', id] = url.pathname.split('/');
    const type = (resource: string) => ({ 'content-type': `application/api.${vendor}.${resource}=v1+json` });
    if (url.pathname === '/')
      return sendJson(response, 200, ENTITY_INDEX, { 'content-type': `application/api.${vendor}.*=v1+json` });
    const records = RECORDS[name];
    if (!records || request.method !== 'GET')
      return sendJson(response, 404, { errors: [{ error_code: '404', error_message: `nothing at ${url.pathname}` }] });
    if (id !== undefined) {
      const record = records.find((candidate) => candidate['id'] === id);
      if (!record)
        return sendJson(response, 404, { errors: [{ error_code: '404', error_message: `no ${name} ${id}` }] });
      return sendJson(response, 200, record, type(name));
    }
    const limit = Number(url.searchParams.get('limit') ?? '20');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return refuse(response, '40001', 'limit must be from 1 to 100');
    let filter: Record<string, unknown> = {};
    const filterText = url.searchParams.get('filter');
    if (filterText !== null) {
      try {
        filter = JSON.parse(filterText) as Record<string, unknown>;
      } catch {
        return refuse(response, '40012', 'the filter is not JSON');
      }
    }
    const selected = select(records, filter, name === 'events' ? ['id'] : ['id', 'primary_entity.id']);
    if (typeof selected === 'string') return refuse(response, '40013', selected);
    const start = Number(url.searchParams.get('start') ?? '0');
    const items = selected.slice(start, start + limit);
    return sendJson(
      response,
      200,
      {
        _embedded: { items },
        _links: { self: { href: `${url.pathname}${url.search}` } },
        total_count: selected.length,
      },
      type(name),
    );
  };
}
