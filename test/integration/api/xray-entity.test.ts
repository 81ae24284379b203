// The x-ray on a control plane shaped like a real one (test/helpers/entity-plane.ts): tasks and alerts name
// the record they are about in `primary_entity: {id, type, value}`, a field the schemas dpx ships for them
// lack, and their lists refuse a filter on `primary_entity.type`. The x-ray of a volume finds the tasks
// and the alerts that name it all the same, on a server of its own vendor as on one of the spec's.
import { afterEach, describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { SPEC_VENDOR } from '../../../src/api/xray/fields.js';
import { runXray, type XrayResult } from '../../../src/api/xray/xray.js';
import { filterCache } from '../../../src/config/cache.js';
import { ALERTS_OF_VOLUME, entityPlane, TASKS_OF_VOLUME, VOLUME } from '../../helpers/entity-plane.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { temporaryFolder } from '../../helpers/temporary.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The ids of the records of `resource` the x-ray found referring to its root, sorted. */
const found = (result: XrayResult, resource: string) =>
  result.inbound
    .filter((group) => group.candidate.resource === resource)
    .flatMap((group) => group.keys)
    .map((key) => result.nodes.find((node) => node.key === key)?.record?.['id'])
    .sort();

describe('x-ray on a control plane whose records name what they are about in primary_entity', () => {
  it('finds the tasks and the alerts that name a volume, asking by its id alone and checking the type', async () => {
    server = await startServer(entityPlane());
    const session = new Session({ baseUrl: server.baseUrl, token: 'opaque', maxRetries: 0 });
    const result = await runXray(session, { resource: 'volumes', id: VOLUME });
    expect(found(result, 'tasks')).toEqual(TASKS_OF_VOLUME);
    expect(found(result, 'alerts')).toEqual(ALERTS_OF_VOLUME);
    const tasks = result.inbound.find((group) => group.candidate.resource === 'tasks');
    expect(tasks).toMatchObject({ total: 4 });
    expect(tasks?.unsearchable).toBeUndefined();
    expect(result.notes.filter((note) => note.kind === 'unsearchable' && !note.text.includes('`events`'))).toEqual([]);
    // What the lists taught is kept for the session: a second x-ray asks the id alone, never the type again.
    const before = server.requests.length;
    const again = await runXray(session, { resource: 'volumes', id: VOLUME });
    expect(again.inbound.find((group) => group.candidate.resource === 'tasks')?.keys).toHaveLength(4);
    const filters = server.requests
      .slice(before)
      .map((request) => new URL(request.url, server!.baseUrl).searchParams.get('filter') ?? '');
    expect(filters.filter((filter) => filter.includes('primary_entity.type'))).toEqual([]);
  });

  it('names a list not searchable only when every form was refused, with the forms it tried', async () => {
    server = await startServer(entityPlane());
    const session = new Session({ baseUrl: server.baseUrl, token: 'opaque', maxRetries: 0 });
    const result = await runXray(session, { resource: 'volumes', id: VOLUME });
    const unsearchable = result.notes.filter((note) => note.kind === 'unsearchable').map((note) => note.text);
    expect(unsearchable).toHaveLength(1);
    expect(unsearchable[0]).toMatch(
      /^not searchable: `events` refused a filter on `primary_entity\.type\/primary_entity\.id`/,
    );
    expect(unsearchable[0]).toMatch(
      /tried: primary_entity\.type\+primary_entity\.id \(operator, bare\), primary_entity\.id \(operator, bare\)/,
    );
  });

  it("on the spec's vendor too, joins each list's shipped schema with one small page of its own records", async () => {
    // The shipped task and alert schemas apply here and lack primary_entity: only the records have it.
    server = await startServer(entityPlane(SPEC_VENDOR));
    const session = new Session({ baseUrl: server.baseUrl, token: 'opaque', maxRetries: 0, freshnessMs: 0 });
    const result = await runXray(session, { resource: 'volumes', id: VOLUME });
    expect(session.vendor).toBe(SPEC_VENDOR);
    expect(found(result, 'tasks')).toEqual(TASKS_OF_VOLUME);
    expect(found(result, 'alerts')).toEqual(ALERTS_OF_VOLUME);
    expect(result.inbound.find((group) => group.candidate.resource === 'tasks')).toMatchObject({ total: 4 });
    // The cost is bounded and said: at most one unfiltered page per list, each asked for a few records.
    const served = server.requests.filter((request) => request.url !== '/').map((request) => request.url);
    expect(served).toHaveLength(result.requests);
    const pages = served.filter((url) => /^\/\w+\?/.test(url) && !url.includes('filter='));
    expect(pages).toHaveLength(result.cost.fieldPages);
    expect(new Set(pages.map((url) => url.split('?')[0])).size).toBe(pages.length);
    expect(pages.length).toBeLessThanOrEqual(4);
    expect(pages.every((url) => Number(new URL(url, server!.baseUrl).searchParams.get('limit')) <= 20)).toBe(true);
    // Kept for the session: a second x-ray reads no list for its fields, and finds the same.
    const again = await runXray(session, { resource: 'volumes', id: VOLUME });
    expect(again.cost.fieldPages).toBe(0);
    expect(found(again, 'tasks')).toEqual(TASKS_OF_VOLUME);
    expect(found(again, 'alerts')).toEqual(ALERTS_OF_VOLUME);
  });

  it("keeps the fields a list's records showed in the cache: the next run reads no list for them, and finds the same", async () => {
    server = await startServer(entityPlane(SPEC_VENDOR));
    const filterStore = filterCache(temporaryFolder('dpx-xray-fields-'));
    const run = () =>
      runXray(
        new Session({ baseUrl: server!.baseUrl, token: 'opaque', maxRetries: 0 }),
        {
          resource: 'volumes',
          id: VOLUME,
        },
        { filterStore },
      );
    expect((await run()).cost.fieldPages).toBe(4);
    const next = await run();
    expect(next.cost.fieldPages).toBe(0);
    expect(found(next, 'tasks')).toEqual(TASKS_OF_VOLUME);
    expect(found(next, 'alerts')).toEqual(ALERTS_OF_VOLUME);
  });
});
