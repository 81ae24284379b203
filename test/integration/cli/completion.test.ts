// `dpx __complete <words…>`, run in-process against the demo and against small local servers: what it
// completes, how it keeps the index and the units in the cache folder, and that it never fails the prompt.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { sendJson, startServer, type RecordedRequest, type TestServer } from '../../helpers/servers.js';
import { cacheHome, configPath, dpx, tokensShown } from './harness.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const demo = useDemo();
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

afterAll(() => {
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

/** The lines `dpx __complete` prints; every run must exit 0 with nothing on stderr. */
async function complete(words: string[], environment: Record<string, string> = env()): Promise<string[]> {
  const { code, stdout, stderr } = await dpx(['__complete', ...words], { env: environment });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n');
}

const values = (lines: string[]): string[] => lines.map((line) => line.split('\t')[0]!);

describe('dpx completion', () => {
  it("prints each shell's script, which calls dpx __complete", async () => {
    for (const [shell, registers] of [
      ['bash', 'complete -F _dpx dpx'],
      ['zsh', 'compdef _dpx dpx'],
      ['fish', "complete -c dpx -f -a '(__dpx_complete)'"],
    ] as const) {
      const { code, stdout, stderr } = await dpx(['completion', shell]);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toContain(registers);
      expect(stdout).toContain('dpx __complete');
    }
  });

  it("says where the script goes: alone, for the user's shell first; typed at a terminal, on stderr above the script", async () => {
    const alone = await dpx(['completion'], { env: { SHELL: '/usr/bin/fish' } });
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(
      /^fish \(your shell\):\n {2}mkdir -p ~\/\.config\/fish\/completions && dpx completion fish > ~\/\.config\/fish\/completions\/dpx\.fish$/m,
    );
    expect(alone.stdout.indexOf('fish')).toBeLessThan(alone.stdout.indexOf('bash:'));
    const typed = await dpx(['completion', 'bash'], { stdoutTTY: true });
    expect(typed.code).toBe(0);
    expect(typed.stderr).toContain(`echo 'eval "$(dpx completion bash)"' >> ~/.bashrc`);
    expect(typed.stdout).toContain('complete -F _dpx dpx');
  });

  it('refuses a shell it has no script for', async () => {
    const { code, stderr } = await dpx(['completion', 'tcsh']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: dpx completion takes one shell: bash, zsh, fish$/m);
  });
});

describe('case files', () => {
  it('offers .har files and folders after --trail, --offline, case, replay and report, and nothing else there', async () => {
    const folder = temporaryFolder('dpx-complete-har-');
    for (const name of ['case-1234.har', 'CASE-2.HAR', 'notes.txt', '.hidden.har'])
      writeFileSync(join(folder, name), '');
    mkdirSync(join(folder, 'older'));
    const expected = [`${folder}/CASE-2.HAR`, `${folder}/case-1234.har`, `${folder}/older/`];
    for (const words of [
      ['--trail', `${folder}/`],
      ['--offline', `${folder}/`],
      ['case', `${folder}/`],
      ['replay', `${folder}/`],
      ['report', `${folder}/`],
      ['list', 'users', '--trail', `${folder}/`],
    ]) {
      expect(values(await complete(words)).sort(), words.join(' ')).toEqual(expected.sort());
    }
    expect(values(await complete(['case', `${folder}/c`]))).toEqual([`${folder}/case-1234.har`]);
    expect(values(await complete(['replay', `${folder}/.`]))).toEqual([`${folder}/.hidden.har`]);
    expect(await complete(['case', 'x.har', ''])).toEqual([]);
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('commands and options', () => {
  it('completes the command word, each with what it does', async () => {
    const lines = await complete(['']);
    expect(values(lines)).toEqual([
      'resources',
      'operations',
      'list',
      'count',
      'call',
      'xray',
      'replay',
      'case',
      'report',
      'diff',
      'whoami',
      'profile',
      'demo',
      'completion',
      'view',
    ]);
    expect(lines).toContain("replay\tsend a case's reads again, each in its recorded unit, and compare");
    expect(lines).toContain('case\twhat a case holds: each command, when, where, requests, records');
    expect(lines).toContain('list\tlist records (one page, or --all)');
    expect(await complete(['li'])).toEqual(['list\tlist records (one page, or --all)']);
  });

  it("completes global options, and a command's own; one already given is not offered again unless it repeats", async () => {
    const global = await complete(['--']);
    expect(global).toContain('--profile');
    expect(global).not.toContain('--fields');
    const list = await complete(['list', 'users', '--all', '--var', 'a=1', '--']);
    expect(list).toEqual(expect.arrayContaining(['--fields', '--var', '--op', '--page-size', '--ou']));
    expect(list).not.toContain('--all');
    expect(await complete(['list', '--pa'])).toEqual(['--page-size', '--page']);
  });

  it('completes fixed values: output formats, shells, profile actions', async () => {
    expect(await complete(['list', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(await complete(['call', '--output', ''])).toEqual(['json', 'table', 'ndjson', 'csv']);
    expect(await complete(['whoami', '--output', 'j'])).toEqual(['json']);
    expect(await complete(['xray', 'tasks', 'some-id', '-o', ''])).toEqual(['tree', 'json', 'dot']);
    expect(await complete(['count', '-o', ''])).toEqual(['table', 'json', 'csv']);
    expect(await complete(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete(['profile', ''])).toEqual(['add', 'list', 'use', 'remove', 'set', 'show']);
  });

  it('completes profile names, described by their base URL', async () => {
    const profileEnv = { DPX_CONFIG: join(cacheHome, '..', 'profiles.json') };
    expect(
      (await dpx(['profile', 'add', 'eu-prod', '--base-url', 'https://eu.example.com/api'], { env: profileEnv })).code,
    ).toBe(0);
    expect(
      (await dpx(['profile', 'add', 'us-prod', '--base-url', 'https://us.example.com/api'], { env: profileEnv })).code,
    ).toBe(0);
    expect(await complete(['--profile', ''], profileEnv)).toEqual([
      'eu-prod\thttps://eu.example.com/api',
      'us-prod\thttps://us.example.com/api',
    ]);
    expect(values(await complete(['profile', 'use', 'u'], profileEnv))).toEqual(['us-prod']);
    expect(values(await complete(['profile', 'show', 'e'], profileEnv))).toEqual(['eu-prod']);
    expect(values(await complete(['profile', 'set', 'eu-prod', 're'], profileEnv))).toEqual(['readOnly']);
    expect(values(await complete(['count', 'tasks', '--profiles', ''], profileEnv))).toEqual([
      'all',
      'eu-prod',
      'us-prod',
    ]);
    expect(await complete(['profile', 'list', ''], profileEnv)).toEqual([]);
  });
});

describe('names from the index, against the demo', () => {
  it('completes resource names, described by their versions', async () => {
    const { stdout } = await dpx(['resources', '--output', 'json'], { env: env() });
    const resources = JSON.parse(stdout) as { name: string; versions: string[] }[];
    expect(await complete(['list', ''])).toEqual(
      resources.map((resource) => `${resource.name}\t${resource.versions.join(' ')}`),
    );
    expect(values(await complete(['operations', 'us']))).toEqual(['users']);
    expect(values(await complete(['xray', 'ta']))).toEqual(['tasks']);
    // After the resource comes a record's id, which dpx does not guess.
    expect(await complete(['xray', 'tasks', ''])).toEqual([]);
    expect(values(await complete(['diff', 'us']))).toEqual(['users']);
    expect(await complete(['replay', 'case.har', '--output', ''])).toEqual(['table', 'json']);
    expect(values(await complete(['count', 'ta']))).toEqual(['tasks']);
  });

  it('completes the operation ids of a resource, described by method and href', async () => {
    const { stdout } = await dpx(['operations', 'tasks', '--output', 'json'], { env: env() });
    const operations = JSON.parse(stdout) as { id: string; method: string; href: string }[];
    expect(await complete(['call', 'tasks', ''])).toEqual(
      operations.map((operation) => `${operation.id}\t${operation.method} ${operation.href}`),
    );
    expect(values(await complete(['call', 'users', 'get_'], env()))).toEqual(['get_user']);
  });

  it('completes versions of the resource on the line, the default marked', async () => {
    expect(await complete(['list', 'users', '--version', ''])).toEqual(['v2\tthe default (newest)', 'v1']);
    // An action only one version has is offered in that version only.
    expect(values(await complete(['call', 'users', '--version', 'v1', 'ena']))).toEqual([]);
    expect(values(await complete(['call', 'users', 'ena']))).toEqual(['enable_user']);
  });

  it('completes list operations for --op, and the variables a list or an operation takes for --var', async () => {
    expect(values(await complete(['list', 'backups', '--op', '']))).toEqual([
      'list_backups',
      'list_protection_group_backups',
    ]);
    expect(await complete(['list', 'backups', '--var', ''])).toEqual(['protection_group_id=']);
    expect(await complete(['list', 'users', '--var', ''])).toEqual([]);
    expect(await complete(['call', 'tasks', 'get_task', '--var', ''])).toEqual(['task_id=']);
    expect(await complete(['call', 'tasks', 'get_task', '--var', 'task_id=', '--var', ''])).toEqual([]);
    // bash splits `task_id=12` at the `=`: the value is not dpx's to guess.
    expect(await complete(['call', 'tasks', 'get_task', '--var', 'task_id', '=', ''])).toEqual([]);
  });

  it('completes --ou with unit ids described by their place in the tree; a name finds them too', async () => {
    const units = await complete(['--ou', '']);
    expect(units.length).toBeGreaterThan(10);
    for (const line of units) expect(line).toMatch(/^[0-9a-f-]{36}\tGlobal( › [^\t›]+)*$/);
    expect(units[0]).toMatch(/\tGlobal$/);
    const acme = await complete(['list', 'tasks', '--ou', 'acme']);
    expect(acme.length).toBeGreaterThan(1);
    for (const line of acme) expect(line).toMatch(/\tGlobal › Acme Corp/);
    const id = values(acme)[0]!;
    expect(await complete(['--ou', id.slice(0, 8)])).toEqual([acme[0]]);
    // list and count ask several units at once: all is one of the choices there, and only there.
    expect(await complete(['count', 'tasks', '--ou', 'al'])).toEqual(['all\tevery unit']);
    expect(values(await complete(['list', 'tasks', '--ou', '']))[0]).toBe('all');
    expect(values(units)).not.toContain('all');
  });

  it('completes a unit name or path typed after --ou to exactly the units it names, each with its path', async () => {
    const units = await complete(['--ou', '']);
    const emea = units.filter((line) => line.endsWith(' › Acme Corp › EMEA'));
    expect(emea).toHaveLength(1);
    expect(await complete(['--ou', 'Acme Corp/EMEA'])).toEqual(emea);
    expect(await complete(['count', 'tasks', '--ou', 'acme corp › emea'])).toEqual(emea);
    const named = units.filter((line) => line.endsWith(' › EMEA'));
    expect(await complete(['--ou', 'EMEA'])).toEqual(named);
  });

  it('with --demo, completes from a demo of its own', async () => {
    expect(values(await complete(['--demo', 'list', 'pol'], {}))).toEqual(['policies']);
  });
});

/**
 * A control plane that tags its index with an ETag and answers If-None-Match, with a unit list; `names`
 * are its resources (change them to change the index).
 */
function taggedServer(state: { names: string[] }) {
  return startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/') {
      const index: Record<string, unknown> = {};
      for (const name of state.names)
        index[name] = {
          supported_versions: ['v1'],
          v1: { [`list_${name}`]: { href: `/${name}{?limit,start}`, type: 'get' } },
        };
      const etag = `"${state.names.join('+')}"`;
      if (request.headers['if-none-match'] === etag) {
        response.writeHead(304, { etag });
        response.end();
        return;
      }
      sendJson(response, 200, index, { etag });
      return;
    }
    if (url.pathname === '/tenants') {
      const items = [
        { id: 'root', name: 'Everything' },
        { id: 'a', name: 'Alpha', parent_id: 'root' },
      ];
      sendJson(response, 200, {
        _embedded: { items },
        _links: { self: { href: request.url } },
        current_count: items.length,
      });
      return;
    }
    sendJson(response, 404, { errors: [{ error_code: 'not_found', error_message: url.pathname }] });
  });
}

/** Sets the checkedAt of the cache file of `kind` for `baseUrl`, as if it had been asked about that long ago. */
function age(kind: 'index' | 'units', baseUrl: string, ms: number): void {
  const dir = join(cacheHome, 'dpx');
  for (const file of readdirSync(dir).filter((name) => name.startsWith(`${kind}-`))) {
    const path = join(dir, file);
    const entry = JSON.parse(readFileSync(path, 'utf8')) as { baseUrl: string; value: { checkedAt: number } };
    if (entry.baseUrl !== baseUrl) continue;
    entry.value.checkedAt = Date.now() - ms;
    writeFileSync(path, JSON.stringify(entry));
  }
}

describe('the cached index and units', () => {
  const state = { names: ['tenants', 'volumes'] };
  let server: TestServer;
  const serverEnv = () => ({ DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'local-token' });
  const indexRequests = (): RecordedRequest[] => server.requests.filter((request) => request.url === '/');

  beforeAll(async () => {
    server = await taggedServer(state);
  });
  afterAll(async () => {
    await server.close();
  });

  it('fetches the index once, uses it without a request while fresh, then revalidates it with If-None-Match', async () => {
    expect(values(await complete(['list', ''], serverEnv()))).toEqual(['tenants', 'volumes']);
    expect(indexRequests()).toHaveLength(1);
    expect(indexRequests()[0]!.headers['if-none-match']).toBeUndefined();

    expect(values(await complete(['list', 'v'], serverEnv()))).toEqual(['volumes']);
    expect(indexRequests()).toHaveLength(1);

    age('index', server.baseUrl, 60 * 60_000);
    expect(values(await complete(['list', ''], serverEnv()))).toEqual(['tenants', 'volumes']);
    expect(indexRequests()).toHaveLength(2);
    expect(indexRequests()[1]!.headers['if-none-match']).toBe('"tenants+volumes"');

    // Revalidated just now: fresh again.
    await complete(['list', ''], serverEnv());
    expect(indexRequests()).toHaveLength(2);

    state.names = ['tenants', 'volumes', 'snapshots'];
    age('index', server.baseUrl, 60 * 60_000);
    expect(values(await complete(['list', ''], serverEnv()))).toEqual(['tenants', 'volumes', 'snapshots']);
    expect(indexRequests()).toHaveLength(3);
  });

  it('keeps the units too: --ou asks for them once while fresh', async () => {
    const before = server.requests.filter((request) => request.url.startsWith('/tenants')).length;
    expect(await complete(['--ou', ''], serverEnv())).toEqual(['root\tEverything', 'a\tEverything › Alpha']);
    expect(await complete(['--ou', 'alp'], serverEnv())).toEqual(['a\tEverything › Alpha']);
    expect(server.requests.filter((request) => request.url.startsWith('/tenants')).length - before).toBe(1);
  });

  it('without a token, completes from the cache however old, and asks nothing', async () => {
    age('index', server.baseUrl, 24 * 60 * 60_000);
    const before = server.requests.length;
    expect(values(await complete(['list', ''], { DPX_BASE_URL: server.baseUrl }))).toEqual([
      'tenants',
      'volumes',
      'snapshots',
    ]);
    expect(server.requests.length).toBe(before);
  });

  it('holds no token', () => {
    const dir = join(cacheHome, 'dpx');
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain('local-token');
  });

  it('when the server is gone, completes from the old cache, and does not wait on it again at once', async () => {
    const gone = await taggedServer({ names: ['alerts'] });
    const goneEnv = { DPX_BASE_URL: gone.baseUrl, DPX_TOKEN: 'local-token' };
    expect(values(await complete(['list', ''], goneEnv))).toEqual(['alerts']);
    await gone.close();
    age('index', gone.baseUrl, 60 * 60_000);
    expect(values(await complete(['list', ''], goneEnv))).toEqual(['alerts']);
    const entry = readdirSync(join(cacheHome, 'dpx'))
      .map(
        (file) =>
          JSON.parse(readFileSync(join(cacheHome, 'dpx', file), 'utf8')) as {
            baseUrl: string;
            value: { checkedAt: number };
          },
      )
      .find((candidate) => candidate.baseUrl === gone.baseUrl && 'body' in candidate.value)!;
    expect(Date.now() - entry.value.checkedAt).toBeLessThan(60_000);
  });
});

describe('never an error in the prompt', () => {
  it('with no control plane configured, completes what needs none', async () => {
    expect(await complete(['list', ''], {})).toEqual([]);
    expect(values(await complete(['pro'], {}))).toEqual(['profile']);
    expect(await complete(['frobnicate', ''], {})).toEqual([]);
  });

  it('with a control plane that cannot be reached and nothing cached, completes nothing, quietly', async () => {
    expect(await complete(['call', ''], { DPX_BASE_URL: NOWHERE, DPX_TOKEN: 'x' })).toEqual([]);
    expect(await complete(['--ou', ''], { DPX_BASE_URL: NOWHERE, DPX_TOKEN: 'x' })).toEqual([]);
  });

  it('with a token the server refuses, a malformed config file, or an unknown profile, still completes commands', async () => {
    // A token from the other region: 401 for the index, and nothing of that region is cached yet.
    expect(
      await complete(['list', ''], { DPX_BASE_URL: demo.otherRegion.baseUrl, DPX_TOKEN: demo.region.tokens.personal }),
    ).toEqual([]);
    writeFileSync(configPath, '{ not json');
    expect(values(await complete(['w']))).toEqual(['whoami']);
    expect(await complete(['--profile', ''])).toEqual([]);
    expect(await complete(['--profile', 'nobody', 'list', ''])).toEqual([]);
    writeFileSync(configPath, '{"profiles":{}}');
  });

  it("leaves out names that would break the shell's lines", async () => {
    const odd = await startServer((request, response) => {
      const entry = { supported_versions: ['v1'], v1: { list: { href: '/x', type: 'get' } } };
      sendJson(response, 200, { fine: entry, 'two\nlines': entry, 'tab\there': entry });
    });
    try {
      expect(await complete(['list', ''], { DPX_BASE_URL: odd.baseUrl, DPX_TOKEN: 'x' })).toEqual(['fine\tv1']);
    } finally {
      await odd.close();
    }
  });
});
