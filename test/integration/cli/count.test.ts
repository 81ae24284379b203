// `dpx count` against the demo control plane over HTTP: counts agree with what `list --all` yields, one
// request per cell, values from the schema or a page, the walk where no count is given, and failures
// that stay in their row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { startServer } from '../../helpers/servers.js';
import type { CountDocument } from '../../helpers/count-document.js';
import { dpx, tokensShown } from './harness.js';
import { unreachableOrigin } from '../../helpers/ports.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown([...Object.values(demo.region.tokens), ...Object.values(demo.otherRegion.tokens)])).toEqual([]);
});

async function countJson(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stderr: string; document: CountDocument }> {
  const { code, stdout, stderr } = await dpx(['count', ...args, '--output', 'json'], {
    env: { ...env(), ...extraEnv },
  });
  return { code, stderr, document: JSON.parse(stdout) as CountDocument };
}

async function listAll(resource: string, args: string[]): Promise<Record<string, unknown>[]> {
  const { code, stdout, stderr } = await dpx(
    ['list', resource, '--all', '--page-size', '100', '--output', 'json', ...args],
    { env: env() },
  );
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { items: Record<string, unknown>[] }).items;
}

const schemaValues = (file: string, field: string): unknown[] => {
  const schema = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'schemas', 'records', `${file}.json`), 'utf8'),
  ) as { properties: Record<string, { enum?: unknown[] }> };
  return schema.properties[field]!.enum!;
};

describe('dpx count — the numbers', () => {
  it('equal, unit by unit and value by value, what list --all yields with the same filter', async () => {
    // Final states only: a live task could finish between the list and the count.
    const filter =
      '{"category":{"$eq":"restore"},"status":{"$in":["completed","completed_with_warnings","failed","aborted","skipped"]}}';
    // Every status the filtered list holds, so that the columns add up to each unit's whole list.
    const statuses = [...new Set((await listAll('tasks', ['--filter', filter])).map((task) => String(task['status'])))];
    expect(statuses.length).toBeGreaterThan(1);
    const { code, stderr, document } = await countJson([
      'tasks',
      '--by',
      'status',
      '--values',
      statuses.join(','),
      '--ou',
      'all',
      '--filter',
      filter,
    ]);
    expect(code, stderr).toBe(0);
    expect(document.rows.length).toBeGreaterThan(10);
    for (const row of document.rows) {
      const items = await listAll('tasks', ['--ou', row.ou!, '--filter', filter]);
      const tally: Record<string, number> = {};
      for (const item of items) tally[String(item['status'])] = (tally[String(item['status'])] ?? 0) + 1;
      for (const column of document.columns)
        expect(row.counts[column], `${row.ou_name} ${column}`).toBe(tally[column] ?? 0);
      expect(row.total).toBe(items.length);
      expect(row.error).toBeNull();
    }
  });

  it(
    'per cell, costs one request per cell and total plus discovery ' +
      '(the index, one page of units, the pages read for values), and the server saw exactly those',
    async () => {
      const before = demo.region.requestCount();
      const { code, document } = await countJson(['backups', '--by', 'status', '--ou', 'all', '--plan', 'cells']);
      expect(code).toBe(0);
      expect(document.values!.pages_read).toBeGreaterThan(0);
      expect(document.requests).toBe(
        2 + document.values!.pages_read + document.rows.length * (document.columns.length + 1),
      );
      expect(demo.region.requestCount() - before).toBe(document.requests);
    },
  );

  it("ANDs each value with the filter's own condition on the same field: other values count 0", async () => {
    const { document } = await countJson([
      'tasks',
      '--by',
      'status',
      '--values',
      'failed,aborted,completed',
      '--filter',
      '{"status":{"$in":["failed","aborted"]}}',
    ]);
    const [row] = document.rows;
    const failed = await listAll('tasks', ['--filter', '{"status":{"$eq":"failed"}}']);
    expect(row!.counts['failed']).toBe(failed.length);
    expect(row!.counts['completed']).toBe(0);
    expect(row!.total).toBe(row!.counts['failed']! + row!.counts['aborted']!);
  });

  it('counts the scope of a unit: its descendants are in its count', async () => {
    const { document } = await countJson(['tasks', '--ou', 'all']);
    const root = document.rows[0]!;
    expect(root.depth).toBe(0);
    expect(root.total).toBe((await listAll('tasks', [])).length);
    for (const [index, row] of document.rows.entries()) {
      const children = document.rows
        .slice(index + 1)
        .filter(
          (other, at, rest) =>
            other.depth === row.depth + 1 && rest.slice(0, at).every((between) => between.depth > row.depth),
        );
      const sum = children.reduce((total, child) => total + child.total!, 0);
      expect(row.total!, row.ou_name!).toBeGreaterThanOrEqual(sum);
    }
  });
});

describe('dpx count — rows and columns', () => {
  it('json: the document the issue names, rows in tree order with depths, every unit of the index', async () => {
    const { document } = await countJson(['tasks', '--by', 'status', '--ou', 'all']);
    expect(Object.keys(document)).toEqual(['by', 'columns', 'values', 'rows', 'requests', 'plan']);
    expect(document.by).toBe('status');
    expect(Object.keys(document.rows[0]!)).toEqual([
      'profile',
      'base_url',
      'ou',
      'ou_name',
      'ou_path',
      'depth',
      'counts',
      'other',
      'total',
      'counted',
      'changed_while_counting',
      'error',
    ]);
    const units = (await listAll('organizational-units', [])) as { id: string; parent_id: string | null }[];
    expect(document.rows.map((row) => row.ou).sort()).toEqual(units.map((unit) => unit.id).sort());
    const position = new Map(document.rows.map((row, index) => [row.ou, index]));
    for (const unit of units) {
      const row = document.rows[position.get(unit.id)!]!;
      if (unit.parent_id === null) expect(row.depth).toBe(0);
      else {
        expect(position.get(unit.parent_id)!).toBeLessThan(position.get(unit.id)!);
        expect(row.depth).toBe(document.rows[position.get(unit.parent_id)!]!.depth + 1);
      }
      expect(row.base_url).toBe(demo.region.baseUrl);
      expect(row.profile).toBeNull();
    }
  });

  it("takes the columns from the record schema's values when it lists them", async () => {
    const { document, stderr } = await countJson(['backups', '--by', 'status']);
    expect(document.columns).toEqual(schemaValues('backups.v1', 'status'));
    expect(document.values).toMatchObject({ given: false, schema: true });
    expect(document.rows[0]!.other).toBe(0);
    expect(stderr).toBe('');
  });

  it('else from the values on the pages of the list, most common first; every page of a short list', async () => {
    const before = demo.region.requestCount();
    const { document, stderr } = await countJson(['alerts', '--by', 'category']);
    const alerts = await listAll('alerts', []);
    const tally = new Map<string, number>();
    for (const alert of alerts) tally.set(String(alert['category']), (tally.get(String(alert['category'])) ?? 0) + 1);
    expect(new Set(document.columns)).toEqual(new Set(tally.keys()));
    const counts = document.columns.map((column) => tally.get(column)!);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(document.values).toEqual({
      given: false,
      schema: false,
      pages_read: Math.ceil(alerts.length / 100),
      every_page: true,
      may_be_missing: false,
    });
    expect(stderr).toBe('');
    expect(document.rows[0]!.total).toBe(alerts.length);
    expect(document.rows[0]!.other).toBe(0);
    // The index, the pages the values came from, the total and one request per value.
    expect(document.requests).toBe(1 + document.values!.pages_read + 1 + document.columns.length);
    expect(demo.region.requestCount() - before).toBeGreaterThanOrEqual(document.requests);
  });

  it('without --by: only the total', async () => {
    const { document } = await countJson(['users']);
    expect(document.by).toBeNull();
    expect(document.columns).toEqual([]);
    expect(document.rows).toHaveLength(1);
    expect(document.rows[0]).toMatchObject({
      ou: null,
      ou_name: null,
      counts: {},
      total: (await listAll('users', [])).length,
    });
  });

  it('--values: only those, with true and false sent as JSON literals', async () => {
    const { code, document } = await countJson(['users', '--by', 'is_enabled', '--values', 'true,false']);
    expect(code).toBe(0);
    expect(document.columns).toEqual(['true', 'false']);
    const users = await listAll('users', []);
    expect(document.rows[0]!.counts).toEqual({
      true: users.filter((user) => user['is_enabled'] === true).length,
      false: users.filter((user) => user['is_enabled'] === false).length,
    });
  });

  it('walks the pages of a list that reports no total_count, says so once, and still counts right', async () => {
    const { code, stderr, document } = await countJson(['audit-trails', '--ou', 'all']);
    expect(code).toBe(0);
    expect(stderr.match(/reports no total_count: counting by walking every page/g)).toHaveLength(1);
    for (const row of document.rows.slice(0, 4)) {
      expect(row.total).toBe((await listAll('audit-trails', ['--ou', row.ou!])).length);
      expect(row.counted).toBe(true);
    }
    // The table marks each counted total, and says what the mark means.
    const table = await dpx(['count', 'audit-trails', '--by', 'action', '--ou', 'all'], { env: env() });
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines.slice(1, -1).every((line) => /\d\*$/.test(line))).toBe(true);
    expect(lines.at(-1)).toBe('* counted by dpx from every record: the list reports no total_count');
  });

  it('csv: a header of the row fields, the values and the total', async () => {
    const { code, stdout } = await dpx(
      [
        'count',
        'tasks',
        '--by',
        'status',
        '--values',
        'failed,completed',
        '--ou',
        'all',
        '--output',
        'csv',
        '--csv-crlf',
      ],
      { env: env() },
    );
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'profile,base_url,ou,ou_name,ou_path,depth,failed,completed,other,total,counted,changed_while_counting,error',
    );
    const [, , , name, path, depth, failed, completed, other, total, counted] = lines[1]!.split(',');
    expect(name).toBe('Global');
    expect(path).toBe('Global');
    expect(depth).toBe('0');
    expect(Number(total)).toBe(Number(failed) + Number(completed) + Number(other));
    expect(Number(other)).toBeGreaterThan(0);
    expect(counted).toBe('false');
  });

  it('table: units indented by depth, counts with bars coloured by meaning on a terminal, none with NO_COLOR', async () => {
    const coloured = await dpx(['count', 'tasks', '--by', 'status', '--values', 'failed,completed', '--ou', 'all'], {
      env: env(),
      stdoutTTY: true,
      columns: 120,
    });
    expect(coloured.code).toBe(0);
    const lines = coloured.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^unit\s+failed\s+completed\s+other\s+total$/);
    expect(lines[1]).toMatch(/^Global\s/);
    expect(lines[2]).toMatch(/^ {2}\S/);
    expect(lines.some((line) => /^ {4}\S/.test(line))).toBe(true);
    expect(coloured.stdout).toMatch(/\x1b\[31m█+[▏▎▍▌▋▊▉]?\s+\d/);
    expect(coloured.stdout).toMatch(/\x1b\[32m█+/);
    const plain = await dpx(['count', 'tasks', '--by', 'status', '--values', 'failed,completed', '--ou', 'all'], {
      env: { ...env(), NO_COLOR: '1' },
      stdoutTTY: true,
      columns: 120,
    });
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    expect(plain.stdout).toMatch(/█/);
  });
});

describe('dpx count — progress', () => {
  it('goes to stderr on a terminal only: units done of total, requests, 429s waited', async () => {
    const tty = await dpx(['count', 'tasks', '--ou', 'all'], { env: env(), stderrTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(/\r\x1b\[2Kunits \d+\/15 · requests \d+ · 429s 0/);
    expect(tty.stderr.endsWith('\r\x1b[2K')).toBe(true);
    const piped = await dpx(['count', 'tasks', '--ou', 'all'], { env: env() });
    expect(piped.stderr).toBe('');
  });
});

describe('dpx count — partial failure', () => {
  it('a unit that refuses fails its row only: the error in the row and on stderr, the rest printed, exit 1', async () => {
    const units = (await listAll('organizational-units', [])) as { id: string; name: string }[];
    const missing = '00000000-0000-4000-8000-000000000000';
    const { code, stderr, document } = await countJson([
      'tasks',
      '--by',
      'status',
      '--values',
      'failed',
      '--ou',
      `${units[1]!.id},${missing},${units[2]!.id}`,
    ]);
    expect(code).toBe(1);
    expect(document.rows).toHaveLength(3);
    const failed = document.rows.find((row) => row.ou === missing)!;
    expect(failed.error).toMatch(/403/);
    expect(failed.total).toBeNull();
    expect(failed.counts['failed']).toBeNull();
    expect(stderr).toMatch(new RegExp(`^error: .*${missing}: HTTP 403`, 'm'));
    for (const row of document.rows.filter((other) => other.ou !== missing)) {
      expect(row.error).toBeNull();
      expect(row.total).toBeGreaterThan(0);
    }
  });

  it('--profiles: one session per profile; a control plane that does not answer is one failed row, exit 1', async () => {
    await dpx(['profile', 'add', 'eu', '--base-url', demo.region.baseUrl, '--token-env', 'EU_TOKEN']);
    await dpx(['profile', 'add', 'us', '--base-url', demo.otherRegion.baseUrl, '--token-env', 'US_TOKEN']);
    await dpx(['profile', 'add', 'gone', '--base-url', NOWHERE, '--token-env', 'EU_TOKEN']);
    const tokens = { EU_TOKEN: demo.region.tokens.personal, US_TOKEN: demo.otherRegion.tokens.personal };
    // The environment names the eu region and its token: neither may reach the us profile's control plane.
    const both = await countJson(['tasks', '--profiles', 'eu,us', '--ou', 'all'], tokens);
    expect(both.code, both.stderr).toBe(0);
    expect(new Set(both.document.rows.map((row) => row.profile))).toEqual(new Set(['eu', 'us']));
    expect(
      both.document.rows
        .filter((row) => row.profile === 'us')
        .every((row) => row.base_url === demo.otherRegion.baseUrl),
    ).toBe(true);

    const { code, stderr, document } = await countJson(['tasks', '--profiles', 'all', '--timeout', '2'], tokens);
    expect(code).toBe(1);
    expect(document.rows.map((row) => row.profile)).toEqual(['eu', 'gone', 'us']);
    const gone = document.rows[1]!;
    expect(gone.error).toMatch(/could not reach/);
    expect(stderr).toMatch(/^error: gone: could not reach/m);
    expect(document.rows[0]!.total).toBeGreaterThan(0);
    expect(document.rows[2]!.total).toBeGreaterThan(0);
  });

  it("--demo --profiles all: the demo's regions stand for profiles", async () => {
    const { code, stdout } = await dpx(['--demo', 'count', 'roles', '--profiles', 'all', '--output', 'json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as CountDocument).rows.map((row) => row.profile)).toEqual(['eu-west', 'us-east']);
  });
});

describe('values on a server with cursor paging (next links only)', () => {
  it('reads the first page and 5 more; the caption and stderr say values may be missing, and other counts their records', async () => {
    // The demo behind a proxy that leaves only self and next in each page's links.
    const cursor = await startServer(async (request, response) => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => ['authorization', 'accept'].includes(name)),
      ) as Record<string, string>;
      const upstream = await fetch(`${demo.region.baseUrl}${request.url}`, { headers });
      const body = (await upstream.json()) as { _links?: Record<string, unknown> };
      if (body._links && 'next' in body._links) for (const rel of ['first', 'last', 'prev']) delete body._links[rel];
      response.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      response.end(JSON.stringify(body));
    });
    try {
      const proxied = { DPX_BASE_URL: cursor.baseUrl };
      const tasks = await listAll('tasks', []);
      expect(tasks.length).toBeGreaterThan(700);
      // The demo's token belongs to the demo's origin: sent to this stand-in for it on purpose.
      const trusted = ['--trust-origin', cursor.baseUrl];
      const { code, stderr, document } = await countJson(['tasks', '--by', 'status', ...trusted], proxied);
      expect(code, stderr).toBe(0);
      expect(document.values).toEqual({
        given: false,
        schema: false,
        pages_read: 6,
        every_page: false,
        may_be_missing: true,
      });
      expect(stderr).toMatch(
        /^warning: the values of status come from 6 pages of tasks and the server links no last page: values may be missing/m,
      );
      const row = document.rows[0]!;
      const shown = Object.values(row.counts).reduce<number>((sum, count) => sum + count!, 0);
      expect(row.total).toBe(tasks.length);
      expect(row.other).toBe(row.total! - shown);
      const table = await dpx(['count', 'tasks', '--by', 'status', ...trusted], { env: { ...env(), ...proxied } });
      expect(table.stdout.split('\n')[0]).toMatch(
        /^values of status may be missing: they come from 6 pages of tasks, and the server links no last page/,
      );
    } finally {
      await cursor.close();
    }
  });
});

describe('a unit header the server ignores', () => {
  const notice =
    /as many as the list without a unit, though .* only part of the tree: the server may ignore the header x-not-the-header/;

  it("is noticed once when a unit's count equals the list's without a unit", async () => {
    const units = (await listAll('organizational-units', [])) as {
      id: string;
      name: string;
      parent_id: string | null;
    }[];
    const tenant = units.find((unit) => unit.parent_id !== null)!;
    const all = (await listAll('tasks', [])).length;
    const ignored = await countJson(['tasks', '--ou', tenant.id, '--ou-header', 'x-not-the-header']);
    expect(ignored.document.rows[0]!.total).toBe(all);
    expect(ignored.stderr.match(/warning: /g)).toHaveLength(1);
    expect(ignored.stderr).toMatch(
      new RegExp(`^warning: ${tenant.name} counts ${all.toLocaleString('en-US')}, ${notice.source}`, 'm'),
    );
    const read = await countJson(['tasks', '--ou', tenant.id]);
    expect(read.document.rows[0]!.total).toBeLessThan(all);
    expect(read.stderr).toBe('');
  });

  it('is noticed once for a whole tree counted or listed with it, and not with the header the server reads', async () => {
    const ignored = await countJson(['tasks', '--ou', 'all', '--ou-header', 'x-not-the-header']);
    expect(ignored.stderr.match(/warning: /g)).toHaveLength(1);
    expect(ignored.stderr).toMatch(
      new RegExp(
        `^warning: all ${ignored.document.rows.length - 1} units below the top count [\\d,]+, ${notice.source}`,
        'm',
      ),
    );
    const listed = await dpx(
      ['list', 'tasks', '--ou', 'all', '--page-size', '1', '--output', 'json', '--ou-header', 'x-not-the-header'],
      { env: env() },
    );
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(notice);
    expect((await countJson(['tasks', '--ou', 'all'])).stderr).toBe('');
    expect(
      (await dpx(['list', 'tasks', '--ou', 'all', '--page-size', '1', '--output', 'json'], { env: env() })).stderr,
    ).toBe('');
  });
});

describe('dpx count — usage', () => {
  it('refuses what cannot be counted before anything is sent (exit 2)', async () => {
    const before = demo.region.requestCount();
    for (const args of [
      ['tasks', '--values', 'failed'],
      ['tasks', '--by', 'status', '--filter', '{"status":{"$eq":"failed"}}'],
      ['tasks', '--by', 'status', '--filter', '{"status":"failed"}'],
      ['tasks', '--filter', '[1]'],
      ['tasks', '--filter', '{oops'],
      ['tasks', '--ou', 'all,12ea2b10-e6d9-4c3f-90f8-0199acb1b1d2'],
      ['tasks', '--output', 'ndjson'],
    ]) {
      const { code, stderr } = await dpx(['count', ...args], { env: env() });
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^error: .*\nhint: /m);
    }
    expect(demo.region.requestCount()).toBe(before);
  });

  it('an unknown resource everywhere is a usage error, not a table of failures', async () => {
    const { code, stdout, stderr } = await dpx(['count', 'nothing-here', '--ou', 'all'], { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: unknown resource: nothing-here/m);
  });

  it('--ou all and id lists are for list and count only', async () => {
    const { code, stderr } = await dpx(['resources', '--ou', 'all'], { env: env() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/only dpx list and dpx count/);
  });
});
