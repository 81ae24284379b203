// Hints name the real cause, over HTTP against the demo: a 400's hint follows the server's error code, not
// a field name in its list of known fields; a failure to read the discovery index says to check the base
// URL and names the URL tried; a network failure is said in words with its code in brackets; a unit name
// that names none gets a did-you-mean, and is never taken for the unit it resembles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemo } from '../../helpers/demo.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { dpx, tokensShown } from './harness.js';
import { closedPort } from '../../helpers/ports.js';

const demo = useDemo();
const env = (baseUrl = demo.region.baseUrl) => ({ DPX_BASE_URL: baseUrl, DPX_TOKEN: demo.region.tokens.personal });

let html: TestServer;
beforeAll(async () => {
  html = await startServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><head><title>Sign in</title></head><body>Sign in to continue</body></html>');
  });
});
afterAll(async () => {
  await html.close();
  expect(tokensShown(Object.values(demo.region.tokens))).toEqual([]);
});

const baseUrlHint = (url: string) =>
  `hint: check the base URL: dpx asked ${url} for the discovery index, which should be the control plane's API root`;

describe('the hint of a refused filter', () => {
  it('follows the error code, not a field name in the list of known fields', async () => {
    const { code, stderr } = await dpx(['list', 'tasks', '--filter', '{"stat":{"$eq":"failed"}}'], { env: env() });
    expect(code).toBe(1);
    // The server's message lists organizational_unit_id among the known fields.
    expect(stderr).toContain('organizational_unit_id');
    expect(stderr).toMatch(/^hint: the filter was refused: it is a JSON object/m);
    expect(stderr).not.toMatch(/organizational unit.*was refused/);
  });
});

describe('a failure to read the discovery index', () => {
  it('a base URL one folder off: check the base URL, with the URL tried', async () => {
    const { code, stderr } = await dpx(['resources'], { env: env(`${demo.region.baseUrl}/api`) });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: HTTP 404 Not Found/m);
    expect(stderr).toContain(baseUrlHint(`${demo.region.baseUrl}/api/`));
    expect(stderr).not.toMatch(/check the id/);
  });

  it('a closed port: nothing is listening there, in words, the code in brackets', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const { code, stderr } = await dpx(['resources'], { env: env(url) });
    expect(code).toBe(3);
    expect(stderr).toContain(`error: could not reach ${url}: nothing is listening at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(stderr).toContain(baseUrlHint(`${url}/`));
  });

  it('https to a server that speaks http: no TLS there (EPROTO)', async () => {
    const url = demo.region.baseUrl.replace('http://', 'https://');
    const { code, stderr } = await dpx(['--trust-origin', new URL(url).origin, 'resources'], { env: env(url) });
    expect(code).toBe(3);
    expect(stderr).toMatch(/^error: could not reach https:\/\/127\.0\.0\.1:\d+: .*does not speak TLS.* \(EPROTO\)$/m);
    expect(stderr).toContain(baseUrlHint(`${url}/`));
  });

  it('an HTML page where the index should be', async () => {
    const { code, stderr } = await dpx(['--trust-origin', html.baseUrl, 'resources'], { env: env(html.baseUrl) });
    expect(code).toBe(3);
    expect(stderr).toContain(baseUrlHint(`${html.baseUrl}/`));
  });

  it('a host no name server knows (ENOTFOUND)', async () => {
    const url = 'http://no-such-host.invalid';
    const { code, stderr } = await dpx(['--trust-origin', url, 'resources'], { env: env(url) });
    expect(code).toBe(3);
    expect(stderr).toContain(`error: could not reach ${url}: no host is named no-such-host.invalid (ENOTFOUND)`);
    expect(stderr).toContain(baseUrlHint(`${url}/`));
  });
});

describe('a token file that is not there', () => {
  it('is said in words, the code in brackets', async () => {
    const { code, stderr } = await dpx(['--token-file', '/nonexistent/dpx.token', 'resources'], {
      env: { DPX_BASE_URL: demo.region.baseUrl },
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'error: cannot read the token file /nonexistent/dpx.token: there is no such file (ENOENT)',
    );
  });
});

describe('a unit name that names no unit', () => {
  it('offers the unit it is the start of, and uses none', async () => {
    const { code, stdout, stderr } = await dpx(['list', 'tasks', '--ou', 'Acme'], { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('error: --ou Acme: no unit has that id, name or path');
    expect(stderr).toMatch(/^hint: did you mean "Global \/ Acme Corp"\? give its id/m);
  });

  it('offers a close name, in a count over units too', async () => {
    const { code, stdout, stderr } = await dpx(['count', 'tasks', '--ou', 'Globex Healht'], { env: env() });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^hint: did you mean "Global \/ Globex Health"\?/m);
  });
});
