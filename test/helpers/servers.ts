// Small real HTTP servers on 127.0.0.1 for the core's edge cases: another origin, cyclic links,
// rate limits, proxy error pages, and a control plane whose conventions differ from the demo's.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the request arrived (performance.now() of the test process); servers of their own may leave it out. */
  at?: number;
}

export interface TestServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: RecordedRequest, response: ServerResponse, server: TestServer) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at,
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, handle)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const handle: TestServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return handle;
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export interface MiniApiOptions {
  vendor: string;
  resource: string;
  items: number;
  /** Names of the list's query parameters, in the template unless `plainListHref`. */
  params: { pageSize: string; page: string; filter: string };
  plainListHref?: boolean;
  /** Page values as opaque tokens instead of page numbers. */
  opaquePages?: boolean;
  /** supported_versions as the index lists them; the newest by number is the one served. */
  versions: string[];
}

/**
 * A control plane with other conventions than the demo's: its own vendor token, parameter names,
 * version order and page tokens. Serves the index and one list, with HAL links built from its own names.
 */
export function miniApi(options: MiniApiOptions): Handler {
  const newest = [...options.versions].sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)))[0]!;
  const listPath = `/${options.resource}`;
  const { pageSize, page, filter } = options.params;
  const encode = (index: number): string =>
    options.opaquePages ? Buffer.from(`offset:${index}`).toString('base64url') : String(index + 1);
  const decode = (value: string | null): number => {
    if (value === null) return 0;
    if (!options.opaquePages) return Number(value) - 1;
    return Number(Buffer.from(value, 'base64url').toString('utf8').replace('offset:', '')) / 1;
  };
  return (request, response, server) => {
    const url = new URL(request.url, server.baseUrl);
    if (url.pathname === '/') {
      const versions: Record<string, unknown> = { supported_versions: options.versions };
      for (const version of options.versions) {
        versions[version] = {
          [`list_${options.resource}`]: options.plainListHref
            ? { href: listPath, type: 'get', templated: false }
            : { href: `${listPath}{?${pageSize},${page},${filter}}`, type: 'get', templated: true },
          [`get_${options.resource}`]: { href: `${listPath}/{id}`, type: 'get', templated: true },
        };
      }
      sendJson(
        response,
        200,
        { [options.resource]: versions },
        { 'content-type': `application/api.${options.vendor}.*=v1+json` },
      );
      return;
    }
    if (url.pathname !== listPath) {
      sendJson(response, 404, { errors: [{ error_code: 'not_found', error_message: `nothing at ${url.pathname}` }] });
      return;
    }
    const accept = String(request.headers['accept'] ?? '');
    if (accept !== `application/api.${options.vendor}.${options.resource}=${newest}+json`) {
      sendJson(response, 406, { errors: [{ error_code: 'not_acceptable', error_message: `cannot serve ${accept}` }] });
      return;
    }
    const size = Number(url.searchParams.get(pageSize) ?? '10');
    const pageIndex = options.opaquePages
      ? decode(url.searchParams.get(page)) / size
      : decode(url.searchParams.get(page));
    const offset = pageIndex * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, options.items - offset)) }, (_, i) => ({
      id: `item-${offset + i}`,
      filter: url.searchParams.get(filter),
    }));
    const pages = Math.ceil(options.items / size);
    const pageValue = (index: number) => encode(options.opaquePages ? index * size : index);
    // Relative hrefs on purpose: the client resolves them against the page URL.
    const href = (index: number) =>
      `${options.resource}?${pageSize}=${size}&${page}=${encodeURIComponent(pageValue(index))}`;
    const links: Record<string, unknown> = {
      self: { href: href(pageIndex) },
      first: { href: href(0) },
      last: { href: href(pages - 1) },
    };
    if (pageIndex + 1 < pages) links['next'] = [{ href: href(pageIndex + 1) }];
    if (pageIndex > 0) links['previous'] = { href: href(pageIndex - 1) };
    sendJson(
      response,
      200,
      { _embedded: { items }, _links: links, current_count: items.length },
      { 'content-type': `application/api.${options.vendor}.${options.resource}=${newest}+json` },
    );
  };
}

/**
 * Another "control plane" a token must never reach: a TCP listener on 127.0.0.1 that counts the
 * connections made to it and answers none. Started before the file's tests, closed after them.
 */
export function useBareListener(): { readonly url: string; readonly connections: number } {
  let listener: NetServer | undefined;
  let url = '';
  let connections = 0;
  beforeAll(async () => {
    const started = createNetServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    listener = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(started.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener?.close(resolve));
  });
  return {
    get url() {
      return url;
    },
    get connections() {
      return connections;
    },
  };
}
