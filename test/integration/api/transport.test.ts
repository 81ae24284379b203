// The network transport against small real servers: compressed answers, kept-alive connections, and a
// control plane behind TLS — trusted, and not.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolError, TransportError } from '../../../src/api/errors.js';
import { Session } from '../../../src/api/session/session.js';
import { miniApi, startServer, type TestServer } from '../../helpers/servers.js';
import { temporaryFolder } from '../../helpers/temporary.js';

const TOKEN = 'header.payload.signature-for-tests';
const root = join(import.meta.dirname, '..', '..', '..');
const tls = join(root, 'test', 'fixtures', 'tls');
const CERT = join(tls, 'test-only-cert.pem');

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  closers.push(() => server.close());
  return server;
}

/** `server` listening on an ephemeral 127.0.0.1 port, closed after the test; its base URL. */
async function listening(server: Server, protocol: 'http' | 'https'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `${protocol}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const session = (baseUrl: string, options: Partial<ConstructorParameters<typeof Session>[0]> = {}) =>
  new Session({ baseUrl, token: TOKEN, ...options });
const get = (url: string) => ({
  method: 'GET',
  url,
  headers: { accept: 'application/json' },
  resource: '',
  version: '',
  operationId: '',
});

const RECORD = { id: 'a', name: 'kept whole', items: Array.from({ length: 200 }, (_, index) => index) };
const ENCODERS: Record<string, (body: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

describe('compressed answers', () => {
  it.each(Object.keys(ENCODERS))('asks for compression and reads a %s-encoded body', async (encoding) => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      response.end(ENCODERS[encoding]!(Buffer.from(JSON.stringify(RECORD))));
    });
    const answer = await session(server.baseUrl).send(get(`${server.baseUrl}/x`));
    expect(answer.body).toEqual(RECORD);
    expect(server.requests[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('refuses a body that decodes past the cap, though it was small on the wire', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(Buffer.from(`[${'0,'.repeat(100_000)}0]`)));
    });
    await expect(session(server.baseUrl, { maxBodyBytes: 10_000 }).send(get(`${server.baseUrl}/x`))).rejects.toThrow(
      /larger than 10 KB/,
    );
  });

  it('names a body that does not decode, and an encoding dpx does not read', async () => {
    const server = await serve((request, response) => {
      const encoding = request.url === '/damaged' ? 'gzip' : request.url === '/inherited' ? 'constructor' : 'zstd';
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      response.end('{"not": "compressed"}');
    });
    const damaged = await session(server.baseUrl)
      .send(get(`${server.baseUrl}/damaged`))
      .catch((error: unknown) => error);
    expect(damaged).toBeInstanceOf(ProtocolError);
    expect((damaged as ProtocolError).message).toMatch(/gzip-encoded, but it does not decode/);
    const unknown = await session(server.baseUrl)
      .send(get(`${server.baseUrl}/unknown`))
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).message).toMatch(/encoded as zstd, which dpx cannot read/);
    // A name every object inherits is no decoder either.
    const inherited = await session(server.baseUrl)
      .send(get(`${server.baseUrl}/inherited`))
      .catch((error: unknown) => error);
    expect((inherited as ProtocolError).message).toMatch(/encoded as constructor, which dpx cannot read/);
  });
});

describe('connections', () => {
  it('keeps one connection alive across requests that follow one another', async () => {
    let connections = 0;
    const server = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
    server.on('connection', () => {
      connections += 1;
    });
    const baseUrl = await listening(server, 'http');
    const requests = session(baseUrl);
    for (let i = 0; i < 5; i += 1) await requests.send(get(`${baseUrl}/x?i=${i}`));
    expect(connections).toBe(1);
  });
});

describe('a control plane behind TLS', () => {
  const bundle = join(root, 'dist', 'dpx.js');
  const run = promisify(execFile);

  beforeAll(async () => {
    await run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root });
  }, 120_000);

  async function httpsControlPlane(): Promise<string> {
    const handler = miniApi({
      vendor: 'acme',
      resource: 'widgets',
      items: 3,
      params: { pageSize: 'limit', page: 'start', filter: 'filter' },
      versions: ['v1'],
    });
    const server = createHttpsServer(
      { cert: readFileSync(CERT), key: readFileSync(join(tls, 'test-only-key.pem')) },
      (request, response) => {
        const recorded = {
          method: request.method ?? 'GET',
          url: request.url ?? '/',
          headers: request.headers,
          body: '',
        };
        void handler(recorded, response, { baseUrl, requests: [], close: async () => undefined });
      },
    );
    const baseUrl = await listening(server, 'https');
    return baseUrl;
  }

  async function dpxAt(
    baseUrl: string,
    extra: Record<string, string>,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const home = temporaryFolder('dpx-tls-');
    const env = {
      PATH: process.env['PATH'],
      DPX_CONFIG: join(home, 'config.json'),
      DPX_BASE_URL: baseUrl,
      DPX_TOKEN: TOKEN,
      XDG_CACHE_HOME: join(home, 'cache'),
      ...extra,
    };
    try {
      const { stdout, stderr } = await run(process.execPath, [bundle, 'resources', '--output', 'json'], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('is read over https when its certificate is trusted', async () => {
    const baseUrl = await httpsControlPlane();
    const result = await dpxAt(baseUrl, { NODE_EXTRA_CA_CERTS: CERT });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((resource: { name: string }) => resource.name)).toContain('widgets');
  });

  it('is refused with the certificate named and what to do, when it is not', async () => {
    const baseUrl = await httpsControlPlane();
    const result = await dpxAt(baseUrl, {});
    expect(result.code).toBe(new TransportError('', '').exitCode);
    expect(result.stderr).toMatch(
      /could not reach https:\/\/127\.0\.0\.1:\d+: its TLS certificate is self-signed, and not trusted here \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    expect(result.stderr).toMatch(/NODE_EXTRA_CA_CERTS/);
    expect(result.stderr).not.toContain(TOKEN);
  });
});
