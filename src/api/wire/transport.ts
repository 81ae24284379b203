// The last step of a request's way out, and the network's own: Node's HTTP client over kept-alive
// connections, the body read within a limit and decoded. Offline, a trail stands in (offline.ts).
//
// Not fetch: Node 20's fetch (undici behind the WHATWG Request, Response and streams) costs 2.5× the CPU
// of node:http per request — a loop of 1,822 count requests took 2.0 s of CPU with fetch and 0.8 s with
// node:http — and loading it made a one-request process take 264 ms instead of 130 ms (21 paired runs).
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import type { Cancellable } from './cancellable.js';
import { ProtocolError } from '../errors.js';
import type { ExchangeRequest } from '../exchange.js';
import { isCertificateProblem } from './network-words.js';
import { trustOf, type Trust } from './trust.js';

/** What the session tells its transport about the request beyond the request itself. */
export interface TransportContext {
  /** The organizational-unit header's name, lower case. */
  ouHeader: string;
  /** How this attempt is given up on. */
  cancellable: Cancellable;
  /** Largest body read, as sent and as decoded; a bigger one is a ProtocolError. */
  maxBodyBytes: number;
  /** Tells whoever uses the session (a trail answering at another page size says so). */
  warn?: (message: string) => void;
}

/**
 * An answer as it came off the wire: headers by lower-case name, the body decoded to text. The network's
 * answers decode their text when it is first read: copy one with a getter, not by spreading it.
 */
export interface WireAnswer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  text: string;
  /** The decoded body's length in bytes. */
  size: number;
  /** The decoded body itself, for a reader that passes records through as sent; absent offline. */
  bytes?: Uint8Array;
}

/** The last step of a session's chain: by default the network, offline a trail. */
export type Transport = (request: ExchangeRequest, context: TransportContext) => Promise<WireAnswer>;

/** Encodings asked for, as fetch asked for them; each is one that `decode` reads. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * How long a kept-alive connection may sit unused: under the 5 s that Node's and many other servers
 * keep one, so that dpx rarely sends on a connection the server is just closing.
 */
const IDLE_CONNECTION_MS = 4_000;

interface Client {
  request: typeof httpRequest;
  agent: HttpAgent;
  /** The certificate authorities an https control plane is checked against, when not Node's own. */
  trust: Trust;
}

/**
 * How a session reaches its control plane beyond the defaults: a forward proxy (proxy.ts chooses it)
 * and the certificate authorities of --ca-file. Without either, every session shares the same agents.
 */
export interface Route {
  /** The proxy's URL, its credentials (if any) in it. */
  proxy?: string;
  /** PEM texts of the authorities to trust: Node's own and NODE_EXTRA_CA_CERTS' included. */
  ca?: string[];
  /** The authorities an https:// proxy's own certificate is checked against: else `ca`, else Node's. */
  proxyCa?: string[];
}

/** The agents of one route, made on first use: https (and with it TLS) only for a plane that needs it. */
class Clients {
  private plain: Client | Promise<Client> | undefined;
  private secure: Promise<Client> | undefined;

  constructor(private readonly route: Route) {}

  for(url: string): Client | Promise<Client> {
    if (/^https:/i.test(url)) {
      this.secure ??= this.make('https');
      return this.secure;
    }
    const { proxy } = this.route;
    if (proxy === undefined)
      this.plain ??= {
        request: httpRequest,
        agent: new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
        trust: {},
      };
    else this.plain ??= this.make('http');
    return this.plain;
  }

  private async make(scheme: 'http' | 'https'): Promise<Client> {
    const { proxy, ca, proxyCa } = this.route;
    const request = scheme === 'https' ? (await import('node:https')).request : httpRequest;
    // An http plane's requests check no certificate: its route's authorities serve only an https proxy.
    const trust = scheme === 'https' || proxyCa === undefined ? await trustOf(ca) : {};
    if (proxy !== undefined) {
      // The proxy client, loaded only when a proxy is in use.
      const { proxyAgent } = await import('./proxied.js');
      const agent = await proxyAgent(proxy, scheme, IDLE_CONNECTION_MS, proxyCa ? await trustOf(proxyCa) : trust);
      return { request, agent, trust };
    }
    const https = await import('node:https');
    return { request, agent: new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS, ...trust }), trust };
  }
}

const direct = new Clients({});
const routes = new Map<string, Transport>();

/** Sends `request` over the network and reads its whole answer. */
export const httpTransport: Transport = directTransport(direct);

/**
 * The network by `route`: through its proxy, or trusting its authorities. Sessions with the same route
 * share one transport and its kept-alive connections (a proxy's tunnels among them).
 */
export function routedTransport(route: Route): Transport {
  if (route.proxy === undefined && route.ca === undefined) return httpTransport;
  const key = JSON.stringify([route.proxy ?? null, route.ca ?? null, route.proxyCa ?? null]);
  let transport = routes.get(key);
  if (!transport) {
    const clients = new Clients(route);
    transport = route.proxy === undefined ? directTransport(clients) : proxiedTransport(clients, route.proxy);
    routes.set(key, transport);
  }
  return transport;
}

/** Straight to the control plane, over the route's agents. */
function directTransport(clients: Clients): Transport {
  return async (request, { cancellable, maxBodyBytes }) => {
    const client = await clients.for(request.url);
    if (cancellable.reason) throw cancellable.reason;
    return new Promise<WireAnswer>((resolve, reject) => {
      const outgoing = client.request(request.url, {
        method: request.method,
        headers: request.headers,
        agent: client.agent,
        ...client.trust,
      });
      outgoing.on('error', reject);
      outgoing.on('response', (response) => readAnswer(response, request.url, maxBodyBytes).then(resolve, reject));
      cancellable.attach(outgoing);
      outgoing.end(request.body);
    });
  };
}

/**
 * Through a forward proxy. What goes wrong with the proxy itself is said as the proxy's (ProxyError names
 * it, never its credentials), not as the control plane's: a proxy that cannot be reached, and one that
 * refuses the tunnel or asks for credentials (407).
 */
function proxiedTransport(clients: Clients, proxy: string): Transport {
  return async (request, { cancellable, maxBodyBytes }) => {
    const client = await clients.for(request.url);
    if (cancellable.reason) throw cancellable.reason;
    const { proxyCertificate, proxyRefusal, proxyUnreachable, tunnelledIdentity } = await import('./proxied.js');
    // Over an https:// proxy, a certificate refused before the tunnel was open (or on an http plane's way) is the proxy's.
    const viaTls = /^https:/i.test(proxy);
    const plain = !/^https:/i.test(request.url);
    return new Promise<WireAnswer>((resolve, reject) => {
      const outgoing = client.request(request.url, {
        method: request.method,
        headers: request.headers,
        agent: client.agent,
        ...client.trust,
        ...tunnelledIdentity(request.url),
      });
      let refused: Error | undefined;
      let tunnelled = false;
      // https-proxy-agent's answer to the CONNECT (http-proxy-agent's event has no status): not 200 is a refusal.
      outgoing.on('proxyConnect', (connect: { statusCode?: number; statusText?: string }) => {
        tunnelled = connect.statusCode === 200;
        if (connect.statusCode !== undefined && connect.statusCode !== 200)
          refused = proxyRefusal(proxy, request.url, connect.statusCode, connect.statusText ?? '');
      });
      outgoing.on('error', (error) => {
        if (refused || cancellable.reason) reject(refused ?? error);
        else if (viaTls && (plain || !tunnelled) && isCertificateProblem(error))
          reject(proxyCertificate(proxy, request.url, error));
        else reject(proxyUnreachable(proxy, request.url, error));
      });
      outgoing.on('response', (response) => {
        // Over plain http the proxy answers in the control plane's place: a 401 that asks for proxy credentials is its own.
        const status = response.statusCode ?? 0;
        const proxyAsks = status === 407 || (plain && status === 401 && 'proxy-authenticate' in response.headers);
        if (refused || proxyAsks) {
          response.destroy();
          reject(refused ?? proxyRefusal(proxy, request.url, status, response.statusMessage ?? ''));
          return;
        }
        readAnswer(response, request.url, maxBodyBytes).then(resolve, reject);
      });
      cancellable.attach(outgoing);
      outgoing.end(request.body);
    });
  };
}

function readAnswer(response: IncomingMessage, url: string, limit: number): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    if (declared > limit) {
      response.destroy();
      reject(tooBig(url, limit));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        response.destroy();
        reject(tooBig(url, limit));
        return;
      }
      chunks.push(chunk);
    });
    response.on('error', reject);
    response.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      decode(body, response.headers['content-encoding'], url, limit).then(
        (decoded) =>
          resolve(
            new DecodedLater(
              response.statusCode ?? 0,
              response.statusMessage ?? '',
              headerRecord(response.headers),
              decoded,
            ),
          ),
        reject,
      );
    });
  });
}

/**
 * An answer whose text is decoded when first read: a page read from its bytes (list-body.ts) never needs
 * it, and decoding cost an export more than parsing did (issue 40). A class, not a getter in an object
 * literal: one of those made per answer kept answers alive past the young generation.
 */
class DecodedLater implements WireAnswer {
  #text: string | undefined;
  readonly size: number;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Record<string, string>,
    readonly bytes: Buffer,
  ) {
    this.size = bytes.length;
  }

  get text(): string {
    this.#text ??= this.bytes.toString('utf8');
    return this.#text;
  }
}

type Decoder = (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;

let decoders: Promise<Record<string, Decoder>> | undefined;

/**
 * The decoder of an encoding. node:zlib is loaded with the first encoded body rather than at start-up,
 * where it cost ≈ 3 ms of every command: only a compressed body needs it.
 */
async function decoderFor(name: string): Promise<Decoder | undefined> {
  decoders ??= import('node:zlib').then(({ brotliDecompress, gunzip, inflate }) => ({
    gzip: promisify(gunzip),
    'x-gzip': promisify(gunzip),
    deflate: promisify(inflate),
    br: promisify(brotliDecompress),
  }));
  const known = await decoders;
  return Object.hasOwn(known, name) ? known[name] : undefined;
}

async function decode(body: Buffer, encoding: string | undefined, url: string, limit: number): Promise<Buffer> {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity') return body;
  const decoder = await decoderFor(name);
  if (!decoder) {
    throw new ProtocolError(
      `the response from ${url} is encoded as ${encoding}, which dpx cannot read`,
      `dpx asks for ${ACCEPTED_ENCODINGS}; a proxy may have encoded it`,
    );
  }
  try {
    return await decoder(body, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig(url, limit);
    throw new ProtocolError(
      `the response from ${url} says it is ${name}-encoded, but it does not decode`,
      'the server or a proxy sent a damaged body; try again',
      { cause: error },
    );
  }
}

/** Node's headers as one string a name; a repeated header (Set-Cookie) joined as HTTP would join it. */
function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

function tooBig(url: string, limit: number): ProtocolError {
  return new ProtocolError(
    `the response from ${url} is larger than ${formatBytes(limit)}`,
    'ask for smaller pages (--page-size) or a narrower filter',
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
