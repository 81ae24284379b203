// References read as names against the demo: which columns of a list hold ids, and each distinct id
// read once per session, whoever asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRequest, readPage } from '../../../src/api/session/pages.js';
import { columnIds, idColumns, ReferenceNames } from '../../../src/api/fanout/references.js';
import { Session } from '../../../src/api/session/session.js';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { startServer, type TestServer } from '../../helpers/servers.js';

const demo = useDemo({ scale: 1 });
const session = () => new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });

async function backupsPage(client: Session): Promise<Record<string, unknown>[]> {
  const response = await client.send(await listRequest(client, { resource: 'backups', pageSize: 50 }));
  return readPage(response).items;
}

describe('references read as names', () => {
  it('finds the id columns whose resource the index has, and no other', async () => {
    const client = session();
    const catalog = await client.catalog();
    const columns = idColumns(catalog, [...(await backupsPage(client)), { id: 'x', source_id: 's', backup_id: 'b' }]);
    expect(columns.map((column) => [column.field, column.resource, column.version]).sort()).toEqual([
      ['backup_id', 'backups', 'v1'],
      ['organizational_unit_id', 'organizational-units', 'v1'],
      ['protection_group_id', 'protection-groups', 'v1'],
      ['task_id', 'tasks', 'v1'],
    ]);
  });

  it('reads each distinct id once per session, whoever asks, and answers later asks from memory', async () => {
    const client = session();
    const items = await backupsPage(client);
    const column = idColumns(await client.catalog(), items).find(
      (candidate) => candidate.field === 'protection_group_id',
    )!;
    const ids = columnIds(column, items);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.length).toBeLessThan(items.length);

    const arrived: string[] = [];
    const before = demo.region.requestCount();
    const names = await ReferenceNames.of(client).resolve(
      column,
      items.map((item) => String(item['protection_group_id'])),
      { onName: (id) => arrived.push(id), together: true },
    );
    // Every id in one read of the protection groups' list, filtered on them.
    expect(demo.region.requestCount() - before).toBe(1);
    expect(demo.region.requestLog().at(-1)).toMatch(/^GET \/protection-groups\?.*filter=/);
    expect(arrived.sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const group = (await demoRequest(demo.region, `/protection-groups/${id}`)).body;
      expect(names.get(id)).toBe(group.name);
      expect(ReferenceNames.of(client).name(column, id)).toBe(group.name);
    }

    const again = demo.region.requestCount();
    await ReferenceNames.of(client).resolve(column, ids);
    expect(demo.region.requestCount()).toBe(again);
    // Another session keeps its own names.
    expect(ReferenceNames.of(session()).name(column, ids[0]!)).toBeUndefined();
  });

  it('asks at once for the same id from two screens: one request', async () => {
    const client = session();
    const items = await backupsPage(client);
    const column = idColumns(await client.catalog(), items).find(
      (candidate) => candidate.field === 'organizational_unit_id',
    )!;
    const id = String(items[0]!['organizational_unit_id']);
    const before = demo.region.requestCount();
    const [first, second] = await Promise.all([
      ReferenceNames.of(client).resolve(column, [id]),
      ReferenceNames.of(client).resolve(column, [id, id]),
    ]);
    expect(demo.region.requestCount() - before).toBe(1);
    expect(first.get(id)).toBe(second.get(id));
  });

  it("names are read, and kept, per unit: a record outside the list's unit has none there", async () => {
    const client = session();
    const items = await backupsPage(client);
    const column = idColumns(await client.catalog(), items).find(
      (candidate) => candidate.field === 'protection_group_id',
    )!;
    const backup = items[0]!;
    const id = String(backup['protection_group_id']);
    const units = (await demoRequest(demo.region, '/organizational-units?limit=100')).body._embedded.items as {
      id: string;
      parent_id: string | null;
    }[];
    const elsewhere = units.find(
      (unit) =>
        unit.parent_id !== null &&
        unit.id !== backup['organizational_unit_id'] &&
        !units.some((child) => child.parent_id === unit.id),
    )!.id;
    const names = ReferenceNames.of(client);
    const here = await names.resolve(column, [id], { ou: String(backup['organizational_unit_id']) });
    const there = await names.resolve(column, [id], { ou: elsewhere });
    expect(here.get(id)).toEqual(expect.any(String));
    expect(there.get(id)).toBeNull();
    expect(names.name(column, id, elsewhere)).toBeNull();
    expect(names.name(column, id)).toBeUndefined();
  });

  it('an id that names no record has no name, and is not asked for twice; a cancelled read is asked for again', async () => {
    const client = session();
    const column = { field: 'task_id', resource: 'tasks', version: 'v1' };
    const names = ReferenceNames.of(client);
    expect((await names.resolve(column, ['no-such-task'])).get('no-such-task')).toBeNull();
    const before = demo.region.requestCount();
    await names.resolve(column, ['no-such-task']);
    expect(demo.region.requestCount()).toBe(before);

    const cancelled = new AbortController();
    cancelled.abort();
    await expect(names.resolve(column, ['another-task'], { signal: cancelled.signal })).rejects.toThrow();
    expect(names.name(column, 'another-task')).toBeUndefined();
    expect((await names.resolve(column, ['another-task'])).get('another-task')).toBeNull();
  });
});

describe('references on a list that ignores a filter on ids', () => {
  const things = Array.from({ length: 6 }, (_, n) => ({ id: `thing-${n}`, name: `Thing ${n}` }));
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((request, response) => {
      const path = new URL(request.url, 'http://test').pathname;
      response.setHeader('content-type', 'application/json');
      if (path === '/') {
        response.end(
          JSON.stringify({
            things: {
              supported_versions: ['v1'],
              v1: {
                list_things: { href: '/things{?limit,start,filter}', type: 'get', templated: true },
                get_thing: { href: '/things/{id}', type: 'get', templated: true },
              },
            },
          }),
        );
      } else if (path === '/things') {
        // Every thing, whatever the filter says.
        response.end(JSON.stringify({ _embedded: { items: things }, _links: { self: { href: '/things' } } }));
      } else {
        response.end(JSON.stringify(things.find((thing) => path === `/things/${thing.id}`) ?? {}));
      }
    });
  });
  afterAll(async () => server.close());

  it('reads each record alone once the list answers with records it was not asked for, and not the list again', async () => {
    const client = new Session({ baseUrl: server.baseUrl, token: 't' });
    const column = { field: 'thing_id', resource: 'things', version: 'v1' };
    const names = await ReferenceNames.of(client).resolve(column, ['thing-1', 'thing-2'], { together: true });
    expect([...names]).toEqual([
      ['thing-1', 'Thing 1'],
      ['thing-2', 'Thing 2'],
    ]);
    await ReferenceNames.of(client).resolve(column, ['thing-3', 'thing-4'], { together: true });
    const paths = server.requests.map((request) => request.url.replace(/\?.*/, ''));
    expect(paths.filter((path) => path === '/things')).toHaveLength(1);
    expect(paths.filter((path) => path.startsWith('/things/')).sort()).toEqual([
      '/things/thing-1',
      '/things/thing-2',
      '/things/thing-3',
      '/things/thing-4',
    ]);
  });
});
