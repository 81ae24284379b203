// `dpx count` and merged lists on the demo at the size of a managed service provider (--tenants 40: 266
// units, 19,686 tasks, 8 statuses), over HTTP, with the demo's live tasks frozen so that a count taken
// twice agrees. Every column a status, every total the server's own count, `other` what the columns
// leave out, tenants sorted, paths on rows and records, units named by name or path.
//
// One demo for the file, with no rate limit, and dpx asked without its default ceiling: the per-cell
// matrix is about 2,400 requests.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoPages, demoRequest, useDemo } from '../../helpers/demo.js';
import type { CountDocument } from '../../helpers/count-document.js';
import { dpx } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
const HEADER = 'x-service-organizationalunit-context';
const env = () => ({
  DPX_BASE_URL: demo.region.baseUrl,
  DPX_TOKEN: demo.region.tokens.personal,
  DPX_RATE: '100000',
  DPX_CONCURRENCY: '16',
});

interface Unit {
  id: string;
  name: string;
  parent_id: string | null;
}

let units: Unit[] = [];
const byId = new Map<string, Unit>();
const pathOf = (id: string): string[] => {
  const unit = byId.get(id)!;
  return unit.parent_id === null ? [unit.name] : [...pathOf(unit.parent_id), unit.name];
};
/** The server's own count of tasks in a unit's scope (none: the whole list) with a filter. */
async function serverCount(unit: string | null, filter?: Record<string, unknown>): Promise<number> {
  const query = filter === undefined ? '' : `&filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const { status, body } = await demoRequest(demo.region, `/tasks?limit=1${query}`, {
    headers: unit === null ? {} : { [HEADER]: unit },
  });
  expect(status).toBe(200);
  return body.total_count as number;
}

async function count(args: string[]): Promise<{ code: number; stderr: string; document: CountDocument }> {
  const { code, stdout, stderr } = await dpx(['count', 'tasks', ...args, '--output', 'json'], { env: env() });
  expect(code, stderr).toBe(0);
  return { code, stderr, document: JSON.parse(stdout) as CountDocument };
}

let matrix: { stderr: string; document: CountDocument };
beforeAll(async () => {
  units = (await demoPages(demo.region, '/organizational-units?limit=100')) as Unit[];
  for (const unit of units) byId.set(unit.id, unit);
  matrix = await count(['--by', 'status', '--ou', 'all', '--plan', 'cells']);
}, 120_000);

describe('dpx count tasks --by status --ou all, 40 tenants', () => {
  it('has a column for every status the tasks hold, found from the first, last and 5 pages between', async () => {
    const tasks = await demoPages(demo.region, '/tasks?limit=100');
    expect(tasks).toHaveLength(19_686);
    const statuses = new Set(tasks.map((task) => String(task.status)));
    expect(statuses.size).toBe(8);
    expect(new Set(matrix.document.columns)).toEqual(statuses);
    expect(matrix.document.values).toMatchObject({ pages_read: 7, may_be_missing: false });
    expect(matrix.document.rows).toHaveLength(units.length);
    expect(matrix.stderr).toBe('');
  });

  it("gives each unit the server's own total for its scope, at depths 0 to 3, never a sum of columns", async () => {
    const rows = matrix.document.rows.filter((row) => row.depth <= 3);
    expect(new Set(rows.map((row) => row.depth))).toEqual(new Set([0, 1, 2, 3]));
    expect(rows[0]!.total).toBe(19_686);
    expect(rows[0]!.total).toBe(await serverCount(null));
    for (const row of rows) {
      expect(row.total, row.ou_path.join(' / ')).toBe(await serverCount(row.ou));
      expect(row.counted).toBe(false);
    }
  });

  it('with live changes off, other is 0 in every row (never negative) and nothing changed while counting', () => {
    for (const row of matrix.document.rows) {
      expect(row.other, row.ou_path.join(' / ')).toBe(0);
      expect(row.changed_while_counting).toBe(false);
      expect(row.error).toBeNull();
      const sum = Object.values(row.counts).reduce<number>((total, value) => total + value!, 0);
      expect(sum).toBe(row.total);
    }
  });

  it('the auto plan scans instead: the same rows in at most 0.15× the requests of the per-cell plan, verified', async () => {
    const before = demo.region.requestCount();
    const auto = await count(['--by', 'status', '--ou', 'all']);
    const sent = demo.region.requestCount() - before;
    expect(auto.document.plan).toMatchObject({ chosen: 'scan', verification: 'verified' });
    expect(auto.document.rows).toEqual(matrix.document.rows);
    expect(sent).toBe(auto.document.requests);
    expect(sent).toBeLessThanOrEqual(0.15 * matrix.document.requests);
    expect(auto.stderr).toBe('');
  });

  it('carries ou_path on every row: the names from the root to the unit, depth + 1 of them', () => {
    for (const row of matrix.document.rows) {
      expect(row.ou_path).toEqual(pathOf(row.ou!));
      expect(row.ou_path).toHaveLength(row.depth + 1);
      expect(row.ou_path.at(-1)).toBe(row.ou_name);
    }
  });
});

describe('dpx count --values, --depth, --sort, --nonzero', () => {
  it("--values failed,completed: other is the server's total less its own failed and completed counts", async () => {
    const { document } = await count(['--by', 'status', '--values', 'failed,completed', '--ou', 'all', '--depth', '1']);
    expect(document.columns).toEqual(['failed', 'completed']);
    expect(document.rows).toHaveLength(41);
    for (const row of document.rows) {
      const [total, failed, completed] = await Promise.all([
        serverCount(row.ou),
        serverCount(row.ou, { status: { $eq: 'failed' } }),
        serverCount(row.ou, { status: { $eq: 'completed' } }),
      ]);
      expect(row.counts).toEqual({ failed, completed });
      expect(row.total).toBe(total);
      expect(row.other, row.ou_name!).toBe(total - failed - completed);
      expect(row.other).toBeGreaterThan(0);
    }
  });

  it('--depth 1 --sort -failed --nonzero: the root, then its 40 tenants by their failed tasks, most first', async () => {
    const { code, stdout, stderr } = await dpx(
      [
        'count',
        'tasks',
        '--by',
        'status',
        '--ou',
        'all',
        '--depth',
        '1',
        '--sort',
        '-failed',
        '--nonzero',
        '--output',
        'json',
      ],
      { env: env() },
    );
    expect(code, stderr).toBe(0);
    const rows = (JSON.parse(stdout) as CountDocument).rows;
    const root = units.find((unit) => unit.parent_id === null)!;
    const tenants = units.filter((unit) => unit.parent_id === root.id);
    expect(tenants).toHaveLength(40);
    expect(rows[0]!.ou).toBe(root.id);
    expect(
      rows
        .slice(1)
        .map((row) => row.ou)
        .sort(),
    ).toEqual(tenants.map((tenant) => tenant.id).sort());
    const failed = await Promise.all(rows.slice(1).map((row) => serverCount(row.ou, { status: { $eq: 'failed' } })));
    expect(rows.slice(1).map((row) => row.counts['failed'])).toEqual(failed);
    expect(failed).toEqual([...failed].sort((a, b) => b - a));
    expect(rows.every((row) => row.total! > 0 && row.depth <= 1)).toBe(true);
    // Only what is shown is counted: 41 units, not 266.
    expect((JSON.parse(stdout) as { requests: number }).requests).toBeLessThan(41 * 9 + 20);

    const table = await dpx(
      ['count', 'tasks', '--by', 'status', '--ou', 'all', '--depth', '1', '--sort', '-failed', '--nonzero'],
      { env: env(), stdoutTTY: true, columns: 160 },
    );
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^unit\s/);
    expect(lines).toHaveLength(1 + 41);
    expect(lines.slice(2).every((line) => /^ {2}\S/.test(line))).toBe(true);
  });

  it('--nonzero hides the units with no record; --sort names an unknown column as a usage error', async () => {
    const filter = JSON.stringify({ status: { $eq: 'aborted' } });
    const all = await count(['--ou', 'all', '--filter', filter]);
    const some = await count(['--ou', 'all', '--filter', filter, '--nonzero']);
    expect(all.document.rows.some((row) => row.total === 0)).toBe(true);
    expect(some.document.rows.map((row) => row.ou)).toEqual(
      all.document.rows.filter((row) => row.total !== 0).map((row) => row.ou),
    );
    const wrong = await dpx(['count', 'tasks', '--by', 'status', '--values', 'failed', '--sort', 'nothing'], {
      env: env(),
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /--sort nothing: the matrix has no such column\nhint: its columns: unit, total, other, failed/,
    );
  });
});

describe('units by name', () => {
  it('--ou "<name>" and --ou "<path>" scope like the id, in count and in list', async () => {
    const names = new Map<string, number>();
    for (const unit of units) names.set(unit.name, (names.get(unit.name) ?? 0) + 1);
    const unique = units.find(
      (unit) =>
        unit.parent_id !== null && names.get(unit.name) === 1 && units.some((child) => child.parent_id === unit.id),
    )!;
    const child = units.find((unit) => unit.parent_id === unique.id)!;
    const byIdCount = await count(['--by', 'status', '--values', 'failed', '--ou', unique.id]);
    const byName = await count(['--by', 'status', '--values', 'failed', '--ou', unique.name]);
    expect(byName.document.rows).toEqual(byIdCount.document.rows);
    expect(byName.document.rows[0]!.total).toBe(await serverCount(unique.id));
    const byPath = await count(['--ou', `${unique.name}/${child.name}`]);
    expect(byPath.document.rows.map((row) => row.ou)).toEqual([child.id]);
    expect(byPath.document.rows[0]!.total).toBe(await serverCount(child.id));

    const listed = async (ou: string) => {
      const { code, stdout, stderr } = await dpx(
        ['list', 'tasks', '--ou', ou, '--page-size', '50', '--output', 'json'],
        { env: env() },
      );
      expect(code, stderr).toBe(0);
      return JSON.parse(stdout) as { items: { id: string }[]; total_count: number };
    };
    const [named, identified] = await Promise.all([listed(unique.name.toLowerCase()), listed(unique.id)]);
    expect(named.items.map((item) => item.id)).toEqual(identified.items.map((item) => item.id));
    expect(named.total_count).toBe(await serverCount(unique.id));

    // dpx diff --ou A,B reads one record in two units, each named by its name.
    const root = units.find((unit) => unit.parent_id === null)!;
    const diffed = await dpx(
      ['diff', 'tasks', identified.items[0]!.id, '--ou', `${unique.name},${root.name}`, '--output', 'json'],
      { env: env() },
    );
    expect(diffed.code, diffed.stderr).toBe(0);
  });

  it('a name eleven units share exits 2 and lists each with its path and id; nothing is counted', async () => {
    const warsaws = units.filter((unit) => unit.name === 'Warsaw');
    expect(warsaws).toHaveLength(11);
    const before = demo.region.requestCount();
    for (const command of [
      ['count', 'tasks'],
      ['list', 'tasks'],
    ]) {
      const { code, stdout, stderr } = await dpx([...command, '--ou', 'Warsaw'], { env: env() });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^error: --ou Warsaw names 11 units\n/);
      for (const unit of warsaws) expect(stderr).toContain(`  ${pathOf(unit.id).join(' / ')}  ${unit.id}\n`);
      expect(stderr).toMatch(/\nhint: give one by its path or its id/);
    }
    // The index and the unit list, twice: no task was asked for.
    expect(demo.region.requestCount() - before).toBeLessThanOrEqual(2 * (1 + Math.ceil(units.length / 100)));
  });
});

describe('dpx list --ou all: _context.ou_path', () => {
  it("is the path of the record's own unit where it names one", async () => {
    const { code, stdout, stderr } = await dpx(
      ['list', 'tasks', '--ou', 'all', '--page-size', '3', '--output', 'ndjson'],
      { env: env() },
    );
    expect(code, stderr).toBe(0);
    const records = stdout
      .trimEnd()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { organizational_unit_id: string; _context: { ou: string; ou_path: string[] } },
      );
    expect(records.length).toBeGreaterThan(266);
    for (const record of records) expect(record._context.ou_path).toEqual(pathOf(record.organizational_unit_id));
  });

  it('else the path of the unit it was read in', async () => {
    const { code, stdout, stderr } = await dpx(['list', 'roles', '--ou', 'all', '--output', 'ndjson'], { env: env() });
    expect(code, stderr).toBe(0);
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { _context: { ou: string; ou_path: string[] } });
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(Object.values(record).some((value) => typeof value === 'string' && byId.has(value))).toBe(false);
      expect(record._context.ou_path).toEqual(pathOf(record._context.ou));
    }
  });
});

describe('the frozen demo', () => {
  it('keeps its live tasks where they are', async () => {
    const running =
      '/tasks?limit=100&filter=' +
      encodeURIComponent(JSON.stringify({ status: { $in: ['in_progress', 'queued', 'scheduled'] } }));
    const before = (await demoRequest(demo.region, running)).body;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = (await demoRequest(demo.region, running)).body;
    expect(after.total_count).toBe(before.total_count);
    expect(after._embedded.items).toEqual(before._embedded.items);
  });
});
