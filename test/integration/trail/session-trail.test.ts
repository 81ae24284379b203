// The trail and the curl preview wired to a real session against the demo control plane over HTTP.

import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCurl } from '../../../src/api/security/curl.js';
import { ApiError, SafetyError } from '../../../src/api/errors.js';
import { listRequest, walkPages } from '../../../src/api/session/pages.js';
import { Session } from '../../../src/api/session/session.js';
import { HarTrail } from '../../../src/api/case/trail.js';
import { useDemo } from '../../helpers/demo.js';
import { readHar } from '../../unit/trail/har-schema.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
let dir: string;

beforeAll(async () => {
  dir = temporaryFolder('dpx-session-trail-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs a command line in bash, as a person pasting it would, with only PATH and the given variables.
 * Asynchronous: the demo answers from this same process, so a blocking spawn would never get a reply.
 */
function runInShell(command: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', `${command} --silent --show-error --max-time 10`], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: process.env['PATH'] ?? '', ...env },
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout }));
  });
}

describe('a session recording to a trail', () => {
  it('writes valid HAR for every exchange, refusals and errors included, with no token anywhere', async () => {
    const { region } = demo;
    const path = join(dir, 'session.har');
    const secrets = [region.tokens.personal, region.tokens.expired];
    const trail = await HarTrail.open(path, () => secrets);
    const session = new Session({
      baseUrl: region.baseUrl,
      token: region.tokens.personal,
      readOnly: true,
      onExchange: trail.record,
    });
    const countBefore = region.requestCount();

    const catalog = await session.catalog();
    const first = await listRequest(session, { resource: 'users', pageSize: 5 });
    let pages = 0;
    for await (const _page of walkPages(session, first, { maxPages: 3 })) pages += 1;
    expect(pages).toBe(3);

    const create = catalog.resources
      .find((resource) => resource.name === 'users')
      ?.versions[0]?.operations.find((operation) => operation.method === 'POST');
    expect(create).toBeDefined();
    const write = await session.prepare({ resource: 'users', operationId: create?.id ?? '', body: '{"name":"x"}' });
    await expect(session.send(write)).rejects.toBeInstanceOf(SafetyError);

    const expired = new Session({ baseUrl: region.baseUrl, token: region.tokens.expired, onExchange: trail.record });
    await expect(expired.send(first)).rejects.toBeInstanceOf(ApiError);
    await trail.close();

    const text = await readFile(path, 'utf8');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJ[\w-]*\.[\w-]+\./);

    const entries = readHar(path).log.entries;
    const sent = entries.filter((entry) => entry.response.status !== 0);
    expect(sent).toHaveLength(region.requestCount() - countBefore);
    expect(sent.map((entry) => entry.response.status)).toEqual([200, 200, 200, 200, 401]);
    // Every request that went out shows how it authenticated, with the credential itself masked.
    for (const entry of sent)
      expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer ***' });
    expect(sent[1]?.request.url).toBe(first.url);
    expect(JSON.parse(sent[1]?.response.content.text ?? '')._embedded.items).toHaveLength(5);

    const refused = entries.filter((entry) => entry.response.status === 0);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.request.method).toBe('POST');
    expect(refused[0]?.request.postData?.text).toBe('{"name":"x"}');
    expect(refused[0]?.response._error).toMatch(/read-only/);
  });
});

describe('the curl preview', () => {
  it('gets the same response as the session when run by bash with the token in DPX_TOKEN', async () => {
    const { region } = demo;
    const session = new Session({ baseUrl: region.baseUrl, token: region.tokens.personal });
    const request = await listRequest(session, {
      resource: 'users',
      pageSize: 7,
      filter: '{"name":{"$contains":"a"}}',
    });
    const expected = await session.send(request);
    const command = toCurl(request);
    expect(command).not.toContain(region.tokens.personal);

    const countBefore = region.requestCount();
    const withToken = await runInShell(command, { DPX_TOKEN: region.tokens.personal });
    expect(withToken.status).toBe(0);
    expect(JSON.parse(withToken.stdout)).toEqual(expected.body);
    expect(region.requestCount()).toBe(countBefore + 1);

    const withoutToken = await runInShell(command, {});
    expect(JSON.parse(withoutToken.stdout).errors).toBeDefined();
  });
});
