import { describe, expect, it } from 'vitest';
import { demoRequest, expectError, expectList, useDemo } from '../../helpers/demo.js';

// Live tasks are all but frozen, so a record cannot change between the full listing and the filtered one.
const demo = useDemo({ taskSpeed: 1e-6 });

async function allPages(resource: string, filter?: unknown, accept?: string): Promise<any[]> {
  const items: any[] = [];
  let next: string | undefined =
    `/${resource}?limit=100${filter === undefined ? '' : `&filter=${encodeURIComponent(JSON.stringify(filter))}`}`;
  while (next) {
    const page = await demoRequest(demo.region, next, accept ? { headers: { Accept: accept } } : {});
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expectList(resource === 'tasks' ? 'tasks.v1' : accept ? 'users.v1' : 'users.v2', page.body);
    items.push(...page.body._embedded.items);
    next = page.body._links.next?.href;
  }
  return items;
}

const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();

describe('demo control plane: JSON filters', () => {
  it('applies every operator as the same test applied to the full list would', async () => {
    const users = await allPages('users');
    const tasks = await allPages('tasks');
    const someUser = users[3];
    const someTask = tasks.find((t) => t.status === 'failed');
    const midTime = tasks[Math.floor(tasks.length / 2)].created_timestamp as string;
    const cases: [string, any[], unknown, (record: any) => boolean][] = [
      ['$eq', tasks, { status: { $eq: 'failed' } }, (t) => t.status === 'failed'],
      ['bare value', tasks, { category: 'restore' }, (t) => t.category === 'restore'],
      ['$neq', tasks, { status: { $neq: 'completed' } }, (t) => t.status !== 'completed'],
      [
        '$in',
        tasks,
        { category: { $in: ['snapshot', 'replication'] } },
        (t) => ['snapshot', 'replication'].includes(t.category),
      ],
      ['$contains', users, { email: { $contains: 'LOVE' } }, (u) => u.email.toLowerCase().includes('love')],
      ['$begins_with', users, { name: { $begins_with: 'a' } }, (u) => u.name.toLowerCase().startsWith('a')],
      ['$gt', tasks, { progress_percentage: { $gt: 50 } }, (t) => t.progress_percentage > 50],
      ['$gte timestamp', tasks, { created_timestamp: { $gte: midTime } }, (t) => t.created_timestamp >= midTime],
      ['$lt timestamp', tasks, { created_timestamp: { $lt: midTime } }, (t) => t.created_timestamp < midTime],
      ['$lte', tasks, { progress_percentage: { $lte: 10 } }, (t) => t.progress_percentage <= 10],
      ['id', tasks, { id: someTask.id }, (t) => t.id === someTask.id],
      ['dotted field', tasks, { 'initiated_by.type': { $eq: 'schedule' } }, (t) => t.initiated_by.type === 'schedule'],
      ['null', tasks, { end_timestamp: null }, (t) => t.end_timestamp === null],
      ['boolean', users, { is_enabled: false }, (u) => u.is_enabled === false],
      [
        'role_id and unit ANDed',
        users,
        { role_id: someUser.role_id, organizational_unit_id: { $eq: someUser.organizational_unit_id } },
        (u) => u.role_id === someUser.role_id && u.organizational_unit_id === someUser.organizational_unit_id,
      ],
      [
        'two operators on one field',
        tasks,
        { progress_percentage: { $gt: 10, $lt: 90 } },
        (t) => t.progress_percentage > 10 && t.progress_percentage < 90,
      ],
    ];
    for (const [name, records, filter, test] of cases) {
      const expected = ids(records.filter(test));
      expect(expected.length, `${name} should select some records and not all`).toBeGreaterThan(0);
      expect(expected.length, name).toBeLessThan(records.length);
      const resource = records === users ? 'users' : 'tasks';
      expect(ids(await allPages(resource, filter)), name).toEqual(expected);
    }
  });

  it('filters on the field names of the version asked for', async () => {
    const v1 = await allPages(
      'users',
      { 'role.id': { $eq: '2bfd647f-a466-484f-88d4-4fb297db9e7f' } },
      'application/api.service.users=v1+json',
    );
    const v2 = await allPages('users', { role_id: { $eq: '2bfd647f-a466-484f-88d4-4fb297db9e7f' } });
    expect(v1.length).toBeGreaterThan(0);
    expect(ids(v1)).toEqual(ids(v2));
    const response = await demoRequest(demo.region, `/users?filter=${encodeURIComponent('{"role_id":"x"}')}`, {
      headers: { Accept: 'application/api.service.users=v1+json' },
    });
    expectError(response, 400, 'invalid_filter');
  });

  it('answers 400 invalid_filter naming the problem', async () => {
    const bad: [string, RegExp][] = [
      ['{"status":', /not valid JSON/],
      ['["status"]', /must be a JSON object/],
      ['{"colour":{"$eq":"red"}}', /Unknown filter field 'colour'/],
      ['{"status":{"$like":"fail%"}}', /Unknown filter operator '\$like' on field 'status'/],
      ['{"progress_percentage":{"$gt":"fifty"}}', /needs a number/],
      ['{"created_timestamp":{"$gte":"yesterday"}}', /ISO 8601/],
      ['{"status":{"$in":"failed"}}', /needs an array/],
      ['{"progress_percentage":{"$contains":5}}', /does not apply to integer field 'progress_percentage'/],
      ['{"status":{}}', /has no operator/],
    ];
    for (const [filter, message] of bad) {
      const response = await demoRequest(demo.region, `/tasks?filter=${encodeURIComponent(filter)}`);
      expectError(response, 400, 'invalid_filter');
      expect(response.body.errors[0].error_message, filter).toMatch(message);
    }
  });
});
