// The demo's list under a parent: GET /protection-groups/{protection_group_id}/backups.
import { describe, expect, it } from 'vitest';
import { demoRequest, expectError, expectList, useDemo } from '../../helpers/demo.js';

const demo = useDemo();
const HEADER = 'x-service-organizationalunit-context';

interface Group {
  id: string;
  organizational_unit_id: string;
}

async function groups(): Promise<Group[]> {
  const { body } = await demoRequest(demo.region, '/protection-groups?limit=100');
  return body._embedded.items as Group[];
}

describe('GET /protection-groups/{id}/backups', () => {
  it('is in the index as a templated list of the backups resource', async () => {
    const { body } = await demoRequest(demo.region, '/');
    expect(body.backups.v1.list_protection_group_backups).toEqual({
      href: '/protection-groups/{protection_group_id}/backups{?limit,start,filter}',
      type: 'get',
      templated: true,
    });
  });

  it("lists the group's backups only, in the list envelope, with page links under the group", async () => {
    const [group] = await groups();
    const path = `/protection-groups/${group!.id}/backups`;
    const { status, headers, body } = await demoRequest(demo.region, `${path}?limit=2`);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/api.service.backups=v1+json');
    expectList('backups.v1', body);
    for (const backup of body._embedded.items) expect(backup.protection_group_id).toBe(group!.id);
    const everyBackup = await demoRequest(
      demo.region,
      `/backups?limit=1&filter=${encodeURIComponent(JSON.stringify({ protection_group_id: group!.id }))}`,
    );
    expect(body.total_count).toBe(everyBackup.body.total_count);
    for (const rel of ['self', 'first', 'last', 'next'])
      expect(body._links[rel].href.startsWith(`${path}?limit=2&start=`)).toBe(true);
  });

  it('is 404 for a group that does not exist, and for one outside the organizational unit asked for', async () => {
    expectError(await demoRequest(demo.region, '/protection-groups/no-such-group/backups'), 404, 'record_not_found');
    const units = (await demoRequest(demo.region, '/organizational-units?limit=100')).body._embedded.items as {
      id: string;
      parent_id: string | null;
    }[];
    const all = await groups();
    // A unit with no units below it sees its own groups only.
    const leaf = all.find((group) => !units.some((unit) => unit.parent_id === group.organizational_unit_id))!;
    const other = all.find((group) => group.organizational_unit_id !== leaf.organizational_unit_id)!;
    const scoped = { headers: { [HEADER]: leaf.organizational_unit_id } };
    expect((await demoRequest(demo.region, `/protection-groups/${leaf.id}/backups`, scoped)).status).toBe(200);
    expectError(
      await demoRequest(demo.region, `/protection-groups/${other.id}/backups`, scoped),
      404,
      'record_not_found',
    );
  });
});
