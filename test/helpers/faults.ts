// A small control plane on 127.0.0.1 that misbehaves on purpose: one resource (`things`) whose index
// and pages are healthy unless a fault is installed for the index, the list or both. Each fault is a
// plain function over node:http's response and socket, so a test reads as "the server did X".
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultRequest {
  url: URL;
  /** 1-based count of requests this route has received, this one included. */
  count: number;
  /** The page number asked for (`start`), 1 when none. */
  page: number;
}

/** Answers one request, however badly. */
export type Fault = (response: ServerResponse, request: FaultRequest, raw: IncomingMessage) => void;

export interface FaultServerOptions {
  /** How the discovery index is answered; healthy when absent. */
  index?: Fault;
  /** How list pages are answered; healthy pages over `items` things when absent. */
  list?: Fault;
  /** Things in the healthy list. */
  items?: number;
  /** Things per healthy page (the `limit` asked for wins). */
  pageSize?: number;
}

export interface FaultServer {
  baseUrl: string;
  /** Requests received per route: 'index', 'list', 'other'. */
  requests: { index: number; list: number; other: number };
  close(): Promise<void>;
}

export const RESOURCE = 'things';
const VENDOR = 'service';
export const MEDIA_TYPE = `application/api.${VENDOR}.${RESOURCE}=v1+json`;

export function indexBody(): unknown {
  return {
    [RESOURCE]: {
      supported_versions: ['v1'],
      v1: {
        [`list_${RESOURCE}`]: { href: `/${RESOURCE}{?limit,start}`, type: 'get', templated: true },
        [`read_${RESOURCE}`]: { href: `/${RESOURCE}/{id}`, type: 'get', templated: true },
      },
    },
  };
}

export function thing(index: number): Record<string, unknown> {
  return {
    id: `thing-${index}`,
    name: `Thing ${index}`,
    state: index % 7 === 0 ? 'failed' : 'ok',
    _links: { self: { href: `/${RESOURCE}/thing-${index}` } },
  };
}

/** A list envelope: `items` on page `page` of `pages`, with next/prev links unless overridden. */
export function pageBody(items: unknown[], page: number, pages: number, links: Record<string, unknown> = {}): unknown {
  const own: Record<string, unknown> = { self: { href: `/${RESOURCE}?start=${page}` } };
  if (page < pages) own['next'] = { href: `/${RESOURCE}?start=${page + 1}` };
  if (page > 1) own['prev'] = { href: `/${RESOURCE}?start=${page - 1}` };
  return {
    current_count: items.length,
    total_pages_count: pages,
    start: page,
    _embedded: { items },
    _links: { ...own, ...links },
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': MEDIA_TYPE, 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const requests = { index: 0, list: 0, other: 0 };
  const total = options.items ?? 25;
  const healthyList: Fault = (response, request) => {
    const size = Number(request.url.searchParams.get('limit') ?? options.pageSize ?? 10);
    const pages = Math.max(1, Math.ceil(total / size));
    const first = (request.page - 1) * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - first)) }, (_, i) => thing(first + i));
    sendJson(response, 200, pageBody(items, request.page, pages));
  };
  const healthyIndex: Fault = (response) =>
    sendJson(response, 200, indexBody(), { 'content-type': 'application/json' });

  const server = createServer((raw, response) => {
    const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
    const page = Number(url.searchParams.get('start') ?? 1) || 1;
    if (url.pathname === '/') {
      requests.index += 1;
      (options.index ?? healthyIndex)(response, { url, count: requests.index, page }, raw);
    } else if (url.pathname === `/${RESOURCE}`) {
      requests.list += 1;
      (options.list ?? healthyList)(response, { url, count: requests.list, page }, raw);
    } else {
      requests.other += 1;
      sendJson(response, 404, { errors: [{ error_code: 'not_found', error_message: `nothing at ${url.pathname}` }] });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---- the faults ----

/** Declares more bytes than it sends, sends half of a page, then drops the connection. */
export const cutBody: Fault = (response) => {
  const text = JSON.stringify(pageBody([thing(1), thing(2), thing(3)], 1, 1));
  response.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': Buffer.byteLength(text) * 2 });
  response.write(text.slice(0, Math.floor(text.length / 2)));
  setTimeout(() => response.socket?.destroy(), 20);
};

/** Headers at once, then one byte of a valid page every `intervalMs`, for far longer than any timeout here. */
export function slowDrip(intervalMs = 200): Fault {
  return (response) => {
    const text = JSON.stringify(pageBody([thing(1)], 1, 1));
    response.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': Buffer.byteLength(text) });
    let at = 0;
    const timer = setInterval(() => {
      if (at >= text.length || response.destroyed) {
        clearInterval(timer);
        response.end();
        return;
      }
      response.write(text[at]);
      at += 1;
    }, intervalMs);
    response.on('close', () => clearInterval(timer));
  };
}

/** Accepts the request and never answers (the server's close ends it). */
export const noResponse: Fault = () => undefined;

/** Resets the TCP connection (RST) without a byte of response. */
export const connectionReset: Fault = (response) => {
  response.socket?.resetAndDestroy();
};

/** Always the same status, with the errors envelope and any extra headers. */
export function status(code: number, headers: Record<string, string> = {}): Fault {
  return (response) =>
    sendJson(
      response,
      code,
      { errors: [{ error_code: `status_${code}`, error_message: `the server says ${code}` }] },
      { 'content-type': 'application/json', ...headers },
    );
}

/** Pages 1 → 2 → 3 → 1 by their next links. */
export const nextCycle: Fault = (response, request) => {
  const page = ((request.page - 1) % 3) + 1;
  sendJson(response, 200, pageBody([thing(page)], page, 3, { next: { href: `/${RESOURCE}?start=${(page % 3) + 1}` } }));
};

/** One page of about `megabytes` MB, in things with long descriptions. */
export function hugePage(megabytes: number): Fault {
  return (response) => {
    const description = 'x'.repeat(1000);
    const count = Math.ceil((megabytes * 1024 * 1024) / 1100);
    const items = Array.from({ length: count }, (_, i) => ({ ...thing(i), description }));
    sendJson(response, 200, pageBody(items, 1, 1));
  };
}

/** A page whose item name holds bytes that are not UTF-8 (inside a JSON string, so the JSON stays valid). */
export const invalidUtf8InString: Fault = (response) => {
  const text = JSON.stringify(pageBody([{ ...thing(1), name: '@@' }], 1, 1));
  const [before, after] = text.split('@@') as [string, string];
  const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(after)]);
  response.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': bytes.length });
  response.end(bytes);
};

/** A body of bytes that are neither UTF-8 nor JSON. */
export const binaryGarbage: Fault = (response) => {
  const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28, 0x80, 0x81, 0x0a, 0x7d]);
  response.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': bytes.length });
  response.end(bytes);
};

/** A page whose one item nests `depth` levels of objects. */
export function deepJson(depth: number): Fault {
  return (response) => {
    const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const envelope = JSON.stringify(pageBody([{ ...thing(1), deep: '@@' }], 1, 1));
    const text = envelope.replace('"@@"', nested);
    response.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': Buffer.byteLength(text) });
    response.end(text);
  };
}
