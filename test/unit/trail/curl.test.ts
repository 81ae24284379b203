import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCurl } from '../../../src/api/security/curl.js';
import type { PreparedRequest } from '../../../src/api/hal/operation.js';

const TOKEN = 'test-token-value-0123456789';

function request(overrides: Partial<PreparedRequest> = {}): PreparedRequest {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:8080/api/things?limit=10&filter=%7B%7D',
    headers: { Accept: 'application/api.service.things=v2+json' },
    resource: 'things',
    version: 'v2',
    operationId: 'list_things',
    ...overrides,
  };
}

/** Runs the command in bash with `curl` replaced by a function that prints the arguments it got. */
function argumentsSeenByCurl(command: string): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\n${command}\n`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'], DPX_TOKEN: TOKEN },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\0').slice(0, -1);
}

describe('toCurl', () => {
  it('writes method, URL, the token as $DPX_TOKEN, every header and the body, one option per line', () => {
    const command = toCurl(
      request({
        method: 'post',
        headers: { Accept: 'a/b', 'Content-Type': 'application/json', 'x-ou': 'ou-1' },
        body: '{"name":"x"}',
      }),
    );
    expect(command).toBe(
      [
        "curl -X 'POST' 'http://127.0.0.1:8080/api/things?limit=10&filter=%7B%7D'",
        '-H "Authorization: Bearer $DPX_TOKEN"',
        "-H 'Accept: a/b'",
        "-H 'Content-Type: application/json'",
        "-H 'x-ou: ou-1'",
        `--data-raw '{"name":"x"}'`,
      ].join(' \\\n  '),
    );
  });

  it('never contains the real token, whichever header carried it', () => {
    const command = toCurl(request({ headers: { authorization: `Bearer ${TOKEN}`, Cookie: `s=${TOKEN}` } }));
    expect(command).not.toContain(TOKEN);
    expect(command.match(/Authorization/gi)).toHaveLength(1);
    expect(argumentsSeenByCurl(command)).toContain(`Authorization: Bearer ${TOKEN}`);
  });

  it('passes a body full of quotes, dollars and newlines through bash unchanged', () => {
    const body = `{"note":"it's a 'quoted' $HOME \`date\` \\"x\\"\nline two"}`;
    const command = toCurl(request({ method: 'PUT', body }));
    expect(spawnSync('bash', ['--norc', '-n', '-c', command], { stdio: 'ignore' }).status).toBe(0);
    expect(argumentsSeenByCurl(command)).toEqual([
      '-X',
      'PUT',
      request().url,
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '-H',
      'Accept: application/api.service.things=v2+json',
      '--data-raw',
      body,
    ]);
  });

  it('property: bash hands curl exactly the URL, header values and body it was given', () => {
    const shellSpecial = fc.constantFrom("'", '"', '\n', '\t', '$', '`', '\\', '!', '*', ' ', '#', ';', '&');
    const anyCharacter = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 1 })
      .filter((value) => !value.includes('\0'));
    const text = fc.string({ unit: fc.oneof(shellSpecial, anyCharacter), maxLength: 40 });
    fc.assert(
      fc.property(text, text, text, (pathPart, headerValue, body) => {
        const url = `http://127.0.0.1/${pathPart}`;
        const command = toCurl(request({ method: 'PATCH', url, headers: { 'x-value': headerValue }, body }));
        expect(argumentsSeenByCurl(command)).toEqual([
          '-X',
          'PATCH',
          url,
          '-H',
          `Authorization: Bearer ${TOKEN}`,
          '-H',
          `x-value: ${headerValue}`,
          '--data-raw',
          body,
        ]);
      }),
      { numRuns: 40 },
    );
  });
});
