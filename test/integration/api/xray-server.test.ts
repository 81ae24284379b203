// The x-ray against a small real server with other conventions than the demo's: link arrays, templated
// links, a failing record, a link to another origin, fields learned from a page, a filter refused (400)
// and one ignored. Its request count is checked against what the server saw.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { runXray, xray, type XrayResult } from '../../../src/api/xray/xray.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { xrayApi, type XrayApiControls } from '../../helpers/xray-api.js';

const TOKEN = 'header.payload.signature-for-xray-tests';
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(controls?: XrayApiControls): Promise<TestServer> {
  const server = await startServer(xrayApi(controls));
  servers.push(server);
  return server;
}

const session = (server: TestServer) =>
  new Session({ baseUrl: server.baseUrl, token: TOKEN, retryBaseDelayMs: 1, maxRetries: 0 });
const served = (server: TestServer) =>
  server.requests.filter((request) => request.url !== '/').map((request) => request.url);

describe('x-ray of a record on an unfamiliar control plane', () => {
  it('follows link arrays and templated links, shows a failed record and a link to another origin, and goes on', async () => {
    const server = await serve();
    const result = await runXray(session(server), { resource: 'jobs', id: 'j-1' });
    const at = (path: string) => result.nodes.find((node) => node.key === `${server.baseUrl}${path}`);
    expect(at('/volumes/v1')).toMatchObject({ state: 'loaded', label: 'vol-a', depth: 1 });
    expect(at('/volumes/v2')).toMatchObject({ state: 'loaded', label: 'vol-b', depth: 1 });
    expect(at('/people/p-7')).toMatchObject({ state: 'loaded', resource: 'people', label: 'Ada Byron' });
    expect(at('/volumes/v-500')).toMatchObject({ state: 'failed', error: expect.stringContaining('500') });
    expect(result.nodes.find((node) => node.url === 'http://192.0.2.1/volumes/v9')).toMatchObject({
      state: 'not-followed',
      error: expect.stringContaining('192.0.2.1'),
    });
    const outOfRoot = result.edges
      .filter((edge) => edge.from === result.root && edge.direction === 'out')
      .map((edge) => `${edge.rel} ${edge.via}`);
    expect(outOfRoot).toEqual([
      'volumes _links.volumes[0]',
      'volumes _links.volumes[1]',
      'owner _links.owner',
      'broken _links.broken',
      'elsewhere _links.elsewhere',
    ]);
    // v1 links back to the job (a cycle) and across to v2 (already read): no request for either.
    const fromV1 = result.edges.filter(
      (edge) => edge.from === `${server.baseUrl}/volumes/v1` && edge.direction === 'out',
    );
    expect(fromV1.map((edge) => [edge.rel, edge.cycle])).toEqual([
      ['job', true],
      ['sibling', false],
    ]);
    expect(result.notes.map((note) => note.text)).toContain(
      'jobs Nightly copy: _links.cancel not followed: a POST link (an action), not a record',
    );
    // Nothing was asked of the other origin, and the failed record did not stop its siblings.
    expect(served(server).filter((url) => url.startsWith('/volumes/'))).toEqual(
      expect.arrayContaining(['/volumes/v1', '/volumes/v2', '/volumes/v-500']),
    );
  });

  it(
    "learns the lists' fields from one page each, refers by <singular>_id and by a type/id pair, " +
      'falls back to the bare form, and names the lists it cannot search',
    async () => {
      const server = await serve();
      const result = await runXray(session(server), { resource: 'jobs', id: 'j-1' });
      const group = (resource: string) =>
        result.inbound.find((candidate) => candidate.candidate.resource === resource)!;

      expect(group('volumes')).toMatchObject({
        total: 2,
        form: 'bare',
        candidate: { via: 'job_id', filter: { job_id: 'j-1' } },
      });
      expect(group('volumes').keys).toEqual([`${server.baseUrl}/volumes/v1`, `${server.baseUrl}/volumes/v2`]);
      // The type value is the one the events page was seen to use.
      expect(group('events').candidate).toMatchObject({
        via: 'primary_entity.type/primary_entity.id',
        filter: { 'primary_entity.type': 'job', 'primary_entity.id': 'j-1' },
      });
      expect(group('events').total).toBe(2);
      expect(group('notes').unsearchable).toMatchObject({
        list: 'notes',
        field: 'job_id',
        reason: 'refused',
        code: 'invalid_filter',
        message: 'notes cannot be filtered',
      });
      expect(group('logs').unsearchable).toMatchObject({ list: 'logs', field: 'job_id', reason: 'ignored' });
      // Lists that cannot be searched are named (notes), never nodes or edges.
      expect(result.nodes.some((node) => node.resource === 'notes' || node.resource === 'logs')).toBe(false);
      expect(result.notes.filter((note) => note.kind === 'unsearchable').map((note) => note.text)).toEqual([
        expect.stringMatching(/^not searchable: `notes` refused a filter on `job_id` \(`invalid_filter`\)/),
        expect.stringMatching(/^not searchable: `logs` ignored a filter on `job_id`/),
      ]);
      // Events have timestamps: the history, newest first, from fields found by name.
      expect(result.timeline.map((entry) => [entry.what, entry.who, entry.outcome])).toEqual([
        ['job.fail', 'ada', 'failed'],
        ['job.start', 'ada', 'ok'],
      ]);
    },
  );

  it('costs what it says: records read, one page per list learned, one query per candidate and form — and a second x-ray learns nothing again', async () => {
    const server = await serve();
    // Without the session's freshness window, so that every request the x-ray sends reaches the server.
    const client = new Session({ baseUrl: server.baseUrl, token: TOKEN, freshnessMs: 0 });
    const first = await runXray(client, { resource: 'jobs', id: 'j-1' });
    // Four candidates, each asked in the operator form (refused, or ignored by logs) and then the bare one.
    expect(first.cost).toEqual({ records: 5, fieldPages: 6, inboundQueries: 8 });
    expect(served(server)).toHaveLength(first.requests);
    expect(first.requests).toBe(19);
    // Each list was read once without a filter to learn its fields, and each candidate once with one.
    expect(
      served(server)
        .filter((url) => !url.includes('q='))
        .filter((url) => !/^\/\w+\/[\w-]+$/.test(url)),
    ).toHaveLength(6);

    const before = served(server).length;
    const second = await runXray(client, { resource: 'volumes', id: 'v2' }, { depth: 1 });
    expect(second.cost.fieldPages).toBe(0);
    expect(served(server).length - before).toBe(second.requests);
    expect(
      served(server)
        .slice(before)
        .every((url) => url.includes('q=') || /^\/\w+\/[\w-]+$/.test(url)),
    ).toBe(true);
  });

  it('a record first met on an inbound page is still read when the links reach it, whichever answer comes first', async () => {
    let release: () => void = () => undefined;
    const rootHeldUntil = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serve({ rootHeldUntil });
    let result: XrayResult | undefined;
    const events = xray(session(server), { resource: 'jobs', id: 'j-1' });
    for (;;) {
      const next = await events.next();
      if (next.done) {
        result = next.value;
        break;
      }
      const event = next.value;
      if (event.kind === 'inbound' && event.group.candidate.resource === 'volumes') release();
    }
    const v1 = `${server.baseUrl}/volumes/v1`;
    expect(result.nodes.filter((node) => node.key === v1)).toMatchObject([{ state: 'loaded', depth: 1 }]);
    expect(served(server).filter((url) => url === '/volumes/v1')).toHaveLength(1);
    expect(
      result.edges
        .filter((edge) => edge.from === v1 && edge.to === result.root)
        .map((edge) => edge.direction)
        .sort(),
    ).toEqual(['in', 'out']);
  });
});
