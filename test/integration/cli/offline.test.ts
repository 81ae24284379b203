// A case file read offline: a trail recorded with the CLI against the demo over HTTP, the demo stopped,
// then `dpx --offline FILE list|call` answering from it, and a browser's devtools export opened the same way.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandContext } from '../../../src/cli/context.js';
import { startDemo } from '../../../src/demo/server.js';
import { readHar } from '../../unit/trail/har-schema.js';
import { dpx, tokensShown } from './harness.js';
import { unreachableOrigin } from '../../helpers/ports.js';
import { temporaryFolder } from '../../helpers/temporary.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const DEVTOOLS = join(import.meta.dirname, '..', '..', 'fixtures', 'devtools-export.har');
const DEVTOOLS_USER = '6b0f3a52-1d8e-4d7a-9a47-0c1d2e3f4a51';
let dir: string;
/** The trail of `list`, and the trail of `call`: each run writes its own file. */
let trail: string;
let recordTrail: string;
let tokens: string[];
/** What the commands printed online, while the demo ran. */
let online: { page: unknown; record: unknown; userId: string };

beforeAll(async () => {
  dir = temporaryFolder('dpx-offline-cli-');
  trail = join(dir, 'case-1234.har');
  recordTrail = join(dir, 'record.har');
  const demo = await startDemo({ scale: 1 });
  try {
    const region = demo.regions[0]!;
    tokens = Object.values(region.tokens);
    const env = { DPX_BASE_URL: region.baseUrl, DPX_TOKEN: region.tokens.personal };
    const list = await dpx(['--trail', trail, 'list', 'users', '--page-size', '5', '-o', 'json'], { env });
    expect(list.code, list.stderr).toBe(0);
    const page = JSON.parse(list.stdout) as { items: { id: string }[] };
    const userId = page.items[2]!.id;
    const record = await dpx(['--trail', recordTrail, 'call', 'users', 'get_user', '--var', `user_id=${userId}`], {
      env,
    });
    expect(record.code, record.stderr).toBe(0);
    online = { page, record: JSON.parse(record.stdout), userId };
  } finally {
    await demo.close();
  }
});
afterAll(async () => {
  expect(tokensShown(tokens)).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

describe('dpx --offline FILE (the demo stopped)', () => {
  it('lists what was listed, with no base URL and no token configured', async () => {
    const run = await dpx(['--offline', trail, 'list', 'users', '--page-size', '5', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(online.page);
  });

  it('calls the read operation that was called', async () => {
    const run = await dpx(['--offline', recordTrail, 'call', 'users', 'get_user', '--var', `user_id=${online.userId}`]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(online.record);
  });

  it('reads no token: a token file that does not exist, and a token in the environment, go unused', async () => {
    const run = await dpx(
      [
        '--offline',
        trail,
        '--token-file',
        join(dir, 'no-such-token'),
        'list',
        'users',
        '--page-size',
        '5',
        '-o',
        'ndjson',
      ],
      { env: { DPX_TOKEN: 'not-a-token' } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(5);
  });

  it('fails a request the case does not hold (exit 3), saying in words what it holds for that resource, and sends nothing', async () => {
    const run = await dpx(['--offline', trail, 'call', 'users', 'get_user', '--var', 'user_id=someone-else']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^error: get_user \(users v\d\) for \/users\/someone-else in no unit is not in this case$/m,
    );
    expect(run.stderr).toMatch(
      /^hint: for users, case-1234\.har holds list_users v\d with page size 5 in no unit \(1 page\); ask for one of those, or without --offline$/m,
    );
    const anotherPage = await dpx([
      '--offline',
      trail,
      'list',
      'users',
      '--page-size',
      '7',
      '--filter',
      '{"name":{"$contains":"é a"}}',
    ]);
    expect(anotherPage.code).toBe(3);
    expect(anotherPage.stderr).toMatch(
      /^error: list_users \(users v\d\) with filter \{"name":\{"\$contains":"é a"\}\}, page size 7 in no unit is not in this case$/m,
    );
    // Plain words: never a percent-encoded URL.
    expect(anotherPage.stderr).not.toMatch(/%[0-9A-F]{2}/i);
  });

  it('refuses writes whatever the settings', async () => {
    const run = await dpx([
      '--offline',
      trail,
      '--allow-writes',
      'call',
      'users',
      'delete_user',
      '--var',
      `user_id=${online.userId}`,
      '--yes',
    ]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/read-only/);
  });

  it('gives the command context the trail, its base URL and the explorer label', async () => {
    const io = { stdout: process.stdout, stderr: process.stderr, env: {} };
    const ctx = await CommandContext.create(io, { offline: trail }, join(dir, 'config.json'));
    try {
      expect(ctx.offline?.label).toBe('OFFLINE · case-1234.har');
      expect(ctx.session().baseUrl).toBe(ctx.offline?.trail.baseUrl);
      expect(ctx.settings.token).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });

  it('refuses --offline with --demo or --base-url, and a file that is not there, as usage errors', async () => {
    expect((await dpx(['--offline', trail, '--demo', 'resources'])).code).toBe(2);
    expect((await dpx(['--offline', trail, '--base-url', NOWHERE, 'resources'])).code).toBe(2);
    const missing = await dpx(['--offline', join(dir, 'nope.har'), 'resources']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the trail/);
  });
});

describe('dpx --offline and recorded failures', () => {
  it('gives back a recorded 503 as the API error it was, at once: nothing is retried offline', async () => {
    const entry = (
      url: string,
      accept: string,
      status: number,
      text: string,
      headers: { name: string; value: string }[],
    ) => ({
      startedDateTime: '2025-01-01T00:00:00.000Z',
      time: 1,
      request: {
        method: 'GET',
        url,
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'accept', value: accept }],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers,
        cookies: [],
        content: { size: text.length, mimeType: 'application/json', text },
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    const index = { things: { supported_versions: ['v1'], v1: { list_things: { href: '/things', type: 'get' } } } };
    const busy = join(dir, 'busy.har');
    await writeFile(
      busy,
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 'hand', version: '1' },
          entries: [
            entry('http://busy.example/', 'application/json', 200, JSON.stringify(index), []),
            entry(
              'http://busy.example/things',
              'application/api.service.things=v1+json',
              503,
              '{"errors":[{"error_code":"unavailable","error_message":"try later"}]}',
              [{ name: 'Retry-After', value: '2' }],
            ),
          ],
        },
      }),
    );
    const asked = join(dir, 'asked.har');
    const run = await dpx(['--offline', busy, '--trail', asked, 'list', 'things']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/\[unavailable\] try later/);
    expect(readHar(asked).log.entries.filter((item) => item.request.url.endsWith('/things'))).toHaveLength(1);
  });
});

describe('dpx --offline on a browser devtools export', () => {
  it('lists and reads the API requests it holds, in the unit it was recorded in, and never shows its credential', async () => {
    const list = await dpx(['--offline', DEVTOOLS, 'list', 'users', '--page-size', '2', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { items: { email: string }[] }).items.map((item) => item.email)).toEqual([
      'lin.okafor@corp.example',
      'sam.ruiz@corp.example',
    ]);
    expect(list.stderr).toMatch(/3 of the 7 requests .* are left out/);
    const record = await dpx(['--offline', DEVTOOLS, 'call', 'users', 'get_user', '--var', `user_id=${DEVTOOLS_USER}`]);
    expect(record.code, record.stderr).toBe(0);
    expect(JSON.parse(record.stdout)).toMatchObject({ id: DEVTOOLS_USER, full_name: 'Lin Okafor' });
    const resources = await dpx(['--offline', DEVTOOLS, 'resources', '-o', 'json']);
    expect((JSON.parse(resources.stdout) as { name: string }[]).map((resource) => resource.name)).toEqual([
      'users',
      'alerts',
    ]);
    expect(
      tokensShown([
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJicm93c2VyLXVzZXJAZXhhbXBsZS5jb20iLCJleHAiOjE5MDAwMDAwMDB9.YnJvd3Nlci1yZWNvcmRlZC1zaWduYXR1cmUtOTk4',
      ]),
    ).toEqual([]);
  });
});
