// dpx behind a forward proxy, as curl goes through one: a real proxy (the `proxy` package) on
// 127.0.0.1 between dpx and the demo (http: requests in absolute form) or a TLS control plane (https:
// a CONNECT tunnel, kept alive). NO_PROXY goes around it, credentials in its URL are sent and shown
// nowhere, and a proxy that is down or refuses gets an error of its own.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../../src/api/session/session.js';
import { useDemo } from '../../helpers/demo.js';
import { miniApi } from '../../helpers/servers.js';
import { dpx, transcript } from './harness.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const demo = useDemo();
const root = join(import.meta.dirname, '..', '..', '..');
const tls = join(root, 'test', 'fixtures', 'tls');
const CERT = join(tls, 'test-only-cert.pem');
const TOKEN = 'header.payload.signature-for-proxy-tests';
const USER = 'dpx-user';
const PASSWORD = 'pr0xy-s3cret-pass';
const folder = temporaryFolder('dpx-proxy-');

interface Proxy {
  url: string;
  /** Requests it forwarded in absolute form (http), and the tunnels it was asked for (CONNECT). */
  forwarded: string[];
  tunnels: string[];
  /** Connections made to it. */
  connections: number;
  server: ProxyServer;
}

async function startProxy(credentials?: { user: string; password: string }): Promise<Proxy> {
  const server = createProxy(createHttpServer());
  const proxy: Proxy = { url: '', forwarded: [], tunnels: [], connections: 0, server };
  if (credentials) {
    const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
    server.authenticate = (request: IncomingMessage) => request.headers['proxy-authorization'] === expected;
  }
  server.prependListener('request', (request: IncomingMessage) =>
    proxy.forwarded.push(`${request.method} ${request.url}`),
  );
  server.prependListener('connect', (request: IncomingMessage) => proxy.tunnels.push(request.url ?? ''));
  server.on('connection', () => {
    proxy.connections += 1;
  });
  trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

function reset(proxy: Proxy): void {
  proxy.forwarded.length = 0;
  proxy.tunnels.length = 0;
  proxy.connections = 0;
}

/** The sockets each server was given: a tunnel (CONNECT) is one that closeAllConnections does not know of. */
const socketsOf = new WeakMap<Server, Set<Socket>>();

function trackSockets(server: Server): void {
  const sockets = new Set<Socket>();
  socketsOf.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
}

/** Closes at once: a tunnel a client keeps alive would otherwise hold the close for seconds. */
async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  for (const socket of socketsOf.get(server) ?? []) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
}

let open: Proxy;
let guarded: Proxy;
let tlsPlane: string;
let tlsServer: Server;
let silentTls: string;
let silentServer: Server;
let tlsRequests = 0;
const held: Socket[] = [];

beforeAll(async () => {
  open = await startProxy();
  guarded = await startProxy({ user: USER, password: PASSWORD });
  const handler = miniApi({
    vendor: 'acme',
    resource: 'widgets',
    items: 6,
    params: { pageSize: 'limit', page: 'start', filter: 'filter' },
    versions: ['v1'],
  });
  const certs = { cert: readFileSync(CERT), key: readFileSync(join(tls, 'test-only-key.pem')) };
  tlsServer = createHttpsServer(certs, (request, response) => {
    tlsRequests += 1;
    void handler(
      { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body: '' },
      response,
      { baseUrl: tlsPlane, requests: [], close: async () => undefined },
    );
  });
  trackSockets(tlsServer);
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  tlsPlane = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
  // Accepts the TLS connection and never answers.
  silentServer = createHttpsServer(certs, (request) => {
    held.push(request.socket);
  });
  trackSockets(silentServer);
  await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
  silentTls = `https://127.0.0.1:${(silentServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await Promise.all([close(open.server), close(guarded.server), close(tlsServer), close(silentServer)]);
  // No output of the file's runs holds the proxy's password, in any form, or the token.
  const encoded = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
  for (const text of transcript) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(encoded);
    expect(text).not.toContain(TOKEN);
  }
});

const demoEnv = (extra: NodeJS.ProcessEnv) => ({
  DPX_BASE_URL: demo.region.baseUrl,
  DPX_TOKEN: demo.region.tokens.personal,
  ...extra,
});
const tlsEnv = (extra: NodeJS.ProcessEnv) => ({ DPX_BASE_URL: tlsPlane, DPX_TOKEN: TOKEN, ...extra });
const demoOrigin = () => new URL(demo.region.baseUrl);

describe('HTTP_PROXY: an http control plane through the proxy', () => {
  it('sends every request through it, kept alive', async () => {
    reset(open);
    const before = demo.region.requestCount();
    const result = await dpx(['list', 'users', '--all', '--page-size', '10', '-o', 'json'], {
      env: demoEnv({ HTTP_PROXY: open.url }),
    });
    expect(result.code, result.stderr).toBe(0);
    const sent = demo.region.requestCount() - before;
    expect(sent).toBeGreaterThan(2);
    expect(open.forwarded).toHaveLength(sent);
    expect(open.forwarded.every((line) => line.startsWith(`GET ${demo.region.baseUrl}/`))).toBe(true);
    expect(open.connections).toBe(1);
  });

  it('keeps the limiter: connections to the proxy stay within the concurrency while many requests run', async () => {
    reset(open);
    const result = await dpx(['count', 'tasks', '--ou', 'all', '--concurrency', '3', '-o', 'json'], {
      env: demoEnv({ http_proxy: open.url }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(open.forwarded.length).toBeGreaterThan(6);
    expect(open.connections).toBeLessThanOrEqual(3);
  });
});

describe('HTTPS_PROXY: an https control plane through a tunnel', () => {
  it('reaches the TLS server through one CONNECT for every request, trusting --ca-file', async () => {
    reset(open);
    tlsRequests = 0;
    const result = await dpx(['--ca-file', CERT, 'list', 'widgets', '--all', '--page-size', '2', '-o', 'json'], {
      env: tlsEnv({ HTTPS_PROXY: open.url }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toHaveLength(6);
    expect(tlsRequests).toBe(4);
    expect(open.tunnels).toEqual([`127.0.0.1:${new URL(tlsPlane).port}`]);
    expect(open.forwarded).toEqual([]);
  });

  it('takes the proxy and the authority from the profile too', async () => {
    // A proxy of its own: the runs of this file share one process, and so the tunnels kept alive.
    const own = await startProxy();
    try {
      const config = join(folder, 'tls-profile.json');
      const added = await dpx(
        [
          'profile',
          'add',
          'tls',
          '--base-url',
          tlsPlane,
          '--token-env',
          'TLS_TOKEN',
          '--proxy',
          own.url,
          '--ca-file',
          CERT,
        ],
        { env: { DPX_CONFIG: config } },
      );
      expect(added.code, added.stderr).toBe(0);
      const result = await dpx(['resources', '-o', 'json'], { env: { DPX_CONFIG: config, TLS_TOKEN: TOKEN } });
      expect(result.code, result.stderr).toBe(0);
      expect(own.tunnels).toHaveLength(1);
    } finally {
      await close(own.server);
    }
  });

  it("--ca-file alone trusts the authority without a proxy, besides Node's own", async () => {
    const result = await dpx(['--ca-file', CERT, 'resources', '-o', 'json'], { env: tlsEnv({}) });
    expect(result.code, result.stderr).toBe(0);
    const missing = await dpx(['--ca-file', join(folder, 'nowhere.pem'), 'resources'], { env: tlsEnv({}) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: cannot read the certificate file .*nowhere\.pem \(--ca-file\): ENOENT$/m);
  });

  it('still refuses a certificate nothing trusts, through the tunnel', async () => {
    const result = await dpx(['resources'], { env: tlsEnv({ HTTPS_PROXY: open.url }) });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT/);
  });

  it('keeps the timeout: a control plane that never answers is given up on', async () => {
    const result = await dpx(['--ca-file', CERT, '--timeout', '0.5', 'resources'], {
      env: { DPX_BASE_URL: silentTls, DPX_TOKEN: TOKEN, HTTPS_PROXY: open.url },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: no answer from https:\/\/127\.0\.0\.1:\d+ within 0\.5 s$/m);
  });
});

describe('a session through a tunnel', () => {
  const get = (url: string) => ({
    method: 'GET',
    url,
    headers: { accept: 'application/json' },
    resource: '',
    version: '',
    operationId: '',
  });
  const through = (proxy: string, concurrency: number) =>
    new Session({
      baseUrl: tlsPlane,
      token: TOKEN,
      concurrency,
      network: { proxy, ca: [...rootCertificates, readFileSync(CERT, 'utf8')] },
    });

  it('opens no more tunnels than the requests it lets run at once', async () => {
    const own = await startProxy();
    try {
      const session = through(own.url, 2);
      await Promise.all(Array.from({ length: 10 }, (_, i) => session.send(get(`${tlsPlane}/?i=${i}`), { once: true })));
      expect(own.tunnels.length).toBeGreaterThanOrEqual(1);
      expect(own.tunnels.length).toBeLessThanOrEqual(2);
    } finally {
      await close(own.server);
    }
  });

  it('gives a request up at once when it is cancelled', async () => {
    const session = new Session({
      baseUrl: silentTls,
      token: TOKEN,
      network: { proxy: open.url, ca: [...rootCertificates, readFileSync(CERT, 'utf8')] },
    });
    const stop = new AbortController();
    const started = Date.now();
    const sent = session.send(get(`${silentTls}/`), { signal: stop.signal });
    setTimeout(() => stop.abort(), 200);
    await expect(sent).rejects.toThrow(/^cancelled: GET /);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('NO_PROXY', () => {
  it.each([['127.0.0.1'], ['*'], ['localhost, 127.0.0.1'], ['PORT']])(
    '%s sends the request around the proxy',
    async (entry) => {
      reset(open);
      const noProxy = entry === 'PORT' ? `127.0.0.1:${demoOrigin().port}` : entry;
      const result = await dpx(['resources', '-o', 'json'], {
        env: demoEnv({ HTTP_PROXY: open.url, NO_PROXY: noProxy }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(open.connections).toBe(0);
    },
  );

  it('of another port does not', async () => {
    reset(open);
    const result = await dpx(['resources', '-o', 'json'], {
      env: demoEnv({ HTTP_PROXY: open.url, no_proxy: '127.0.0.1:1' }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(open.forwarded.length).toBeGreaterThan(0);
  });
});

describe('--proxy', () => {
  it('wins over the environment, and "" means no proxy at all', async () => {
    const dead = 'http://127.0.0.1:1';
    reset(open);
    const through = await dpx(['--proxy', open.url, 'resources', '-o', 'json'], { env: demoEnv({ HTTP_PROXY: dead }) });
    expect(through.code, through.stderr).toBe(0);
    expect(open.forwarded.length).toBeGreaterThan(0);
    reset(open);
    const around = await dpx(['--proxy', '', 'resources', '-o', 'json'], { env: demoEnv({ HTTP_PROXY: open.url }) });
    expect(around.code, around.stderr).toBe(0);
    expect(open.connections).toBe(0);
  });
});

describe('proxy credentials', () => {
  it('are sent as Proxy-Authorization and accepted, over http and through a tunnel', async () => {
    const withCredentials = guarded.url.replace('http://', `http://${USER}:${PASSWORD}@`);
    const trail = join(folder, 'proxied.har');
    const plain = await dpx(['--trail', trail, 'resources', '-o', 'json'], {
      env: demoEnv({ HTTP_PROXY: withCredentials }),
    });
    expect(plain.code, plain.stderr).toBe(0);
    const tunnelled = await dpx(['--ca-file', CERT, 'resources', '-o', 'json'], {
      env: tlsEnv({ HTTPS_PROXY: withCredentials }),
    });
    expect(tunnelled.code, tunnelled.stderr).toBe(0);
    const recorded = readFileSync(trail, 'utf8');
    expect(recorded).not.toContain(PASSWORD);
    expect(recorded).not.toMatch(/proxy-authorization/i);
  });

  it("missing: the proxy's 407 is its own error, naming the proxy without credentials", async () => {
    const wrong = guarded.url.replace('http://', `http://${USER}:not-the-${PASSWORD}@`);
    for (const env of [demoEnv({ HTTP_PROXY: guarded.url }), tlsEnv({ HTTPS_PROXY: wrong })]) {
      const result = await dpx(['--ca-file', CERT, 'resources'], { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(new RegExp(`^error: the proxy ${guarded.url} refused the way to \\S+: 407`, 'm'));
      expect(result.stderr).toMatch(/^hint: the proxy asks for credentials/m);
      expect(result.stderr).not.toContain('not-the-');
    }
  });
});

describe('a proxy URL dpx cannot use', () => {
  it('from the environment is a usage error naming it without credentials, and nothing is sent', async () => {
    const before = demo.region.requestCount();
    const result = await dpx(['resources'], {
      env: demoEnv({ HTTP_PROXY: `socks5://${USER}:${PASSWORD}@127.0.0.1:1080` }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the proxy socks5:\/\/127\.0\.0\.1:1080 is not an http or https proxy URL$/m);
    expect(demo.region.requestCount()).toBe(before);
  });
});

describe('a dead proxy', () => {
  it('gets its own error, naming the proxy and not the control plane as unreachable', async () => {
    const closed = await startProxy();
    await close(closed.server);
    for (const env of [
      demoEnv({ HTTP_PROXY: closed.url.replace('http://', `http://${USER}:${PASSWORD}@`) }),
      tlsEnv({ HTTPS_PROXY: closed.url }),
    ]) {
      const result = await dpx(['--ca-file', CERT, 'resources'], { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: could not reach the proxy ${closed.url} \\(on the way to \\S+\\): nothing is listening at \\S+ \\(ECONNREFUSED\\)$`,
          'm',
        ),
      );
      expect(result.stderr).toMatch(/^hint: check the proxy's address/m);
    }
  });
});

describe('an https:// proxy', () => {
  const PROXY_CERT = join(tls, 'test-only-proxy-cert.pem');

  /** A real forward proxy served over TLS, with the given certificate and key. */
  async function startTlsProxy(cert: string, key: string): Promise<Proxy> {
    const server = createProxy(createHttpsServer({ cert: readFileSync(cert), key: readFileSync(key) }));
    const proxy: Proxy = { url: '', forwarded: [], tunnels: [], connections: 0, server };
    server.prependListener('request', (request: IncomingMessage) =>
      proxy.forwarded.push(`${request.method} ${request.url}`),
    );
    server.prependListener('connect', (request: IncomingMessage) => proxy.tunnels.push(request.url ?? ''));
    trackSockets(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return proxy;
  }

  it("checks the proxy's own certificate with --proxy-ca-file, the plane's with --ca-file", async () => {
    const own = await startTlsProxy(PROXY_CERT, join(tls, 'test-only-proxy-key.pem'));
    try {
      const tunnelled = await dpx(['--ca-file', CERT, '--proxy-ca-file', PROXY_CERT, 'resources', '-o', 'json'], {
        env: tlsEnv({ HTTPS_PROXY: own.url }),
      });
      expect(tunnelled.code, tunnelled.stderr).toBe(0);
      expect(own.tunnels).toEqual([`127.0.0.1:${new URL(tlsPlane).port}`]);
      const plain = await dpx(['--proxy-ca-file', PROXY_CERT, 'resources', '-o', 'json'], {
        env: demoEnv({ HTTP_PROXY: own.url }),
      });
      expect(plain.code, plain.stderr).toBe(0);
      expect(own.forwarded.length).toBeGreaterThan(0);
    } finally {
      await close(own.server);
    }
  });

  it("says whose certificate failed: the proxy's, or the control plane's behind it", async () => {
    const own = await startTlsProxy(PROXY_CERT, join(tls, 'test-only-proxy-key.pem'));
    try {
      for (const env of [tlsEnv({ HTTPS_PROXY: own.url }), demoEnv({ HTTP_PROXY: own.url })]) {
        const result = await dpx(['--ca-file', CERT, 'resources'], { env });
        expect(result.code).toBe(3);
        expect(result.stderr).toMatch(
          new RegExp(
            `^error: the proxy ${own.url}'s TLS certificate is not trusted \\(on the way to \\S+\\): \\w+`,
            'm',
          ),
        );
        expect(result.stderr).toMatch(
          /certificate is not trusted \(on the way to \S+\): its TLS certificate .* \([A-Z_]+\)$/m,
        );
        expect(result.stderr).toMatch(/^hint: .*--proxy-ca-file/m);
      }
      const plane = await dpx(['--proxy-ca-file', PROXY_CERT, 'resources'], { env: tlsEnv({ HTTPS_PROXY: own.url }) });
      expect(plane.code).toBe(3);
      expect(plane.stderr).toMatch(
        /^error: could not reach https:\/\/127\.0\.0\.1:\d+: .*\(DEPTH_ZERO_SELF_SIGNED_CERT\)$/m,
      );
      expect(plane.stderr).toMatch(/^hint: the control plane's TLS certificate is not trusted/m);
      expect(plane.stderr).not.toMatch(/the proxy .*certificate/);
    } finally {
      await close(own.server);
    }
  });

  it('is checked with the CA file when no --proxy-ca-file is given', async () => {
    const own = await startTlsProxy(CERT, join(tls, 'test-only-key.pem'));
    try {
      const result = await dpx(['--ca-file', CERT, 'resources', '-o', 'json'], {
        env: tlsEnv({ HTTPS_PROXY: own.url }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(own.tunnels).toHaveLength(1);
    } finally {
      await close(own.server);
    }
  });
});

describe('a proxy that answers 401 for its credentials (as tinyproxy does)', () => {
  let refusing: Server;
  let url: string;

  beforeAll(async () => {
    // Asks for credentials with 401 and Proxy-Authenticate, in the control plane's place (http) and to a CONNECT.
    refusing = createHttpServer((_request, response) => {
      response.writeHead(401, { 'proxy-authenticate': 'Basic realm="tinyproxy"', 'content-type': 'text/html' });
      response.end('<html><body>Unauthorized</body></html>');
    });
    refusing.on('connect', (_request: IncomingMessage, socket: Socket) => {
      socket.end(
        'HTTP/1.1 401 Unauthorized\r\nProxy-Authenticate: Basic realm="tinyproxy"\r\nContent-Length: 0\r\n\r\n',
      );
    });
    trackSockets(refusing);
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  });

  afterAll(async () => close(refusing));

  it("is named as the proxy's, never the token's, over http and over CONNECT", async () => {
    for (const env of [demoEnv({ HTTP_PROXY: url }), tlsEnv({ HTTPS_PROXY: url })]) {
      const result = await dpx(['--ca-file', CERT, 'resources'], { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(new RegExp(`^error: the proxy ${url} refused the way to \\S+: 401`, 'm'));
      expect(result.stderr).toMatch(/^hint: the proxy asks for credentials/m);
      expect(result.stderr).not.toMatch(/token/i);
    }
  });

  it("a control plane's own 401 through a proxy stays the token's", async () => {
    const result = await dpx(['resources'], {
      env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: 'not-a-token', HTTP_PROXY: open.url },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).not.toMatch(/the proxy/);
  });
});
