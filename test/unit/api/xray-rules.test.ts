// The x-ray's rules, one at a time, on an index and records it has never seen: which lists could refer
// to a record, which links are followed, how a history entry is read, and how many jobs run at once.
import { describe, expect, it } from 'vitest';
import { Bounded } from '../../../src/api/bounded.js';
import { parseCatalog } from '../../../src/api/hal/catalog.js';
import type { ListFields } from '../../../src/api/xray/fields.js';
import { nodeKey, XrayGraph } from '../../../src/api/xray/graph.js';
import { timeline, timelineEntry } from '../../../src/api/xray/history.js';
import { inboundCandidates, refersTo, typeFieldNamesResources } from '../../../src/api/xray/inbound.js';
import { linkTargets } from '../../../src/api/xray/outbound.js';

const read = (path: string, variable: string) => ({ href: `/${path}/{${variable}}`, type: 'get', templated: true });
const list = (path: string) => ({ href: `/${path}{?size,page,q}`, type: 'get', templated: true });
const catalog = parseCatalog(
  {
    snapshots: { supported_versions: ['v1'], v1: { all: list('snapshots'), one: read('snapshots', 'snapshot_id') } },
    'storage-pools': {
      supported_versions: ['v1'],
      v1: { all: list('storage-pools'), one: read('storage-pools', 'storage_pool_id') },
    },
    events: { supported_versions: ['v1'], v1: { all: list('events') } },
    jobs: { supported_versions: ['v2'], v2: { all: list('jobs'), one: read('jobs', 'job_id') } },
    people: { supported_versions: ['v1'], v1: { all: list('people'), one: read('people', 'person_ref') } },
  },
  'acme',
);
const resource = (name: string) => catalog.resources.find((candidate) => candidate.name === name)!;
const fields = (name: string, names: string[], sample: Record<string, unknown>[] = []): ListFields => ({
  resource: name,
  version: resource(name).defaultVersion,
  fields: names,
  source: sample.length > 0 ? 'page' : 'schema',
  sample,
});

describe('inbound candidates', () => {
  it("a field <singular>_id (or <singular>.id) of the record's resource, on any list, its own included", () => {
    const candidates = inboundCandidates(catalog, resource('snapshots'), 's-1', [
      fields('jobs', ['id', 'snapshot_id', 'storage_pool_id', 'status']),
      fields('snapshots', ['id', 'parent.id', 'snapshot.id']),
      fields('events', ['id', 'snapshots_id']),
    ]);
    expect(candidates.map((candidate) => [candidate.resource, candidate.via, candidate.rel, candidate.filter])).toEqual(
      [
        ['jobs', 'snapshot_id', 'snapshot', { snapshot_id: 's-1' }],
        ['snapshots', 'snapshot.id', 'snapshot', { 'snapshot.id': 's-1' }],
        ['events', 'snapshots_id', 'snapshots', { snapshots_id: 's-1' }],
      ],
    );
  });

  /** The type fields are taken to name resources (their values would say so; see the tests below). */
  const typed = () => true;

  it("a type/id pair whose id field names no resource: the type value is the index's own singular, else the name", () => {
    const lists = [
      fields('events', [
        'id',
        'target_type',
        'target_id',
        'primary_entity.type',
        'primary_entity.id',
        'job_type',
        'job_id',
      ]),
    ];
    const pool = inboundCandidates(catalog, resource('storage-pools'), 42, lists, typed);
    expect(pool.map((candidate) => [candidate.via, candidate.filter])).toEqual([
      ['target_type/target_id', { target_type: 'storage_pool', target_id: 42 }],
      ['primary_entity.type/primary_entity.id', { 'primary_entity.type': 'storage_pool', 'primary_entity.id': 42 }],
    ]);
    // job_type/job_id is no pair: job_id names the jobs resource, whose candidate it is.
    expect(inboundCandidates(catalog, resource('jobs'), 'j-1', lists, typed).map((candidate) => candidate.via)).toEqual(
      ['target_type/target_id', 'primary_entity.type/primary_entity.id', 'job_id'],
    );
    // people's read operation says `person_ref`, no <singular>_id: the resource's own name is the type.
    expect(inboundCandidates(catalog, resource('people'), 'p-1', lists, typed)[0]!.filter).toEqual({
      target_type: 'people',
      target_id: 'p-1',
    });
  });

  it('takes the type value the list itself was seen to use when its fields came from a page', () => {
    const learned = fields(
      'events',
      ['id', 'target_type', 'target_id'],
      [
        { id: 'e1', target_type: 'Job', target_id: 'x' },
        { id: 'e2', target_type: 'Snapshot', target_id: 'y' },
      ],
    );
    expect(inboundCandidates(catalog, resource('snapshots'), 's-1', [learned])[0]!.filter).toEqual({
      target_type: 'Snapshot',
      target_id: 's-1',
    });
  });

  it('pairs a type field with an id field only when its values name resources of the index: volume_type (gp2, io1) is no type of volume_id', () => {
    const disks = fields(
      'events',
      ['id', 'volume_type', 'volume_id', 'snapshot_id'],
      [
        { id: 'b1', volume_type: 'gp2', volume_id: 'vol-1', snapshot_id: 's-1' },
        { id: 'b2', volume_type: 'io1', volume_id: 'vol-2', snapshot_id: 's-2' },
      ],
    );
    expect(inboundCandidates(catalog, resource('jobs'), 'j-1', [disks])).toEqual([]);
    expect(inboundCandidates(catalog, resource('snapshots'), 's-1', [disks]).map((candidate) => candidate.via)).toEqual(
      ['snapshot_id'],
    );
    const audit = fields(
      'events',
      ['id', 'target_type', 'target_id'],
      [
        { id: 'e1', target_type: 'job', target_id: 'j-1' },
        { id: 'e2', target_type: 'api_token', target_id: 't-1' },
      ],
    );
    expect(inboundCandidates(catalog, resource('jobs'), 'j-1', [audit]).map((candidate) => candidate.via)).toEqual([
      'target_type/target_id',
    ]);
    // Fields from a schema with no values to judge by: no pair until a page says what the type holds.
    expect(
      inboundCandidates(catalog, resource('jobs'), 'j-1', [fields('events', ['target_type', 'target_id'])]),
    ).toEqual([]);
    expect(typeFieldNamesResources(catalog, ['gp2', 'io1', 'st1'])).toBe(false);
    expect(typeFieldNamesResources(catalog, ['job', 'snapshot', 'api_token'])).toBe(true);
    expect(typeFieldNamesResources(catalog, ['job', 'gp2', 'io1'])).toBe(false);
    expect(typeFieldNamesResources(catalog, [])).toBeUndefined();
  });

  it('a record on the answer refers to the record only when the id field holds its id and the type names it', () => {
    const [pair] = inboundCandidates(
      catalog,
      resource('snapshots'),
      's-1',
      [fields('events', ['target_type', 'target_id'])],
      typed,
    );
    const [plain] = inboundCandidates(catalog, resource('snapshots'), 7, [fields('jobs', ['snapshot_id'])]);
    expect(refersTo({ target_type: 'snapshot', target_id: 's-1' }, pair!, resource('snapshots'), 's-1')).toBe(true);
    expect(refersTo({ target_type: 'Snapshots', target_id: 's-1' }, pair!, resource('snapshots'), 's-1')).toBe(true);
    expect(refersTo({ target_type: 'job', target_id: 's-1' }, pair!, resource('snapshots'), 's-1')).toBe(false);
    expect(refersTo({ target_type: 'snapshot', target_id: 's-2' }, pair!, resource('snapshots'), 's-1')).toBe(false);
    expect(refersTo({ snapshot_id: 7 }, plain!, resource('snapshots'), 7)).toBe(true);
    expect(refersTo({ snapshot_id: null }, plain!, resource('snapshots'), 7)).toBe(false);
  });
});

describe('links followed', () => {
  const base = 'http://h/api';
  it('plain links, each entry of a link array, and templated links the record fills; not paging, actions or unfillable templates', () => {
    const record = {
      id: 'j-1',
      snapshot_id: 's-9',
      pool_id: null,
      _links: {
        self: { href: '/api/jobs/j-1' },
        next: { href: '/api/jobs?page=2' },
        snapshot: { href: '/snapshots/{snapshot_id}', templated: true },
        pool: { href: '/storage-pools/{pool_id}', templated: true },
        owner: { href: '/people/{person_ref}', templated: true },
        events: [{ href: '/events/e1' }, { href: 'http://h/api/events/e2' }],
        retry: { href: '/jobs/j-1/retry', type: 'POST' },
        history: { href: '/jobs/{job_id}/history{?size}', templated: true },
      },
    };
    const { targets, skipped } = linkTargets(record, 'jobs', base);
    expect(targets).toEqual([
      { rel: 'snapshot', via: '_links.snapshot', url: 'http://h/api/snapshots/s-9' },
      { rel: 'events', via: '_links.events[0]', url: 'http://h/api/events/e1' },
      { rel: 'events', via: '_links.events[1]', url: 'http://h/api/events/e2' },
      // job_id is the jobs record's own id (the operations' prefill rule); a query variable it lacks is left out.
      { rel: 'history', via: '_links.history', url: 'http://h/api/jobs/j-1/history' },
    ]);
    expect(skipped.map((skip) => `${skip.via}: ${skip.reason}`)).toEqual([
      // pool_id is null on the record: its link has no target, and is not filled with the job's own id.
      '_links.pool: the record does not fill pool_id of /storage-pools/{pool_id}',
      '_links.owner: the record does not fill person_ref of /people/{person_ref}',
      '_links.retry: a POST link (an action), not a record',
    ]);
  });

  it('a malformed template is skipped with its reason, naming the link; a brace in a link not marked templated is kept as written', () => {
    const record = {
      id: 'j-1',
      _links: {
        parent: { href: '/jobs/{job_id', templated: true },
        odd: [{ href: '/jobs/{!job_id}', templated: true }],
        literal: { href: '/search?q={x}' },
      },
    };
    const { targets, skipped } = linkTargets(record, 'jobs', base);
    expect(targets).toEqual([{ rel: 'literal', via: '_links.literal', url: 'http://h/api/search?q={x}' }]);
    expect(skipped.map((skip) => `${skip.via}: ${skip.reason}`)).toEqual([
      '_links.parent: the link "parent" is not a valid URI template: the expression opened at character 7 is never closed: "/jobs/{job_id"',
      '_links.odd[0]: the link "odd" is not a valid URI template: illegal character identified in the token at character 8: "/jobs/{!job_id}"',
    ]);
  });
});

describe('the graph', () => {
  it('keys URLs without fragment and with sorted query, finds a node by an alias, and marks an edge back to an ancestor as a cycle', () => {
    expect(nodeKey('http://h/x?b=2&a=1#top')).toBe('http://h/x?a=1&b=2');
    const graph = new XrayGraph();
    const node = (key: string, depth: number) => ({ key, label: key, depth, state: 'loaded' as const });
    graph.add(node('http://h/a', 0));
    graph.add(node('http://h/b', 1), 'http://h/a');
    graph.add(node('http://h/c', 1), 'http://h/a');
    graph.alias('http://h/b/', 'http://h/b');
    expect(graph.find('http://h/b/#x')?.key).toBe('http://h/b');
    expect(
      graph.connect({ from: 'http://h/b', to: 'http://h/a', rel: 'up', direction: 'out', via: '_links.up' }).cycle,
    ).toBe(true);
    expect(
      graph.connect({ from: 'http://h/b', to: 'http://h/c', rel: 'side', direction: 'out', via: '_links.side' }).cycle,
    ).toBe(false);
    expect(graph.connect({ from: 'http://h/c', to: 'http://h/a', rel: 'x', direction: 'in', via: 'a_id' }).cycle).toBe(
      false,
    );
  });
});

describe('history', () => {
  it('reads when, who, what and outcome by field names, and says which field each came from', () => {
    expect(
      timelineEntry('k', 'events', {
        id: 'e1',
        occurred_at: '2026-01-02T03:04:05Z',
        created_timestamp: '2025-01-01T00:00:00Z',
        actor: { name: 'Ada', id: 'u1' },
        event: 'pool.resize',
        result: 'denied',
      }),
    ).toEqual({
      key: 'k',
      resource: 'events',
      at: Date.parse('2026-01-02T03:04:05Z'),
      when: '2026-01-02T03:04:05Z',
      who: 'Ada',
      what: 'pool.resize',
      outcome: 'denied',
      fields: { when: 'occurred_at', who: 'actor', what: 'event', outcome: 'result' },
    });
    const job = timelineEntry('j', 'jobs', {
      id: 'j',
      name: 'Nightly',
      job_state: 'failed',
      started_by: { type: 'schedule', email: null },
      created: 'not a time',
      end_date: '2026-02-01T00:00:00Z',
    });
    expect(job).toMatchObject({
      who: 'schedule',
      what: 'Nightly',
      outcome: 'failed',
      fields: { when: 'end_date', who: 'started_by', what: 'name', outcome: 'job_state' },
    });
    expect(timelineEntry('x', 'pools', { id: 'x', name: 'no time here' })).toBeUndefined();
  });

  it('orders newest first and leaves out records without a timestamp', () => {
    const entries = timeline([
      { key: 'old', resource: 'r', record: { timestamp: '2026-01-01T00:00:00Z' } },
      { key: 'none', resource: 'r', record: { id: 'n' } },
      { key: 'new', resource: 'r', record: { timestamp: '2026-03-01T00:00:00+02:00' } },
    ]);
    expect(entries.map((entry) => entry.key)).toEqual(['new', 'old']);
  });
});

describe('Bounded', () => {
  it('never runs more than its bound at once, and starts every job in the order asked for', async () => {
    const bounded = new Bounded(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const jobs = Array.from({ length: 10 }, (_, index) =>
      bounded.run(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return index;
      }),
    );
    // Release whatever is running, one at a time, until every job has run.
    while (started.length < 10 || running > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
  });

  it('a failing job gives its slot back', async () => {
    const bounded = new Bounded(1);
    await expect(bounded.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await bounded.run(async () => 'next')).toBe('next');
  });
});
