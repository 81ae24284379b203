import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { xrayApi } from '../../helpers/xray-api.js';
import { dpx, tokensShown } from './harness.js';

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const graphviz = spawnSync('dot', ['-V']).status === 0;

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

async function failedRestore(): Promise<Record<string, any>> {
  const filter = encodeURIComponent(JSON.stringify({ category: 'restore', status: 'failed' }));
  return (await demoRequest(demo.region, `/tasks?limit=1&filter=${filter}`)).body._embedded.items[0];
}

describe('dpx xray', () => {
  it("json: the root, nodes and edges with exactly the issue's fields, and the requests the server counted", async () => {
    const task = await failedRestore();
    const before = demo.region.requestCount();
    const { code, stdout, stderr } = await dpx(['xray', 'tasks', task['id'], '-o', 'json'], { env: env() });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    expect(Object.keys(document)).toEqual(['root', 'nodes', 'edges', 'unsearchable', 'cut', 'requests']);
    expect(document.unsearchable).toEqual([]);
    expect(document.cut).toBeNull();
    for (const node of document.nodes)
      expect(Object.keys(node)).toEqual(['key', 'resource', 'id', 'label', 'status', 'url', 'error']);
    for (const edge of document.edges) expect(Object.keys(edge)).toEqual(['from', 'to', 'rel', 'direction', 'via']);
    expect(document.nodes[0]).toMatchObject({
      key: document.root,
      resource: 'tasks',
      id: task['id'],
      label: task['name'],
      status: 'failed',
      error: null,
    });
    expect(document.nodes.map((node: { id: string }) => node.id)).toEqual(
      expect.arrayContaining([task['backup_id'], task['protection_group_id'], task['organizational_unit_id']]),
    );
    // The CLI read the index too; everything else was the x-ray's.
    expect(demo.region.requestCount() - before).toBe(document.requests + 1);
  });

  it('tree: the record, its links, what refers to it and its history; status words coloured on a terminal only, never with NO_COLOR', async () => {
    const task = await failedRestore();
    const coloured = await dpx(['xray', 'tasks', task['id']], { env: env(), stdoutTTY: true });
    expect(coloured.code).toBe(0);
    const lines = coloured.stdout.split('\n');
    expect(lines[0]).toContain(`tasks  ${task['name']}  \x1b[31mfailed\x1b[39m`);
    expect(coloured.stdout).toMatch(/\n[├└]─ backup → backups {2}/);
    expect(coloured.stdout).toMatch(/\n[│ ]+[├└]─ policy → policies {2}/);
    expect(lines).toEqual(expect.arrayContaining(['Links (depth 2)', 'Referred to by', 'History (newest first)']));

    const plain = await dpx(['xray', 'tasks', task['id']], { env: { ...env(), NO_COLOR: '1' }, stdoutTTY: true });
    const piped = await dpx(['xray', 'tasks', task['id']], { env: env() });
    expect(plain.stdout).not.toContain('\x1b[');
    expect(piped.stdout).not.toContain('\x1b[');
    expect(plain.stdout).toBe(piped.stdout);
    expect(plain.stdout.split('\n')[0]).toBe(`tasks  ${task['name']}  failed  ${task['id']}`);
  });

  it('--depth and --no-inbound bound what is read', async () => {
    const task = await failedRestore();
    const shallow = JSON.parse(
      (await dpx(['xray', 'tasks', task['id'], '--depth', '0', '--no-inbound', '-o', 'json'], { env: env() })).stdout,
    );
    expect(shallow.nodes).toHaveLength(1);
    expect(shallow.requests).toBe(1);
    const tree = await dpx(['xray', 'tasks', task['id'], '--depth', '1', '--no-inbound'], { env: env() });
    expect(tree.stdout).toContain('Links (depth 1)');
    expect(tree.stdout).not.toContain('Referred to by');
    expect(tree.stdout).not.toMatch(/policy → /);
  });

  it('dot: a digraph Graphviz renders', async () => {
    const task = await failedRestore();
    const { code, stdout } = await dpx(['xray', 'tasks', task['id'], '-o', 'dot'], { env: env() });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^digraph xray \{\n/);
    expect(stdout.trimEnd().endsWith('}')).toBe(true);
    const declared = new Set([...stdout.matchAll(/^ {2}(n\d+) \[/gm)].map((match) => match[1]));
    const used = [...stdout.matchAll(/^ {2}(n\d+) -> (n\d+) /gm)].flatMap((match) => [match[1], match[2]]);
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((id) => !declared.has(id))).toEqual([]);
    if (graphviz) {
      const rendered = spawnSync('dot', ['-Tsvg'], { input: stdout, encoding: 'utf8' });
      expect(rendered.stderr).toBe('');
      expect(rendered.status).toBe(0);
      expect(rendered.stdout).toContain('<svg');
    }
  });

  it("bad input: usage errors (exit 2), and a record that does not exist is the API's error (exit 1)", async () => {
    const task = await failedRestore();
    const cases: [string[], number, RegExp][] = [
      [['xray', 'tasks'], 2, /dpx xray takes a resource and the id/],
      [['xray', 'tasks', task['id'], '--depth', 'two'], 2, /--depth must be a positive whole number/],
      [['xray', 'tasks', task['id'], '--depth', '11'], 2, /--depth 11 is deeper than 10/],
      [['xray', 'tasks', task['id'], '-o', 'csv'], 2, /unknown output format 'csv'/],
      [['xray', 'no-such-things', 'x'], 2, /unknown resource: no-such-things/],
      [['xray', 'tasks', 'no-such-task'], 1, /error: HTTP 404/],
    ];
    for (const [argv, exit, message] of cases) {
      const { code, stdout, stderr } = await dpx(argv, { env: env() });
      expect(code, argv.join(' ')).toBe(exit);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
      expect(stderr).toMatch(/\nhint: /);
    }
  });
});

describe('dpx xray --verbose against a control plane it has never seen', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('names the lists it cannot search in the tree, says on stderr why, and what the x-ray cost', async () => {
    server = await startServer(xrayApi());
    const { code, stdout, stderr } = await dpx(['xray', 'jobs', 'j-1', '--verbose'], {
      env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'header.payload.signature' },
    });
    expect(code).toBe(0);
    expect(stdout).toContain('├─ volumes by job_id: 2');
    expect(stdout).toContain('├─ not searchable: `notes` refused a filter on `job_id` (`invalid_filter`)');
    expect(stdout).toContain('└─ not searchable: `logs` ignored a filter on `job_id`');
    expect(stderr).toMatch(
      /^note: not searchable: `notes` refused a filter on `job_id` \(`invalid_filter`\): notes cannot be filtered/m,
    );
    expect(stderr).toMatch(/^note: not searchable: `logs` ignored a filter on `job_id`/m);
    expect(stderr).toMatch(/^note: jobs Nightly copy: _links\.cancel not followed/m);
    // Each of the four candidates asked in the operator form first (this server reads bare values only), then the bare one.
    expect(stderr).toMatch(/^requests: 19 = 5 records read \+ 6 lists read for their fields \+ 8 inbound queries/m);
    expect(server.requests.filter((request) => request.url !== '/')).toHaveLength(19);
  });
});
