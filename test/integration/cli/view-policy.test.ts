// A view is a question, nothing more: each hostile view of issue 38 is refused with exit 2 naming what
// breaks the rule, whether it was saved with dpx or written by hand, and nothing of it is sent.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { configPath, dpx, tokensShown } from './harness.js';

const demo = useDemo({ tenants: 10, frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal });
const viewFile = (name: string) => join(dirname(configPath), 'views', `${name}.json`);

/** Elsewhere: a server that would take a token, a proxied request or anything else; it must hear nothing. */
let elsewhere: TestServer;
beforeAll(async () => {
  elsewhere = await startServer((_request, response) => {
    response.statusCode = 200;
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
});
afterAll(async () => {
  await elsewhere.close();
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

/** A view file as a colleague might send it, written by hand (dpx would not save it). */
function handWritten(name: string, argv: string[]): void {
  mkdirSync(dirname(viewFile(name)), { recursive: true });
  writeFileSync(viewFile(name), JSON.stringify({ dpxView: 1, name, argv }));
}

/** Saving is refused, and the same view written by hand is refused when shown, listed and run: exit 2, naming `named`. */
async function refused(name: string, argv: string[], named: RegExp): Promise<string> {
  const saved = await dpx(['view', 'save', name, '--', ...argv], { env: env() });
  expect(saved.code).toBe(2);
  expect(saved.stderr).toMatch(named);
  expect(existsSync(viewFile(name))).toBe(false);
  handWritten(name, argv);
  const sentBefore = demo.region.requestCount();
  const ran = await dpx(['view', 'run', name], { env: env() });
  expect(ran.code).toBe(2);
  expect(ran.stderr).toMatch(named);
  const shown = await dpx(['view', 'show', name], { env: env() });
  expect(shown.code).toBe(2);
  expect(shown.stderr).toMatch(named);
  const listed = await dpx(['view', 'list', '-o', 'json'], { env: env() });
  expect(listed.code).toBe(1);
  const problem = (JSON.parse(listed.stdout) as { name: string; problem?: string }[]).find(
    (view) => view.name === name,
  )?.problem;
  expect(problem).toMatch(named);
  expect(demo.region.requestCount()).toBe(sentBefore);
  expect(elsewhere.requests).toEqual([]);
  return ran.stderr;
}

async function someUserId(): Promise<string> {
  const { stdout } = await dpx(['list', 'users', '--page-size', '1', '-o', 'json', '--fields', 'id'], { env: env() });
  return String((JSON.parse(stdout) as { items: { id: string }[] }).items[0]!.id);
}

describe('a view is a question, nothing more (issue 38)', () => {
  it('High: a view that adds a profile with a --token-command is refused, and the command never runs', async () => {
    const mark = join(dirname(configPath), 'token-command-ran');
    const argv = ['profile', 'add', 'evil', '--base-url', elsewhere.baseUrl, '--token-command', `touch ${mark}`];
    await refused('add-evil', argv, /a view of `dpx profile` is not kept/);
    // The second view of the attack: one that uses the profile the first would have added.
    handWritten('use-evil', ['list', 'users', '--profile', 'evil']);
    const second = await dpx(['view', 'run', 'use-evil'], { env: env() });
    expect(second.code).toBe(2);
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(configPath)).toBe(false);
    expect(elsewhere.requests).toEqual([]);
  });

  it('High: a view with --trust-origin and --base-url elsewhere is refused before the token goes anywhere', async () => {
    const stderr = await refused(
      'trusting',
      ['list', 'users', '--trust-origin', elsewhere.baseUrl, '--base-url', elsewhere.baseUrl],
      /the view trusting may not hold --trust-origin, --base-url/,
    );
    expect(stderr).toMatch(/^hint: a view of dpx list may hold .*--filter/m);
  });

  it('High: a view with --base-url and --token-file is refused', async () => {
    const tokenFile = join(dirname(configPath), 'token');
    writeFileSync(tokenFile, `${demo.region.tokens.personal}\n`, { mode: 0o600 });
    await refused(
      'elsewhere',
      ['list', 'users', '--base-url', elsewhere.baseUrl, '--token-file', tokenFile],
      /may not hold --base-url, --token-file/,
    );
  });

  it('High: a view with --allow-writes --yes --confirm-id is refused, and the record stays', async () => {
    const id = await someUserId();
    await refused(
      'deleting',
      ['call', 'users', 'delete_user', id, '--allow-writes', '--yes', '--confirm-id', id],
      /may not hold --allow-writes, --yes, --confirm-id/,
    );
    const still = await dpx(['call', 'users', 'get_user', id, '-o', 'json'], { env: env() });
    expect(still.code).toBe(0);
  });

  it('a view that calls a write is refused when run, whatever the run adds, and nothing of it is sent', async () => {
    const id = await someUserId();
    handWritten('quiet-delete', ['call', 'users', 'delete_user', id]);
    const before = demo.region.requestCount();
    const ran = await dpx(['view', 'run', 'quiet-delete', '--allow-writes'], { env: env() });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('the view quiet-delete calls users delete_user, a DELETE: a view only reads');
    // The index was read to learn the method; the DELETE was not sent.
    expect(demo.region.requestCount() - before).toBeLessThanOrEqual(1);
    expect((await dpx(['call', 'users', 'get_user', id, '-o', 'json'], { env: env() })).code).toBe(0);
  });

  it('a view that lists through a write operation is locked read-only when run', async () => {
    const id = await someUserId();
    handWritten('list-delete', ['list', 'users', '--op', 'delete_user', '--var', `user_id=${id}`]);
    const ran = await dpx(['view', 'run', 'list-delete', '--allow-writes'], { env: env() });
    expect(ran.code).toBe(4);
    expect(ran.stderr).toContain('the view list-delete only reads');
    expect((await dpx(['call', 'users', 'get_user', id, '-o', 'json'], { env: env() })).code).toBe(0);
  });

  it('Medium: a view with its own --proxy is refused and the proxy hears nothing', async () => {
    await refused('proxied', ['list', 'users', '--proxy', elsewhere.baseUrl], /may not hold --proxy/);
  });

  it('Medium: views that rewrite the config (profile add, profile use) are refused', async () => {
    await refused('adds', ['profile', 'add', 'other', '--base-url', elsewhere.baseUrl], /`dpx profile` is not kept/);
    await refused('uses', ['profile', 'use', 'other'], /`dpx profile` is not kept/);
    expect(existsSync(configPath)).toBe(false);
  });

  it('Medium: a view that runs itself is refused at once', async () => {
    const started = performance.now();
    await refused('self', ['view', 'run', 'self'], /a view of `dpx view` is not kept/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('refuses --trail, a CA file, a body and the explorer in a view', async () => {
    await refused('trailing', ['list', 'users', '--trail', 'x.har'], /may not hold --trail/);
    await refused('ca', ['list', 'users', '--ca-file', 'ca.pem'], /may not hold --ca-file/);
    await refused('body', ['call', 'users', 'get_user', 'x', '--body', '{}'], /may not hold --body/);
    await refused('explorer', ['--ou', 'x'], /a view of the explorer is not kept/);
  });

  it('refuses options typed before the command without --, rather than saving the command without them', async () => {
    const saved = await dpx(
      ['view', 'save', 'unsplit', 'list', 'tasks', '--trust-origin', 'http://elsewhere.example'],
      {
        env: env(),
      },
    );
    expect(saved.code).toBe(2);
    expect(saved.stderr).toMatch(/--trust-origin would be an option of dpx view save, not of the command saved/);
    expect(saved.stderr).toMatch(/put the whole command after --/);
    expect(existsSync(viewFile('unsplit'))).toBe(false);
  });

  it('keeps a question: the run adds the user’s own options, and `view show` prints what will run', async () => {
    const saved = await dpx(['view', 'save', 'users', '--', 'list', 'users', '--page-size', '2', '-o', 'json'], {
      env: env(),
    });
    expect(saved.code).toBe(0);
    expect((await dpx(['view', 'show', 'users'], { env: env() })).stdout).toBe(
      'dpx list users --page-size 2 -o json\n',
    );
    // The user's own --base-url at run time is theirs, as on any command line.
    const ran = await dpx(['view', 'run', 'users', '--base-url', demo.region.baseUrl], {
      env: { DPX_TOKEN: demo.region.tokens.personal },
    });
    expect(ran.code).toBe(0);
    expect((JSON.parse(ran.stdout) as { items: unknown[] }).items).toHaveLength(2);
    expect(readFileSync(viewFile('users'), 'utf8')).not.toContain('base-url');
  });
});
