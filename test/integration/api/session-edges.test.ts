// The session and page walk against small real servers: the edge cases a real control plane (or the
// proxy in front of it) can produce, which the demo does not.
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CancelledError, ProtocolError, SafetyError, TransportError } from '../../../src/api/errors.js';
import type { Exchange } from '../../../src/api/exchange.js';
import { listRequest, walkPages } from '../../../src/api/session/pages.js';
import type { Page } from '../../../src/api/session/page.js';
import { linkUrl } from '../../../src/api/hal/links.js';
import { MAX_JSON_DEPTH } from '../../../src/api/wire/response.js';
import { Session } from '../../../src/api/session/session.js';
import { miniApi, sendJson, startServer, type TestServer } from '../../helpers/servers.js';

const TOKEN = 'header.payload.signature-for-tests';
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function session(server: TestServer, options: Partial<ConstructorParameters<typeof Session>[0]> = {}): Session {
  return new Session({ baseUrl: server.baseUrl, token: TOKEN, retryBaseDelayMs: 1, ...options });
}

function getRequest(server: TestServer, path: string) {
  return {
    method: 'GET',
    url: `${server.baseUrl}${path}`,
    headers: { accept: 'application/json' },
    resource: '',
    version: '',
    operationId: '',
  };
}

async function collect(pages: AsyncGenerator<Page>): Promise<{ pages: Page[]; error?: unknown }> {
  const seen: Page[] = [];
  try {
    for await (const page of pages) seen.push(page);
  } catch (error) {
    return { pages: seen, error };
  }
  return { pages: seen };
}

const envelope = (items: unknown[], links: Record<string, unknown>) => ({
  _embedded: { items },
  _links: links,
  current_count: items.length,
});

describe('the token stays with its origin', () => {
  it('a next link to another origin stops the walk with SafetyError and the other server gets nothing', async () => {
    const other = await serve((_request, response) => sendJson(response, 200, envelope([{ id: 'stolen' }], {})));
    const home = await serve((request, response) => {
      if (request.url.startsWith('/list'))
        sendJson(response, 200, envelope([{ id: 'a' }], { next: { href: `${other.baseUrl}/list?start=2` } }));
      else sendJson(response, 404, {});
    });
    const result = await collect(walkPages(session(home), getRequest(home, '/list')));
    expect(result.pages.map((page) => page.items)).toEqual([[{ id: 'a' }]]);
    expect(result.error).toBeInstanceOf(SafetyError);
    expect((result.error as SafetyError).message).toContain(new URL(other.baseUrl).origin);
    expect(other.requests).toEqual([]);
    expect(home.requests[0]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
  });

  it('a redirect to another origin is refused before anything is sent there', async () => {
    const other = await serve((_request, response) => sendJson(response, 200, {}));
    const home = await serve((_request, response) => {
      response.writeHead(302, { location: `${other.baseUrl}/elsewhere` });
      response.end();
    });
    await expect(session(home).send(getRequest(home, '/moved'))).rejects.toBeInstanceOf(SafetyError);
    expect(other.requests).toEqual([]);
  });

  it('a same-origin redirect is followed', async () => {
    const home = await serve((request, response) => {
      if (request.url === '/old') {
        response.writeHead(301, { location: '/new' });
        response.end();
      } else sendJson(response, 200, { at: request.url });
    });
    expect((await session(home).send(getRequest(home, '/old'))).body).toEqual({ at: '/new' });
  });
});

describe('links the server breaks', () => {
  it('a next link no URL can be made of is a ProtocolError naming it, after the page that held it', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, envelope([{ id: 'a' }], { next: { href: 'http://[' } })),
    );
    const result = await collect(walkPages(session(server), getRequest(server, '/list')));
    expect(result.pages.map((page) => page.items)).toEqual([[{ id: 'a' }]]);
    expect(result.error).toBeInstanceOf(ProtocolError);
    expect((result.error as ProtocolError).exitCode).toBe(3);
    expect((result.error as ProtocolError).message).toContain('"http://["');
  });

  it('a redirect to a Location no URL can be made of is a ProtocolError', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: 'http://[' });
      response.end();
    });
    await expect(session(server).send(getRequest(server, '/moved'))).rejects.toThrow(ProtocolError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('page walks', () => {
  it('a cyclic next link is a ProtocolError after each page was read once', async () => {
    const server = await serve((request, response) => {
      const next = request.url === '/list?p=1' ? '/list?p=2' : '/list?p=1';
      sendJson(response, 200, envelope([{ id: request.url }], { next: { href: next } }));
    });
    const result = await collect(walkPages(session(server), getRequest(server, '/list?p=1')));
    expect(result.pages).toHaveLength(2);
    expect(result.error).toBeInstanceOf(ProtocolError);
    expect(server.requests.map((request) => request.url)).toEqual(['/list?p=1', '/list?p=2']);
  });

  it('a next link back to the first page, asked for without its page parameter, is caught by its self link before it is read twice', async () => {
    const server = await serve((request, response) => {
      const start = Number(new URL(request.url, 'http://x').searchParams.get('start') ?? '1');
      const next = start === 3 ? '/list?start=1&limit=2' : `/list?start=${start + 1}&limit=2`;
      sendJson(
        response,
        200,
        envelope([{ id: start }], { self: { href: `/list?start=${start}&limit=2` }, next: { href: next } }),
      );
    });
    const result = await collect(walkPages(session(server), getRequest(server, '/list?limit=2')));
    expect(result.pages.map((page) => page.items)).toEqual([[{ id: 1 }], [{ id: 2 }], [{ id: 3 }]]);
    expect(result.error).toBeInstanceOf(ProtocolError);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/list?limit=2',
      '/list?start=2&limit=2',
      '/list?start=3&limit=2',
    ]);
  });

  it('a next link that names a page already read with its query in another order, or with a fragment, is a cycle', async () => {
    const server = await serve((request, response) => {
      const next = request.url === '/list?a=1&b=2' ? '/list?b=2&c=3' : '/list?c=3&b=2#again';
      sendJson(response, 200, envelope([{ id: request.url }], { next: { href: next } }));
    });
    const result = await collect(walkPages(session(server), getRequest(server, '/list?a=1&b=2')));
    expect(result.pages).toHaveLength(2);
    expect(result.error).toBeInstanceOf(ProtocolError);
    expect(server.requests.map((request) => request.url)).toEqual(['/list?a=1&b=2', '/list?b=2&c=3']);
  });

  it('asks for the next page while the consumer still holds this one, and for none after the consumer stops', async () => {
    const server = await serve((request, response) => {
      const n = Number(new URL(request.url, 'http://h').searchParams.get('p'));
      sendJson(response, 200, envelope([{ n }], { next: { href: `/list?p=${n + 1}` } }));
    });
    const walk = walkPages(session(server), getRequest(server, '/list?p=1'));
    for await (const page of walk) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.requests.map((request) => request.url)).toEqual(['/list?p=1', '/list?p=2']);
      expect(page.items).toEqual([{ n: 1 }]);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toHaveLength(2);
  });

  it('stops at the page cap and at the item cap', async () => {
    const server = await serve((request, response) => {
      const n = Number(new URL(request.url, 'http://h').searchParams.get('p'));
      sendJson(response, 200, envelope([{ n }, { n: n + 0.5 }], { next: { href: `/list?p=${n + 1}` } }));
    });
    const capped = await collect(walkPages(session(server), getRequest(server, '/list?p=1'), { maxPages: 3 }));
    expect(capped.pages).toHaveLength(3);
    expect(capped.pages[2]!.warnings).toContain('stopped after 3 pages (the page cap)');
    const items = await collect(walkPages(session(server), getRequest(server, '/list?p=1'), { maxItems: 3 }));
    expect(items.pages.flatMap((page) => page.items)).toEqual([{ n: 1 }, { n: 1.5 }, { n: 2 }]);
  });
});

describe('the exchange for the trail', () => {
  it('records the request headers as they reached the server, Authorization included', async () => {
    const exchanges: Exchange[] = [];
    const server = await serve((_request, response) => sendJson(response, 201, {}));
    const client = session(server, {
      ou: 'ou-7',
      ouHeader: 'x-ou',
      onExchange: (exchange) => exchanges.push(exchange),
    });
    await client.send({
      ...getRequest(server, '/x'),
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'x-ou': 'ou-7' },
      body: '{}',
    });
    const recorded = exchanges[0]!.request.headers;
    expect(recorded).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'user-agent': expect.stringMatching(/^dpx\//),
      accept: 'application/json',
      'content-type': 'application/json',
      'x-ou': 'ou-7',
    });
    for (const [name, value] of Object.entries(recorded)) expect(server.requests[0]!.headers[name], name).toBe(value);
  });

  it('records them for a request that got no answer too', async () => {
    const exchanges: Exchange[] = [];
    const server = await serve(() => undefined);
    await session(server, { timeoutMs: 200, maxRetries: 0, onExchange: (exchange) => exchanges.push(exchange) })
      .send(getRequest(server, '/x'))
      .catch(() => undefined);
    expect(exchanges[0]!.error).toBeDefined();
    expect(exchanges[0]!.request.headers['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${TOKEN}`);
  });
});

describe('retries', () => {
  it('a 429 with Retry-After, then success: the GET is retried and succeeds', async () => {
    const exchanges: Exchange[] = [];
    const server = await serve((request, response) => {
      if (server.requests.length === 1)
        sendJson(
          response,
          429,
          { errors: [{ error_code: 'rate_limited', error_message: 'slow down' }] },
          { 'retry-after': '0' },
        );
      else sendJson(response, 200, { ok: request.url });
    });
    const response = await session(server, { onExchange: (exchange) => exchanges.push(exchange) }).send(
      getRequest(server, '/x'),
    );
    expect(response.body).toEqual({ ok: '/x' });
    expect(exchanges.map((exchange) => exchange.response?.status)).toEqual([429, 200]);
  });

  it('writes are never retried', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { errors: [{ error_code: 'busy', error_message: 'try later' }] }),
    );
    const error = await session(server)
      .send({ ...getRequest(server, '/x'), method: 'POST', body: '{}' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('reads are retried a capped number of times, then fail with the last status', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { errors: [{ error_code: 'busy', error_message: 'try later' }] }),
    );
    const error = await session(server, { maxRetries: 2 })
      .send(getRequest(server, '/x'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it('a Retry-After beyond the wait cap is not waited for', async () => {
    const server = await serve((_request, response) =>
      sendJson(
        response,
        429,
        { errors: [{ error_code: 'rate_limited', error_message: 'later' }] },
        { 'retry-after': '3600' },
      ),
    );
    const error = await session(server)
      .send(getRequest(server, '/x'))
      .catch((e: unknown) => e);
    expect((error as ApiError).retryAfterSeconds).toBe(3600);
    expect((error as ApiError).hint).toContain('3600 s');
    expect(server.requests).toHaveLength(1);
  });

  it('a connection reset on a GET is retried', async () => {
    const server = await serve((_request, response) => {
      if (server.requests.length === 1) response.socket?.destroy();
      else sendJson(response, 200, { ok: true });
    });
    expect((await session(server).send(getRequest(server, '/x'))).body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });
});

describe('failures become typed errors', () => {
  it('an HTML 502 page from a proxy is summarised in one line, never dumped', async () => {
    const html =
      '<html><head><title>502 Bad Gateway — upstream unavailable at the edge proxy tonight</title></head>' +
      `<body>${'<p>noise</p>'.repeat(500)}</body></html>`;
    const server = await serve((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    });
    const error = (await session(server, { maxRetries: 0 })
      .send(getRequest(server, '/x'))
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('HTTP 502 Bad Gateway: text/html body: "502 Bad Gateway — upstream unavailable at the"');
    expect(error.message).not.toContain('noise');
    expect(error.errors).toEqual([]);
  });

  it('a 2xx body that is not JSON is a ProtocolError', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><title>Sign in</title></html>');
    });
    await expect(session(server).send(getRequest(server, '/x'))).rejects.toThrow(ProtocolError);
    const broken = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"truncated":');
    });
    await expect(session(broken).send(getRequest(broken, '/x'))).rejects.toThrow(/not valid JSON/);
  });

  it('a body over the cap is a ProtocolError', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`[${'1,'.repeat(50_000)}`);
      response.end('1]');
    });
    await expect(session(server, { maxBodyBytes: 10_000 }).send(getRequest(server, '/x'))).rejects.toThrow(
      /larger than 10 KB/,
    );
  });

  it('a body nested deeper than the bound is a ProtocolError on success, and leaves an error status an ApiError', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const server = await serve((request, response) => {
      const [status, depth] =
        request.url === '/fine'
          ? [200, MAX_JSON_DEPTH]
          : request.url === '/deep'
            ? [200, MAX_JSON_DEPTH + 1]
            : [500, 10_000];
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(nested(depth));
    });
    const client = session(server, { maxRetries: 0 });
    expect((await client.send(getRequest(server, '/fine'))).text).toBe(nested(MAX_JSON_DEPTH));
    await expect(client.send(getRequest(server, '/deep'))).rejects.toThrow(
      new RegExp(`^the response to GET \\S+/deep nests deeper than ${MAX_JSON_DEPTH} levels$`),
    );
    const failure = await client.send(getRequest(server, '/failing')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(500);
    expect((failure as ApiError).message).toMatch(/^HTTP 500/);
  });

  it('no answer within the timeout is a TransportError', async () => {
    const server = await serve(() => undefined);
    const error = await session(server, { timeoutMs: 200, maxRetries: 0 })
      .send(getRequest(server, '/x'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toContain('within 0.2 s');
  });

  it('a timeout under a tenth of a second is named in ms, not as 0 s', async () => {
    const server = await serve(() => undefined);
    const error = await session(server, { timeoutMs: 40, maxRetries: 0 })
      .send(getRequest(server, '/x'))
      .catch((e: unknown) => e);
    expect((error as TransportError).message).toMatch(/within 40 ms$/);
  });

  it('cancelling a request on the wire closes its connection, and the server sees it go', async () => {
    let closedAt: number | undefined;
    const server = await serve((_request, response) => {
      response.socket?.once('close', () => {
        closedAt = performance.now();
      });
    });
    const stop = new AbortController();
    const sending = session(server, { maxRetries: 0 })
      .send(getRequest(server, '/held'), { signal: stop.signal })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    const cancelledAt = performance.now();
    stop.abort();
    const error = await sending;
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toMatch(/^cancelled: GET /);
    await vi.waitFor(() => expect(closedAt).toBeDefined());
    expect(closedAt! - cancelledAt).toBeLessThan(1_000);
  });

  it('a run stopped while the discovery index is read keeps its own hint, not "check the base URL"', async () => {
    const server = await serve(() => undefined);
    const stop = new AbortController();
    const reading = session(server, { maxRetries: 0, stop: stop.signal })
      .catalog()
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    stop.abort();
    const error = await reading;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).message).toMatch(/^cancelled: GET /);
    expect((error as CancelledError).hint).toBe('the request was cancelled before it finished');
  });

  it('an index read not sent because the run was already stopped says so, not "check the base URL"', async () => {
    const server = await serve(() => undefined);
    const stop = new AbortController();
    stop.abort();
    const error = await session(server, { stop: stop.signal })
      .catalog()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).message).toMatch(/^not sent: GET /);
    expect((error as CancelledError).hint).toBe('the run was interrupted; nothing more is sent');
    expect(server.requests).toHaveLength(0);
  });

  it('the timeout closes the connection of a request that got no answer', async () => {
    let closed = false;
    const server = await serve((_request, response) => {
      response.socket?.once('close', () => {
        closed = true;
      });
    });
    const error = await session(server, { timeoutMs: 200, maxRetries: 0 })
      .send(getRequest(server, '/x'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it('a host that never completes the connection is given up on at the timeout, not at the connect timeout', async () => {
    // A server whose process is stopped accepts nothing: once its backlog is full, the kernel drops
    // further connection attempts and they stay pending.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "const s = require('net').createServer(); s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log(s.address().port))",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const fillers: Socket[] = [];
    try {
      const port = await new Promise<number>((resolve) =>
        child.stdout.once('data', (data) => resolve(Number(String(data).trim()))),
      );
      child.kill('SIGSTOP');
      for (let i = 0; i < 4; i += 1) fillers.push(connect(port, '127.0.0.1').on('error', () => undefined));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      const error = await new Session({
        baseUrl: `http://127.0.0.1:${port}`,
        token: TOKEN,
        timeoutMs: 300,
        maxRetries: 0,
      })
        .send({
          method: 'GET',
          url: `http://127.0.0.1:${port}/x`,
          headers: {},
          resource: '',
          version: '',
          operationId: '',
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).message).toContain('within 0.3 s');
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      for (const filler of fillers) filler.destroy();
      child.kill('SIGKILL');
    }
  });

  it('a refused connection is a TransportError', async () => {
    const server = await serve(() => undefined);
    const closed = session(server);
    await server.close();
    servers = [];
    await expect(closed.send(getRequest(server, '/x'))).rejects.toBeInstanceOf(TransportError);
  });
});

describe('session manners', () => {
  it('sends its User-Agent, captures deprecation warnings without printing them', async () => {
    const warn = vi.spyOn(console, 'warn');
    const warnings: string[] = [];
    const server = await serve((_request, response) =>
      sendJson(response, 200, {}, { deprecation: 'true', sunset: 'Wed, 01 Jan 2031 00:00:00 GMT' }),
    );
    await session(server, { onWarning: (message) => warnings.push(message) }).send(getRequest(server, '/old-thing'));
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^dpx\/\d+\.\d+\.\d+/);
    expect(warnings).toEqual(['/old-thing is deprecated; it stops responding Wed, 01 Jan 2031 00:00:00 GMT']);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('refuses writes in read-only mode before sending anything', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, {}));
    const exchanges: Exchange[] = [];
    const readOnly = session(server, { readOnly: true, onExchange: (exchange) => exchanges.push(exchange) });
    await expect(readOnly.send({ ...getRequest(server, '/x'), method: 'DELETE' })).rejects.toBeInstanceOf(SafetyError);
    expect(server.requests).toEqual([]);
    expect(exchanges[0]!.error).toContain('read-only');
  });

  it('answers a GET seen within the freshness window from memory, unless reload is asked', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, { n: server.requests.length }));
    const fresh = session(server);
    const request = getRequest(server, '/x');
    expect((await fresh.send(request)).body).toEqual({ n: 1 });
    expect((await fresh.send(request)).body).toEqual({ n: 1 });
    expect((await fresh.send(request, { reload: true })).body).toEqual({ n: 2 });
    expect((await fresh.send({ ...request, headers: { accept: 'application/other+json' } })).body).toEqual({ n: 3 });
    expect(fresh.stats.requests).toBe(3);
    expect(fresh.stats.lastLatencyMs).toBeGreaterThan(0);
    const stale = session(server, { freshnessMs: 0 });
    await stale.send(request);
    await stale.send(request);
    expect(stale.stats.requests).toBe(2);
  });
});

describe('a control plane with other conventions', () => {
  it('learns the vendor, reads versions by number, and pages with its own parameter names and opaque tokens', async () => {
    const server = await serve(
      miniApi({
        vendor: 'acme',
        resource: 'gadgets',
        items: 23,
        versions: ['v1', 'v2', 'v10'],
        params: { pageSize: 'page_size', page: 'page', filter: 'q' },
        opaquePages: true,
      }),
    );
    const acme = session(server);
    const catalog = await acme.catalog();
    expect(acme.vendor).toBe('acme');
    expect(acme.ouHeader).toBe('x-acme-organizationalunit-context');
    expect(catalog.resources[0]!.defaultVersion).toBe('v10');
    const first = await listRequest(acme, { resource: 'gadgets', pageSize: 5, filter: 'x' });
    expect(new URL(first.url).search).toBe('?page_size=5&q=x');
    expect(first.headers['accept']).toBe('application/api.acme.gadgets=v10+json');
    const result = await collect(walkPages(acme, first));
    expect(result.error).toBeUndefined();
    expect(result.pages.flatMap((page) => page.items).map((item) => item['id'])).toEqual(
      Array.from({ length: 23 }, (_, i) => `item-${i}`),
    );
    const previous = new URL(linkUrl(result.pages[1]!.links.get('prev')!, acme.baseUrl));
    expect(Buffer.from(previous.searchParams.get('page')!, 'base64url').toString()).toBe('offset:0');
  });

  it('appends limit, start and filter to a plain list href', async () => {
    const server = await serve(
      miniApi({
        vendor: 'other',
        resource: 'things',
        items: 12,
        versions: ['v1'],
        params: { pageSize: 'limit', page: 'start', filter: 'filter' },
        plainListHref: true,
      }),
    );
    const other = session(server);
    const first = await listRequest(other, { resource: 'things', pageSize: 5, page: '2', filter: '{"a":1}' });
    expect(first.url).toBe(`${server.baseUrl}/things?limit=5&start=2&filter=%7B%22a%22%3A1%7D`);
    const result = await collect(walkPages(other, first));
    expect(result.pages.flatMap((page) => page.items).map((item) => item['id'])).toEqual([
      'item-5',
      'item-6',
      'item-7',
      'item-8',
      'item-9',
      'item-10',
      'item-11',
    ]);
  });
});
