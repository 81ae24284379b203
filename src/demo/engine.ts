import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenAuthority } from './auth.js';
import { behaviours, type RegionData } from './behaviours.js';
import { discoveryIndex, matchRoute, newestFirst, resourceDef, versionDef } from './catalog.js';
import { DemoError, errorEnvelope } from './errors.js';
import { ANY_RESOURCE, mediaType, negotiateVersion } from './media.js';
import { linkHeaderPage } from './paging.js';
import type { RateLimiter } from './rate-limit.js';

const INDEX_VERSIONS = ['v1'];
const MAX_BODY_BYTES = 1_048_576;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RegionEngine {
  baseUrl: string;
  vendor: string;
  plainListHrefs: boolean;
  /** Lists whose pages carry their links in a Link header instead of `_links`. */
  linkHeaderPaging: ReadonlySet<string>;
  auth: TokenAuthority;
  limiter: RateLimiter;
  data: RegionData;
  /** Units whose records a request without the OU header does not see: hidden tenants and their sub-units. */
  hidden?: ReadonlySet<string>;
}

export function organizationalUnitHeader(vendor: string): string {
  return `x-${vendor}-organizationalunit-context`;
}

/** The organizational units a request may see, from the OU header; undefined when there is no header. */
function scopeOf(engine: RegionEngine, header: string | string[] | undefined): Set<string> | undefined {
  if (header === undefined) return undefined;
  const name = organizationalUnitHeader(engine.vendor);
  const value = Array.isArray(header) ? header.join(',') : header.trim();
  if (!UUID.test(value))
    throw new DemoError(
      400,
      'invalid_organizational_unit',
      `The ${name} header must be one organizational-unit UUID, got ${JSON.stringify(value)}`,
    );
  const subtree = engine.data.store.ouSubtrees.get(value.toLowerCase());
  if (!subtree)
    throw new DemoError(
      403,
      'organizational_unit_forbidden',
      `Organizational unit ${value} does not exist or is not visible to this token`,
    );
  return subtree;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new DemoError(413, 'body_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DemoError(400, 'invalid_body', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    ...(contentType && body !== undefined ? { 'Content-Type': contentType } : {}),
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
  });
  response.end(payload);
}

/**
 * A successful read, with an ETag of what it says (the index, a page, a record) so that a client may ask
 * again with If-None-Match and get 304 with no body while nothing changed. The tag covers the media type
 * too: the same record in another version is another representation.
 */
function sendRead(
  request: IncomingMessage,
  response: ServerResponse,
  contentType: string,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // Encoded once: the tag, the length and the socket each read these bytes (a string was encoded for each).
  const payload = Buffer.from(JSON.stringify(body));
  const etag = `W/"${createHash('sha1').update(contentType).update('\n').update(payload).digest('base64url').slice(0, 22)}"`;
  const common = { ...headers, ETag: etag, 'Cache-Control': 'no-cache' };
  const asked = request.headers['if-none-match'];
  if (asked !== undefined && asked.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    response.writeHead(304, common);
    response.end();
    return;
  }
  response.writeHead(200, { ...common, 'Content-Type': contentType, 'Content-Length': payload.length });
  response.end(payload);
}

async function route(engine: RegionEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const now = Date.now();
  const url = new URL(request.url ?? '/', engine.baseUrl);
  const method = (request.method ?? 'GET').toUpperCase();
  const claims = await engine.auth.authenticate(request.headers.authorization);
  for (const [name, value] of Object.entries(engine.limiter.admit(claims.token, now))) response.setHeader(name, value);
  const scope = scopeOf(engine, request.headers[organizationalUnitHeader(engine.vendor)]);
  const accept = request.headers.accept;
  engine.data.live.advance(now);

  if (url.pathname === '/') {
    if (method !== 'GET')
      throw new DemoError(405, 'method_not_allowed', `${method} is not allowed on /; use GET`, { Allow: 'GET' });
    const version = negotiateVersion(accept, engine.vendor, ANY_RESOURCE, INDEX_VERSIONS);
    sendRead(request, response, mediaType(engine.vendor, ANY_RESOURCE, version), discoveryIndex(engine.plainListHrefs));
    return;
  }

  const found = matchRoute(method, url.pathname);
  if (!found.pathExists)
    throw new DemoError(404, 'not_found', `No operation has the path ${url.pathname}; GET / lists them`);
  if (!found.match) {
    throw new DemoError(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${url.pathname}; allowed: ${found.allowed.join(', ')}`,
      { Allow: found.allowed.join(', ') },
    );
  }
  const { resource: resourceName, operations, variables } = found.match;
  const resource = resourceDef(resourceName);
  const versionName = negotiateVersion(accept, engine.vendor, resourceName, newestFirst(resource.supported_versions));
  const operation = operations.get(versionName);
  if (!operation) {
    throw new DemoError(
      404,
      'operation_not_available',
      `${resourceName} ${versionName} has no operation ${method} ${url.pathname}; it exists in ${[...operations.keys()].join(', ')}`,
    );
  }
  const body = method === 'GET' || method === 'DELETE' || method === 'HEAD' ? undefined : await readBody(request);
  const behaviour = behaviours[operation.def.behaviour];
  if (!behaviour) throw new Error(`fixtures name an unknown behaviour ${operation.def.behaviour}`);
  const result = behaviour({
    data: engine.data,
    resourceName,
    resource,
    versionName,
    version: versionDef(resourceName, versionName),
    operationId: operation.id,
    operation: operation.def,
    variables,
    query: url.searchParams,
    body,
    scope,
    ...(scope === undefined && engine.hidden !== undefined ? { hidden: engine.hidden } : {}),
    subject: claims.sub,
    now,
  });
  if (operation.def.behaviour === 'list' && engine.linkHeaderPaging.has(resourceName) && result.body !== undefined) {
    const paged = linkHeaderPage(result.body as Record<string, unknown>, engine.baseUrl);
    result.body = paged.body;
    if (paged.link !== '') result.headers = { ...result.headers, Link: paged.link };
  }
  const media = result.media ?? { resource: resourceName, version: versionName };
  const contentType = mediaType(engine.vendor, media.resource, media.version);
  if (method === 'GET' && result.status === 200 && result.body !== undefined)
    sendRead(request, response, contentType, result.body, result.headers);
  else send(response, result.status, contentType, result.body, result.headers);
}

/** Answers one HTTP request; every failure becomes the `errors` envelope with its status. */
export async function handleRequest(
  engine: RegionEngine,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    await route(engine, request, response);
  } catch (error) {
    const demoError =
      error instanceof DemoError
        ? error
        : new DemoError(500, 'internal_error', `The demo control plane failed: ${(error as Error).message}`);
    if (request.readableEnded === false) request.resume();
    send(response, demoError.status, 'application/json', errorEnvelope(demoError), demoError.headers);
  }
}
