// `--fields a,b.c` on list and call: the fields and their order, in every format, against the demo.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { dpx, tokensShown } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const FIELDS = 'status,id,initiated_by.email,no_such_field';

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

async function run(args: string[], columns?: number): Promise<string> {
  const { code, stdout, stderr } = await dpx(args, {
    env: columns === undefined ? env() : { ...env(), COLUMNS: String(columns) },
  });
  expect(stderr).not.toMatch(/^error:/m);
  expect(code).toBe(0);
  return stdout;
}

/** The same page of tasks, every field, to compare against. */
let tasks: Record<string, any>[] = [];
beforeAll(async () => {
  tasks = (
    JSON.parse(await run(['list', 'tasks', '--page-size', '6', '--output', 'json'])) as { items: Record<string, any>[] }
  ).items;
  expect(tasks.some((task) => task['initiated_by']?.email)).toBe(true);
});

/** A task with the fields asked for, keyed by their paths; a path the task lacks is left out. */
function expected(task: Record<string, any>): Record<string, unknown> {
  const chosen: Record<string, unknown> = { status: task['status'], id: task['id'] };
  if (task['initiated_by']?.email !== undefined) chosen['initiated_by.email'] = task['initiated_by'].email;
  return chosen;
}

describe('dpx list --fields', () => {
  it('json: each item holds just the fields, keyed by their paths, in the order given', async () => {
    const { items } = JSON.parse(
      await run(['list', 'tasks', '--page-size', '6', '--output', 'json', '--fields', FIELDS]),
    ) as { items: Record<string, unknown>[] };
    expect(items).toEqual(tasks.map(expected));
    for (const item of items) expect(Object.keys(item)).toEqual(Object.keys(expected(tasks[items.indexOf(item)]!)));
  });

  it('ndjson: one such object a line', async () => {
    const lines = (await run(['list', 'tasks', '--page-size', '6', '--output', 'ndjson', '--fields', FIELDS]))
      .trimEnd()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(tasks.map(expected));
  });

  it('csv: the header is the fields as given; a field a record lacks is an empty cell', async () => {
    const lines = (
      await run(['list', 'tasks', '--page-size', '6', '--output', 'csv', '--csv-crlf', '--fields', FIELDS])
    ).split('\r\n');
    expect(lines[0]).toBe('status,id,initiated_by.email,no_such_field');
    expect(lines.slice(1, -1)).toEqual(
      tasks.map((task) => `${task['status']},${task['id']},${task['initiated_by']?.email ?? ''},`),
    );
  });

  it('table: the columns in the order given, under their paths', async () => {
    const lines = (await run(['list', 'tasks', '--page-size', '6', '--fields', 'status,id,initiated_by.email'], 200))
      .trimEnd()
      .split('\n');
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['status', 'id', 'initiated_by.email']);
    tasks.forEach((task, index) => {
      expect(lines[index + 1]!.startsWith(`${task['status'].padEnd(lines[0]!.indexOf('id'))}${task['id']}`)).toBe(true);
    });
  });

  it('with --all, every page has the same fields', async () => {
    const lines = (
      await run([
        'list',
        'tasks',
        '--all',
        '--page-size',
        '50',
        '--max-items',
        '120',
        '--output',
        'ndjson',
        '--fields',
        'id,status',
      ])
    )
      .trimEnd()
      .split('\n');
    expect(lines).toHaveLength(120);
    for (const line of lines) expect(Object.keys(JSON.parse(line))).toEqual(['id', 'status']);
  });

  it('an empty field name is a usage error, before anything is sent', async () => {
    const trail = join(temporaryFolder('dpx-fields-'), 'refused.har');
    for (const fields of ['', 'id,,status', 'initiated_by.']) {
      const { code, stderr } = await dpx(['list', 'tasks', '--fields', fields, '--trail', trail], { env: env() });
      expect(code).toBe(2);
      expect(stderr).toMatch(/^error: --fields takes field names/m);
      expect((JSON.parse(readFileSync(trail, 'utf8')) as { log: { entries: unknown[] } }).log.entries).toEqual([]);
    }
  });
});

describe('dpx call --fields and --output', () => {
  it('a record keeps its shape in json, with just the fields', async () => {
    const task = tasks[0]!;
    const stdout = await run(['call', 'tasks', 'get_task', '--var', `task_id=${task['id']}`, '--fields', FIELDS]);
    expect(JSON.parse(stdout)).toEqual(expected(task));
  });

  it('a record as a one-row csv', async () => {
    const task = tasks[0]!;
    const stdout = await run([
      'call',
      'tasks',
      'get_task',
      '--var',
      `task_id=${task['id']}`,
      '--output',
      'csv',
      '--csv-crlf',
      '--fields',
      'id,status',
    ]);
    expect(stdout).toBe(`id,status\r\n${task['id']},${task['status']}\r\n`);
  });

  it('a list answer prints as dpx list prints the same page, in each format', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'table']) {
      const viaCall = await run([
        'call',
        'tasks',
        'list_tasks',
        '--query',
        'limit=6',
        '--output',
        format,
        '--fields',
        FIELDS,
      ]);
      const viaList = await run(['list', 'tasks', '--page-size', '6', '--output', format, '--fields', FIELDS]);
      expect(viaCall).toBe(viaList);
    }
  });

  it('without --fields and --output, the body is printed as the server sent it', async () => {
    const task = tasks[0]!;
    expect(JSON.parse(await run(['call', 'tasks', 'get_task', '--var', `task_id=${task['id']}`]))).toEqual(task);
  });
});

describe('--fields on a narrow terminal', () => {
  it('shows every field asked for at 80 columns, cutting values and headers with … instead of dropping any', async () => {
    const fields = ['id', 'name', 'error_code', 'created_timestamp', 'backup_id'];
    const { code, stdout, stderr } = await dpx(
      ['list', 'tasks', '--page-size', '6', '--fields', fields.join(','), '--filter', '{"status":{"$eq":"failed"}}'],
      { env: env(), stdoutTTY: true, columns: 80 },
    );
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/lack of width/);
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    // Every header is there, in order, whole or cut with …; so is every row's id, cut the same way.
    const headers = lines[0]!.split(/\s{2,}/);
    expect(headers).toHaveLength(fields.length);
    for (const [index, header] of headers.entries())
      expect(fields[index]!.startsWith(header.replace(/…$/, ''))).toBe(true);
    expect(lines.slice(1).some((line) => line.includes('…'))).toBe(true);
    const failed = (
      JSON.parse(
        await run(['list', 'tasks', '--page-size', '6', '--filter', '{"status":{"$eq":"failed"}}', '--output', 'json']),
      ) as { items: { id: string; error_code: string }[] }
    ).items;
    lines.slice(1).forEach((line, index) => {
      const [id, , code] = line.split(/\s{2,}/);
      expect(failed[index]!.id.startsWith(id!.replace(/…$/, ''))).toBe(true);
      expect(failed[index]!.error_code.startsWith(code!.replace(/…$/, ''))).toBe(true);
    });
  });
});
