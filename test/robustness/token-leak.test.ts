// A full scripted session with a freshly minted token, run through the built bundle as a user would, with
// every writable place (config, trail, XDG folders, HOME) inside one temporary folder. Afterwards the token
// and its signature segment must appear in no stdout, no stderr and no file written.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_RATE, useDemo } from '../helpers/demo.js';
import { tempDir } from './cli.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'dpx.js');
const demo = useDemo({ scale: 1 });

interface Output {
  argv: string[];
  code: number;
  stdout: string;
  stderr: string;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** What a browser's devtools would export after the console asked for the index and one tasks page, token and all. */
async function browserExport(baseUrl: string, token: string): Promise<unknown> {
  const entry = async (path: string, accept: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, accept } });
    const text = await response.text();
    return {
      startedDateTime: new Date().toISOString(),
      time: 5,
      request: {
        method: 'GET',
        url: `${baseUrl}${path}`,
        httpVersion: 'http/1.1',
        headers: [
          { name: 'Authorization', value: `Bearer ${token}` },
          { name: 'Accept', value: accept },
        ],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: response.status,
        statusText: '',
        httpVersion: 'http/1.1',
        headers: [...response.headers].map(([name, value]) => ({ name, value })),
        cookies: [],
        content: { size: text.length, mimeType: response.headers.get('content-type') ?? '', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 5, receive: 0 },
    };
  };
  const entries = [
    await entry('/', 'application/json, text/plain, */*'),
    await entry('/tasks?limit=3', 'application/json, text/plain, */*'),
  ];
  return { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries } };
}

describe('a scripted session with a known token', () => {
  const home = tempDir('dpx-leak-');
  /** Where the browser's export lives: it holds the token by nature, so it is not searched. */
  const outside = tempDir('dpx-leak-browser-');
  const outputs: Output[] = [];
  let token = '';

  const dpx = async (argv: string[], extraEnv: Record<string, string> = {}): Promise<Output> => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_STATE_HOME: join(home, 'state'),
      TMPDIR: join(home, 'tmp'),
      DPX_CONFIG: join(home, 'dpx', 'config.json'),
      DPX_TOKEN: token,
      DPX_RATE: LOCAL_RATE,
      ...extraEnv,
    };
    const result = await run(process.execPath, [bundle, ...argv], { env, cwd: home, timeout: 20_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: typeof error.code === 'number' ? error.code : -1,
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
      }),
    );
    const output = { argv, ...result };
    outputs.push(output);
    return output;
  };

  const expectExit = async (argv: string[], code: number): Promise<Output> => {
    const output = await dpx(argv);
    expect(output.code, `dpx ${argv.join(' ')}: ${output.stderr}`).toBe(code);
    return output;
  };

  beforeAll(async () => {
    if (!existsSync(bundle))
      await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root });
    token = await demo.region.mintToken({
      subject: 'leak-check@demo.example',
      type: 'personal',
      expiresInSeconds: 3600,
    });
    const base = ['--base-url', demo.region.baseUrl];
    mkdirSync(join(home, 'trails'));
    const trail = (name: string) => ['--trail', join(home, 'trails', `${name}.har`)];

    await expectExit(['profile', 'add', 'leak', ...base, '--token-env', 'DPX_TOKEN'], 0);
    await expectExit(['resources', ...base, ...trail('resources')], 0);
    const list = await dpx([
      'list',
      'tasks',
      '--all',
      '--output',
      'ndjson',
      '--page-size',
      '100',
      ...base,
      ...trail('list'),
    ]);
    expect(list.code, list.stderr).toBe(0);
    const firstId = String((JSON.parse(list.stdout.split('\n')[0]!) as { id: unknown }).id);
    const operations = JSON.parse(
      (await expectExit(['operations', 'tasks', '--output', 'json', ...base], 0)).stdout,
    ) as { id: string; method: string; pathVariables: string[] }[];
    const read = operations.find((operation) => operation.method === 'GET' && operation.pathVariables.length === 1)!;
    const write = operations.find((operation) => operation.method === 'POST' && operation.pathVariables.length === 1)!;
    const variable = (value: string) => ['--var', `${read.pathVariables[0]}=${value}`];

    await expectExit(['call', 'tasks', read.id, ...variable(firstId), '--dry-run', ...base], 0);
    await expectExit(['call', 'tasks', read.id, ...variable(firstId), ...base, ...trail('call')], 0);
    await expectExit(['xray', 'tasks', firstId, '--verbose', ...base, ...trail('xray')], 0);
    await expectExit(['xray', 'tasks', firstId, '--output', 'json', ...base], 0);
    await expectExit(['xray', 'tasks', firstId, '--output', 'dot', '--depth', '1', ...base], 0);
    await expectExit(['whoami', ...base], 0);
    await expectExit(['whoami', '--output', 'json', '--profile', 'leak'], 0);
    // The failures, each of which talks about the token or the request that carried it.
    await expectExit(['call', 'tasks', read.id, ...variable('no-such-task'), ...base, ...trail('not-found')], 1);
    await expectExit(
      ['call', 'tasks', write.id, '--var', `${write.pathVariables[0]}=${firstId}`, ...base, ...trail('refused')],
      4,
    );
    // The token names its region in iss, and a profile names that region: it belongs there, and another
    // control plane is refused before anything is sent (4), unless --trust-origin sends it on purpose (401).
    await expectExit(['resources', '--base-url', demo.otherRegion.baseUrl], 4);
    await expectExit(
      [
        'resources',
        '--base-url',
        demo.otherRegion.baseUrl,
        '--trust-origin',
        demo.otherRegion.baseUrl,
        ...trail('other-region'),
      ],
      1,
    );
    await expectExit(['list', 'no-such-resource', ...base], 2);
    await expectExit(['xray', 'tasks', 'no-such-task', ...base], 1);
    // Across units and control planes: the matrix, a merged list, and their failures (a unit that
    // refuses, a profile whose control plane does not answer).
    await expectExit(['count', 'tasks', '--by', 'status', '--ou', 'all', ...base, ...trail('count')], 0);
    await expectExit(['count', 'tasks', '--ou', `all`, '--profiles', 'leak', '--output', 'json'], 0);
    await expectExit(
      ['list', 'users', '--ou', 'all', '--all', '--output', 'ndjson', '--profiles', 'leak', ...trail('merged')],
      0,
    );
    await expectExit(['count', 'tasks', '--ou', '00000000-0000-4000-8000-000000000000', '--output', 'csv', ...base], 1);
    await expectExit(['profile', 'add', 'gone', '--base-url', 'http://127.0.0.1:9', '--token-env', 'DPX_TOKEN'], 0);
    await expectExit(['list', 'roles', '--profiles', 'leak,gone', '--output', 'json', '--timeout', '1'], 1);
    await expectExit(
      ['resources', '--base-url', 'http://127.0.0.1:9', '--trust-origin', 'http://127.0.0.1:9', '--timeout', '1'],
      3,
    );
    // Shell completion: it fetches the index and the units and keeps them in the cache folder.
    await expectExit(['completion', 'bash'], 0);
    for (const words of [
      ['list', ''],
      ['--ou', ''],
      ['call', 'tasks', ''],
      ['--profile', ''],
    ]) {
      expect((await expectExit(['__complete', ...base, ...words], 0)).stderr).toBe('');
    }
    expect((await dpx(['__complete', '--base-url', demo.otherRegion.baseUrl, 'list', ''])).stderr).toBe('');

    // Case files: the trails read offline, replayed (tables, JSON, and a trail of the replay), and diffs.
    const listTrail = join(home, 'trails', 'list.har');
    await expectExit(
      ['--offline', listTrail, 'list', 'tasks', '--page-size', '100', '--output', 'ndjson', ...trail('offline')],
      0,
    );
    await expectExit(
      ['--offline', join(home, 'trails', 'call.har'), 'call', 'tasks', read.id, ...variable(firstId)],
      0,
    );
    await expectExit(['--offline', listTrail, 'call', 'tasks', read.id, ...variable('not-recorded')], 3);
    await expectExit(['replay', join(home, 'trails', 'call.har'), ...base, ...trail('replay')], 0);
    await expectExit(['replay', join(home, 'trails', 'not-found.har'), '--output', 'json', ...base], 0);
    await expectExit(
      [
        'replay',
        join(home, 'trails', 'refused.har'),
        '--output',
        'json',
        '--exit-code',
        '--base-url',
        demo.otherRegion.baseUrl,
        '--trust-origin',
        demo.otherRegion.baseUrl,
      ],
      5,
    );
    const users = JSON.parse(
      (await expectExit(['list', 'users', '--page-size', '1', '--output', 'json', ...base], 0)).stdout,
    ) as { items: { id: string }[] };
    await expectExit(['diff', 'users', users.items[0]!.id, '--versions', 'v1,v2', ...base, ...trail('diff')], 0);
    await expectExit(['diff', 'users', users.items[0]!.id, '--versions', 'v1,v2', '--output', 'json', ...base], 0);
    // A browser's export keeps the token it sent: offline and replayed, it is masked all the same.
    const browserHar = join(outside, 'browser.har');
    writeFileSync(browserHar, JSON.stringify(await browserExport(demo.region.baseUrl, token)));
    expect(readFileSync(browserHar, 'utf8')).toContain(token);
    await expectExit(['--offline', browserHar, 'list', 'tasks', '--page-size', '3', ...trail('browser-offline')], 0);
    // A list held at another page size is answered at the size held, and says so (issue 39).
    await expectExit(['--offline', browserHar, 'list', 'tasks', '--page-size', '4'], 0);
    await expectExit(['replay', browserHar, '--output', 'json', ...base, ...trail('browser-replay')], 0);
  }, 60_000);

  it('ran every command and wrote the trails and the config inside the temporary folder', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(36);
    const files = filesUnder(home);
    expect(files.filter((file) => file.endsWith('.har'))).toHaveLength(14);
    expect(files.some((file) => file.endsWith('config.json'))).toBe(true);
    // The cache holds the index and the units (completion), what the x-ray's lists taught about filters,
    // the lists' largest pages, and the command line's compiled code (src/cli/code-cache.ts).
    const cached = files
      .filter((file) => file.startsWith(join(home, 'cache', 'dpx')))
      .map((file) => /\/(code)-[^/]+\.bin$|([a-z-]+)-[0-9a-f]+\.json$/.exec(file)?.slice(1).find(Boolean));
    expect(cached.sort()).toEqual(['code', 'filters', 'index', 'page-sizes', 'units']);
    // The trails do hold the session: requests with their (redacted) Authorization header.
    expect(readFileSync(join(home, 'trails', 'list.har'), 'utf8')).toMatch(/authorization/i);
  });

  it('shows the token nowhere: not in stdout, stderr, the trails, the config or any other file written', () => {
    const signature = token.split('.')[2]!;
    expect(signature.length).toBeGreaterThan(20);
    const leaks: string[] = [];
    for (const output of outputs) {
      for (const [channel, text] of [
        ['stdout', output.stdout],
        ['stderr', output.stderr],
      ] as const) {
        if (text.includes(token) || text.includes(signature)) leaks.push(`${channel} of dpx ${output.argv.join(' ')}`);
      }
    }
    for (const file of filesUnder(home)) {
      const text = readFileSync(file, 'latin1');
      if (text.includes(token) || text.includes(signature)) leaks.push(file);
    }
    expect(leaks).toEqual([]);
  });
});
