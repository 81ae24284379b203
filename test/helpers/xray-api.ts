// A control plane the x-ray has never seen: its own vendor token, resource names dpx ships no schema for,
// `q` as the filter parameter (bare values only: an operator object is refused with a 400), link arrays,
// templated links, a link to another origin, a record that fails, a list that refuses filters (400) and
// one that ignores them.
import { sendJson, type Handler } from './servers.js';

const list = (path: string) => ({ href: `${path}{?size,page,q}`, type: 'get', templated: true });
const read = (path: string, variable: string) => ({ href: `${path}/{${variable}}`, type: 'get', templated: true });

export const INDEX = {
  jobs: { supported_versions: ['v1'], v1: { all_jobs: list('/jobs'), one_job: read('/jobs', 'job_id') } },
  volumes: {
    supported_versions: ['v1'],
    v1: { all_volumes: list('/volumes'), one_volume: read('/volumes', 'volume_id') },
  },
  people: { supported_versions: ['v1'], v1: { all_people: list('/people'), one_person: read('/people', 'person_id') } },
  events: { supported_versions: ['v1'], v1: { all_events: list('/events') } },
  notes: { supported_versions: ['v1'], v1: { all_notes: list('/notes') } },
  logs: { supported_versions: ['v1'], v1: { all_logs: list('/logs') } },
};

export const JOB = {
  id: 'j-1',
  name: 'Nightly copy',
  state: 'failed',
  owner_id: 'p-7',
  _links: {
    self: { href: '/jobs/j-1' },
    next: { href: '/jobs?page=2' },
    volumes: [{ href: '/volumes/v1' }, { href: '/volumes/v2' }],
    owner: { href: '/people/{owner_id}', templated: true },
    broken: { href: '/volumes/v-500' },
    elsewhere: { href: 'http://192.0.2.1/volumes/v9' },
    cancel: { href: '/jobs/j-1/cancel', type: 'post' },
  },
};

const RECORDS: Record<string, Record<string, unknown>[]> = {
  jobs: [
    JOB,
    { id: 'j-2', name: 'Weekly', state: 'completed', owner_id: 'p-7', _links: { self: { href: '/jobs/j-2' } } },
  ],
  volumes: [
    {
      id: 'v1',
      name: 'vol-a',
      job_id: 'j-1',
      size_bytes: 1536,
      _links: { self: { href: '/volumes/v1' }, job: { href: '/jobs/j-1' }, sibling: { href: '/volumes/v2' } },
    },
    { id: 'v2', name: 'vol-b', job_id: 'j-1', _links: { self: { href: '/volumes/v2' }, job: { href: '/jobs/j-1' } } },
    { id: 'v3', name: 'vol-c', job_id: 'j-2', _links: { self: { href: '/volumes/v3' } } },
  ],
  people: [{ id: 'p-7', full_name: 'Ada Byron', _links: { self: { href: '/people/p-7' } } }],
  events: [
    {
      id: 'e1',
      occurred_at: '2026-01-02T03:00:00Z',
      actor: 'ada',
      event: 'job.start',
      result: 'ok',
      primary_entity: { type: 'job', id: 'j-1' },
    },
    {
      id: 'e2',
      occurred_at: '2026-01-02T04:00:00Z',
      actor: 'ada',
      event: 'job.fail',
      result: 'failed',
      primary_entity: { type: 'job', id: 'j-1' },
    },
    {
      id: 'e3',
      occurred_at: '2026-01-02T05:00:00Z',
      actor: 'bob',
      event: 'volume.grow',
      result: 'ok',
      primary_entity: { type: 'volume', id: 'j-1' },
    },
  ],
  notes: [{ id: 'n1', job_id: 'j-1', text: 'check the tape' }],
  logs: [{ id: 'l1', job_id: 'j-9', line: 'started' }],
};

const VENDOR = 'acme';

export interface XrayApiControls {
  /** The job j-1 is answered once this settles: a test lets the inbound answers come first. */
  rootHeldUntil?: Promise<void>;
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, part) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined),
      record,
    );
}

export function xrayApi(controls: XrayApiControls = {}): Handler {
  return async (request, response, server) => {
    const url = new URL(request.url, server.baseUrl);
    const [, name = '', id] = url.pathname.split('/');
    const type = (resource: string) => ({ 'content-type': `application/api.${VENDOR}.${resource}=v1+json` });
    if (url.pathname === '/')
      return sendJson(response, 200, INDEX, { 'content-type': `application/api.${VENDOR}.*=v1+json` });
    const records = RECORDS[name];
    if (!records || request.method !== 'GET')
      return sendJson(response, 404, {
        errors: [{ error_code: 'not_found', error_message: `nothing at ${url.pathname}` }],
      });
    if (id !== undefined) {
      if (id === 'v-500')
        return sendJson(response, 500, {
          errors: [{ error_code: 'internal', error_message: 'the volume service is down' }],
        });
      const record = records.find((candidate) => candidate['id'] === id);
      if (!record)
        return sendJson(response, 404, {
          errors: [{ error_code: 'record_not_found', error_message: `no ${name} ${id}` }],
        });
      if (name === 'jobs' && id === 'j-1') await controls.rootHeldUntil;
      return sendJson(response, 200, record, type(name));
    }
    const filterText = url.searchParams.get('q');
    if (filterText !== null && name === 'notes') {
      return sendJson(response, 400, {
        errors: [{ error_code: 'invalid_filter', error_message: 'notes cannot be filtered' }],
      });
    }
    const filter = filterText === null ? {} : (JSON.parse(filterText) as Record<string, unknown>);
    // This server compares bare values only, and says so when given an operator object.
    if (name !== 'logs' && Object.values(filter).some((value) => typeof value === 'object' && value !== null)) {
      return sendJson(response, 400, {
        errors: [{ error_code: 'invalid_filter', error_message: 'filter values must be plain values' }],
      });
    }
    const matching =
      name === 'logs'
        ? records
        : records.filter((record) => Object.entries(filter).every(([path, value]) => valueAt(record, path) === value));
    const size = Number(url.searchParams.get('size') ?? '10');
    const items = matching.slice(0, size);
    return sendJson(
      response,
      200,
      {
        _embedded: { items },
        _links: { self: { href: `${url.pathname}${url.search}` } },
        current_count: items.length,
        total_count: matching.length,
      },
      type(name),
    );
  };
}
