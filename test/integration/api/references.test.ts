// References read as names against the demo: which columns of a list hold ids, and each distinct id
// read once per session, whoever asks.
import { describe, expect, it } from 'vitest';
import { listRequest, readPage } from '../../../src/api/session/pages.js';
import { columnIds, idColumns, ReferenceNames } from '../../../src/api/fanout/references.js';
import { Session } from '../../../src/api/session/session.js';
import { demoRequest, useDemo } from '../../helpers/demo.js';

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
      { onName: (id) => arrived.push(id) },
    );
    expect(demo.region.requestCount() - before).toBe(ids.length);
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
