// Case files that hold a whole investigation, over HTTP against the demo, with dpx run as a person runs
// it (the bundle, in processes of its own): commands appended to one case, each answered offline in the
// unit it was recorded in; files dpx did not write refused and left byte for byte; concurrent writers;
// writers killed with SIGKILL, also while holding the case's lock; `dpx case`; replay like with like.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { sendJson, startServer } from '../../helpers/servers.js';
import { harProblems } from '../../unit/trail/har-schema.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bundle = join(root, 'dist', 'dpx.js');
const DEVTOOLS = join(root, 'test', 'fixtures', 'devtools-export.har');
const GLOBEX = 'd469d32e-85ba-4a77-9f25-23e39deb60fd';
const ACME = '12ea2b10-e6d9-4c3f-90f8-0199acb1b1d2';
const FAILED = '{"status":{"$eq":"failed"}}';

const demo = useDemo();
let dir: string;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a person at a shell: PATH, a config and cache of their own, and what is given. */
function environment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: dir,
    DPX_CONFIG: join(dir, 'config.json'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    ...extra,
  };
}
const online = () => environment({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });

/** Runs a command in the case folder and collects what it printed; asynchronous, since the demo answers from this process. */
function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  onStart?: (child: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    onStart?.(child);
  });
}

/** The bundle in a process of its own. */
const dpx = (args: string[], env: Record<string, string>, onStart?: (child: ReturnType<typeof spawn>) => void) =>
  run(process.execPath, [bundle, ...args], env, onStart);
const bash = (script: string, env: Record<string, string>) => run('bash', ['--norc', '--noprofile', '-c', script], env);

interface CaseDocument {
  log: {
    creator: { name: string };
    pages: {
      id: string;
      title: string;
      startedDateTime: string;
      _dpx: { argv: string[]; unit?: string; baseUrl?: string };
    }[];
    entries: { pageref?: string; request: { url: string; headers: { name: string; value: string }[] } }[];
  };
}

/** The case as devtools would open it: strict JSON, valid HAR 1.2. */
async function openAsDevtools(path: string): Promise<CaseDocument> {
  const document = JSON.parse(await readFile(path, 'utf8')) as CaseDocument;
  expect(harProblems(document)).toEqual([]);
  return document;
}

const tokens = () => Object.values(demo.region.tokens);

beforeAll(async () => {
  if (!existsSync(bundle)) throw new Error('dist/dpx.js is missing: npm test builds it first (node scripts/build.mjs)');
  dir = temporaryFolder('dpx-case-files-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one case, many commands', () => {
  const COMMANDS = [
    ['list', 'users', '--ou', GLOBEX, '--page-size', '5', '-o', 'json'],
    ['list', 'policies', '--page-size', '3', '-o', 'json'],
    ['list', 'tasks', '--ou', ACME, '--page-size', '4', '--filter', FAILED, '-o', 'json'],
  ];
  let path: string;
  const answers: string[] = [];

  beforeAll(async () => {
    path = join(dir, 'case-1234.har');
    for (const command of COMMANDS) {
      const run = await dpx(['--trail', path, ...command], online());
      expect(run.code, run.stderr).toBe(0);
      answers.push(run.stdout);
    }
  });

  it('holds three commands as three pages of one HAR 1.2 file, each entry pointing at its page, with no token', async () => {
    const document = await openAsDevtools(path);
    expect(document.log.creator.name).toBe('dpx');
    expect(document.log.pages.map((page) => page._dpx.argv)).toEqual(
      COMMANDS.map((command) => ['--trail', path, ...command]),
    );
    expect(document.log.pages.map((page) => page._dpx.unit)).toEqual([GLOBEX, undefined, ACME]);
    expect(document.log.pages.map((page) => page._dpx.baseUrl)).toEqual(COMMANDS.map(() => demo.region.baseUrl));
    const ids = document.log.pages.map((page) => page.id);
    expect(new Set(ids).size).toBe(3);
    for (const entry of document.log.entries) expect(ids).toContain(entry.pageref);
    // Each command asked the index and one page.
    expect(ids.map((id) => document.log.entries.filter((entry) => entry.pageref === id).length)).toEqual([2, 2, 2]);
    const text = await readFile(path, 'utf8');
    for (const token of tokens()) expect(text).not.toContain(token);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(/\.(spool|tmp|lock)$/));
  });

  it('answers each command offline, in the unit it was recorded in, with no network and no token', async () => {
    const before = demo.region.requestCount();
    for (const [index, command] of COMMANDS.entries()) {
      // No --ou: the case knows which unit this command was recorded in.
      const withoutUnit = command.filter((_, i) => command[i] !== '--ou' && command[i - 1] !== '--ou');
      const run = await dpx(['--offline', path, ...withoutUnit], environment());
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(JSON.parse(answers[index]!));
    }
    expect(demo.region.requestCount()).toBe(before);
  });

  it('lists what it holds with dpx case: each command, when, unit, origin, requests and records', async () => {
    const json = await dpx(['case', path, '-o', 'json'], environment());
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout) as {
      commands: {
        command: string;
        unit: string | null;
        origin: string;
        requests: number;
        records: number;
        started: string;
      }[];
      requests: number;
    };
    expect(summary.commands.map((command) => command.unit)).toEqual([GLOBEX, null, ACME]);
    expect(summary.commands.map((command) => command.origin)).toEqual(
      COMMANDS.map(() => new URL(demo.region.baseUrl).origin),
    );
    expect(summary.commands.map((command) => command.requests)).toEqual([2, 2, 2]);
    const records = answers.map((answer) => (JSON.parse(answer) as { items: unknown[] }).items.length);
    expect(summary.commands.map((command) => command.records)).toEqual(records);
    expect(summary.commands[0]!.command).toBe(`dpx --trail ${path} ${COMMANDS[0]!.join(' ')}`);
    for (const command of summary.commands) expect(Date.parse(command.started)).toBeGreaterThan(Date.now() - 600_000);
    const table = await dpx(['case', path], environment({ COLUMNS: '250' }));
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^.*case-1234\.har: 3 commands, 6 requests, \d+ records/);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[2]).toContain(GLOBEX);
    expect(lines[4]).toContain('list tasks');
  });

  it('says in words what it holds for a resource when a request is not in it (exit 3), never a percent-encoded URL', async () => {
    const run = await dpx(
      ['--offline', path, 'list', 'tasks', '--page-size', '7', '--filter', '{"name":{"$contains":"a b"}}'],
      environment(),
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `error: list_tasks (tasks v1) with filter {"name":{"$contains":"a b"}}, page size 7 in unit ${ACME} is not in this case`,
    );
    expect(run.stderr).toContain(
      `hint: for tasks, case-1234.har holds list_tasks v1 with filter ${FAILED}, page size 4 in unit ${ACME} (1 page)`,
    );
    expect(run.stderr).not.toMatch(/%[0-9A-F]{2}/i);
  });

  it('replays on the same data with no difference: each read in its recorded unit and version', async () => {
    const run = await dpx(['replay', path, '-o', 'json', '--exit-code'], online());
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      requests: {
        url: string;
        then: { status: number };
        now: { status: number };
        added: unknown[];
        removed: unknown[];
        changed: unknown[];
      }[];
    };
    expect(report.requests.length).toBeGreaterThanOrEqual(4);
    for (const request of report.requests)
      expect(request, request.url).toMatchObject({
        then: { status: 200 },
        now: { status: 200 },
        added: [],
        removed: [],
        changed: [],
      });
    expect(run.stderr).toMatch(/replayed against .* \(each in its recorded unit\): 0 differ/);
  });

  it('replays in another unit on purpose: with --exit-code through a pipe it exits 5, also when the reader leaves early', async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)} replay ${JSON.stringify(path)} --ou ${GLOBEX} --exit-code`;
    const piped = await bash(`${command} | cat > replay.txt; exit "\${PIPESTATUS[0]}"`, online());
    expect(piped.code, piped.stderr).toBe(5);
    expect(await readFile(join(dir, 'replay.txt'), 'utf8')).toMatch(/added|removed/);
    const cut = await bash(`${command} | head -c 1 > /dev/null; exit "\${PIPESTATUS[0]}"`, online());
    expect(cut.code, cut.stderr).toBe(5);
  });
});

describe('files dpx did not write', () => {
  it("refuses another program's HAR, a text file and an empty file (exit 2), before sending anything, and leaves them byte for byte", async () => {
    const foreign = join(dir, 'browser.har');
    await copyFile(DEVTOOLS, foreign);
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'what the customer said\n');
    const empty = join(dir, 'empty.har');
    await writeFile(empty, '');
    for (const file of [foreign, text, empty]) {
      const bytes = await readFile(file);
      const before = demo.region.requestCount();
      const run = await dpx(['--trail', file, 'list', 'users'], online());
      expect(run.code, file).toBe(2);
      expect(run.stderr).toMatch(/was not written by dpx .*: dpx never writes over a file it did not write/);
      expect((await readFile(file)).equals(bytes), file).toBe(true);
      expect(demo.region.requestCount()).toBe(before);
    }
    expect((await readdir(dir)).filter((name) => /\.(spool|tmp|lock)$/.test(name))).toEqual([]);
  });
});

describe('writers at once, and writers killed', () => {
  it('keeps all four commands of four writers started at once', async () => {
    const path = join(dir, 'same.har');
    const runs = await Promise.all(
      [1, 2, 3, 4].map((size) =>
        dpx(['--trail', path, 'list', 'users', '--page-size', String(size), '-o', 'json'], online()),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const document = await openAsDevtools(path);
    expect(document.log.pages.map((page) => page._dpx.argv.at(-3)).sort()).toEqual(['1', '2', '3', '4']);
    expect(document.log.entries).toHaveLength(8);
    const summary = JSON.parse((await dpx(['case', path, '-o', 'json'], environment())).stdout) as {
      commands: { records: number; requests: number }[];
    };
    expect(summary.commands.map((command) => command.records).sort()).toEqual([1, 2, 3, 4]);
    expect(summary.commands.every((command) => command.requests === 2)).toBe(true);
  });

  it('a writer killed with SIGKILL mid-command leaves the case as the commands before it left it, open in dpx and devtools', async () => {
    const path = join(dir, 'killed.har');
    const first = await dpx(['--trail', path, 'list', 'users', '--page-size', '2'], online());
    expect(first.code, first.stderr).toBe(0);
    const before = await readFile(path);
    // A long command: every user, one a page, ten pages a second.
    const killed = await dpx(
      ['--trail', path, 'list', 'users', '--all', '--page-size', '1', '--rate', '10', '-o', 'ndjson'],
      online(),
      (child) => {
        const poll = setInterval(() => {
          void readdir(dir).then(async (names) => {
            const spool = names.find((name) => name.startsWith('.killed.har.') && name.endsWith('.spool'));
            if (spool && ((await stat(join(dir, spool)).catch(() => undefined))?.size ?? 0) > 2_000) {
              clearInterval(poll);
              child.kill('SIGKILL');
            }
          });
        }, 20);
      },
    );
    expect(killed.signal).toBe('SIGKILL');
    expect((await readFile(path)).equals(before)).toBe(true);
    expect((await openAsDevtools(path)).log.pages).toHaveLength(1);
    const listed = await dpx(['case', path, '-o', 'json'], environment());
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { commands: unknown[] }).commands).toHaveLength(1);
    // What the killed writer had spooled is not in the case; the next writer goes on from there, and
    // removes it.
    expect((await readdir(dir)).filter((name) => name.startsWith('.killed.har.'))).toHaveLength(1);
    const next = await dpx(['--trail', path, 'list', 'policies', '--page-size', '1'], online());
    expect(next.code, next.stderr).toBe(0);
    expect((await openAsDevtools(path)).log.pages.map((page) => page._dpx.argv.slice(2, 4))).toEqual([
      ['list', 'users'],
      ['list', 'policies'],
    ]);
    expect((await readdir(dir)).filter((name) => name.startsWith('.killed.har.'))).toEqual([]);
  });

  it("a writer killed with SIGKILL while it holds the case's lock holds the next one up for seconds only", async () => {
    const path = join(dir, 'locked.har');
    await build({
      entryPoints: [join(root, 'src', 'api', 'case', 'append.ts')],
      outfile: join(dir, 'append.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    await writeFile(
      join(dir, 'holder.mjs'),
      `import { lockCase } from './append.mjs';\nawait lockCase(process.argv[2]);\nprocess.stdout.write('locked\\n');\nsetInterval(() => {}, 1000);\n`,
    );
    const holder = spawn(process.execPath, [join(dir, 'holder.mjs'), path], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
      holder.on('exit', () => reject(new Error('the lock holder ended before it took the lock')));
    });
    expect(existsSync(`${path}.lock`)).toBe(true);
    holder.kill('SIGKILL');
    const started = Date.now();
    const next = await dpx(['--trail', path, 'list', 'users', '--page-size', '1'], online());
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await openAsDevtools(path)).log.pages).toHaveLength(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  }, 30_000);
});

describe("a browser's HAR and crafted URLs", () => {
  const SECRET_BEARER = 'browser-bearer-credential-4f1d9a7c2e';
  const COOKIE = 'session-cookie-value-8b3e61d0';
  const SET_COOKIE = 'fresh-cookie-value-5c72a9e4';
  const PASSWORD = 'url-password-s3cret-19';
  const RECORDED = 'http://recorded.example/api';
  let index: unknown;

  /** A devtools export of the demo's API, with credentials in headers, cookies and a URL, and paths that climb out. */
  async function craftedExport(): Promise<string> {
    index = (await demoRequest(demo.region, '/')).body;
    const users = await demoRequest(demo.region, '/users?limit=2');
    const headers = [
      { name: 'Authorization', value: `Bearer ${SECRET_BEARER}` },
      { name: 'Cookie', value: `sid=${COOKIE}; theme=dark` },
      { name: 'Accept', value: 'application/json' },
    ];
    const entry = (url: string, body: unknown, type = 'application/json') => ({
      startedDateTime: '2025-06-02T14:03:10.000Z',
      time: 5,
      pageref: 'page_1',
      request: {
        method: 'GET',
        url,
        httpVersion: 'HTTP/1.1',
        headers,
        queryString: [],
        cookies: [{ name: 'sid', value: COOKIE }],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'Content-Type', value: type },
          { name: 'Set-Cookie', value: `sid=${SET_COOKIE}; HttpOnly` },
        ],
        cookies: [{ name: 'sid', value: SET_COOKIE }],
        content: { size: 1, mimeType: type, text: JSON.stringify(body) },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 5, receive: 0 },
    });
    const document = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [{ startedDateTime: '2025-06-02T14:03:10.000Z', id: 'page_1', title: 'console', pageTimings: {} }],
        entries: [
          entry(`${RECORDED}/`, index),
          entry(
            `${RECORDED.replace('http://', `http://admin:${PASSWORD}@`)}/users?limit=2`,
            users.body,
            users.headers.get('content-type') ?? 'application/json',
          ),
          entry(`${RECORDED}/users/../../etc/passwd`, { stolen: true }),
          entry(`${RECORDED}/users/%2e%2e/%2E%2E/admin`, { stolen: true }),
        ],
      },
    };
    const path = join(dir, 'browser-export.har');
    await writeFile(path, JSON.stringify(document, null, 2));
    return path;
  }

  it("never prints or records its Authorization, cookies, or a URL's password, offline", async () => {
    const path = await craftedExport();
    const recorded = join(dir, 'from-browser.har');
    const runs = [
      await dpx(['--offline', path, 'list', 'users', '--page-size', '2', '-o', 'json'], environment()),
      await dpx(['--offline', path, '--trail', recorded, 'list', 'users', '--page-size', '2'], environment()),
      await dpx(['case', path, '-o', 'json'], environment()),
      await dpx(['case', path], environment()),
    ];
    expect(
      runs.map((run) => run.code),
      runs.map((run) => run.stderr).join('\n'),
    ).toEqual([0, 0, 0, 0]);
    const everything = [...runs.flatMap((run) => [run.stdout, run.stderr]), await readFile(recorded, 'utf8')].join(
      '\n',
    );
    for (const secret of [SECRET_BEARER, COOKIE, SET_COOKIE, PASSWORD]) expect(everything).not.toContain(secret);
    expect(runs[0]!.stderr).toMatch(/carried a user or password: dpx dropped it and never sends it/);
  });

  it('replays none of it: no recorded credential, no user:password from a URL, nothing outside the base path', async () => {
    const path = await craftedExport();
    const server = await startServer((request, response) => {
      if (request.url === '/api/') sendJson(response, 200, index);
      else sendJson(response, 404, { errors: [{ error_code: 'not_found', error_message: 'nothing here' }] });
    });
    try {
      const run = await dpx(
        ['replay', path, '-o', 'json', '--base-url', `${server.baseUrl}/api`],
        environment({ DPX_TOKEN: 'replaying-token-0123456789' }),
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as {
        requests: { url: string }[];
        skipped: { url: string; reason: string }[];
      };
      expect(report.requests.map((request) => request.url)).toEqual([
        `${server.baseUrl}/api/`,
        `${server.baseUrl}/api/users?limit=2`,
      ]);
      // `..` is resolved as the case is read: those two climb out of the base path and are never asked.
      expect(report.skipped).toEqual([]);
      expect(run.stderr).toMatch(
        /2 of the 4 requests in \S+ are not to http:\/\/recorded\.example\/api and are left out/,
      );
      expect(server.requests.length).toBeGreaterThan(0);
      for (const request of server.requests) {
        expect(request.url.startsWith('/api/')).toBe(true);
        expect(request.headers['authorization']).toBe('Bearer replaying-token-0123456789');
        expect(request.headers['cookie']).toBeUndefined();
        expect(JSON.stringify(request.headers)).not.toContain(PASSWORD);
      }
      for (const secret of [SECRET_BEARER, COOKIE, SET_COOKIE, PASSWORD])
        expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    } finally {
      await server.close();
    }
  });
});
