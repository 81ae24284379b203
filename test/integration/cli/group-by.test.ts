import { afterAll, describe, expect, it } from 'vitest';
import { demoPages, demoRequest, useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

let tasksAsServed: ReturnType<typeof demoPages> | undefined;
/** Every task as the server gives it: the demo is frozen and these tests write nothing, so read once for the file. */
const allTasks = () => (tasksAsServed ??= demoPages(demo.region, '/tasks?limit=100'));

interface Grouped {
  groups: { key: Record<string, string>; count: number }[];
  records: number;
  requests: number;
}

async function grouped(argv: string[]): Promise<Grouped & { stderr: string }> {
  const { code, stdout, stderr } = await dpx(['list', ...argv, '-o', 'json'], { env: env() });
  expect(code).toBe(0);
  return { ...(JSON.parse(stdout) as Grouped), stderr };
}

describe('dpx list --group-by', () => {
  it('groups every record of a merged list once, largest first, adding up to the list', async () => {
    const { groups, records, stderr } = await grouped([
      'tasks',
      '--ou',
      'all',
      '--group-by',
      'error_code',
      '--page-size',
      '100',
    ]);
    const total = (await demoRequest(demo.region, '/tasks?limit=1')).body.total_count as number;
    expect(records).toBe(total);
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(total);
    expect(groups.map((group) => group.count)).toEqual([...groups.map((group) => group.count)].sort((a, b) => b - a));
    const tasks = await allTasks();
    const failedWith = (code: string | null) => tasks.filter((task) => task.error_code === code).length;
    for (const group of groups)
      expect(group.count).toBe(failedWith(group.key['error_code'] === '(none)' ? null : group.key['error_code']!));
    expect(stderr).toMatch(
      new RegExp(
        `${total.toLocaleString('en-US')} records in ${groups.length} groups, from \\d+ pages \\(\\d+ requests\\)`,
      ),
    );
  });

  it('rolls records up to their tenant, by the field that names their unit', async () => {
    const { groups, records, stderr } = await grouped(['tasks', '--group-by', '@tenant,status', '--page-size', '100']);
    expect(stderr).toContain("@unit is each record's organizational_unit_id");
    const units = await demoPages(demo.region, '/organizational-units?limit=100');
    const root = units.find((unit) => !unit.parent_id);
    const tenants = new Set(units.filter((unit) => unit.parent_id === root.id).map((unit) => unit.name as string));
    for (const group of groups)
      expect(tenants.has(group.key['@tenant']!) || group.key['@tenant'] === root.name).toBe(true);
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(records);
    const byId = new Map(units.map((unit) => [unit.id as string, unit]));
    const tenantOf = (id: string): string => {
      let unit = byId.get(id);
      while (unit && unit.parent_id && unit.parent_id !== root.id) unit = byId.get(unit.parent_id);
      return unit.name;
    };
    const tasks = await allTasks();
    const first = groups[0]!;
    expect(first.count).toBe(
      tasks.filter(
        (task) => tenantOf(task.organizational_unit_id) === first.key['@tenant'] && task.status === first.key['status'],
      ).length,
    );
  });

  it('prints a table of groups with their counts', async () => {
    const { code, stdout } = await dpx(['list', 'tasks', '--group-by', 'status', '--page-size', '100'], {
      env: env(),
      columns: 80,
    });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^status\s+count$/);
    const counts = lines.slice(1).map((line) => Number(line.trim().split(/\s+/).pop()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe((await demoRequest(demo.region, '/tasks?limit=1')).body.total_count);
  });

  it('refuses to group a sample: --max-items with --group-by is a usage error', async () => {
    const { code, stdout, stderr } = await dpx(['list', 'tasks', '--group-by', 'status', '--max-items', '10'], {
      env: env(),
    });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('its groups would be of a sample');
  });
});
