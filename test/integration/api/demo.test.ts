// The core against the demo control plane over HTTP.
import { describe, expect, it } from 'vitest';
import { ApiError, SafetyError } from '../../../src/api/errors.js';
import type { Exchange } from '../../../src/api/exchange.js';
import { linkUrl } from '../../../src/api/hal/links.js';
import { listRequest, pageLinkRequest, readPage, walkPages } from '../../../src/api/session/pages.js';
import { Session } from '../../../src/api/session/session.js';
import { readdirSync } from 'node:fs';
import { expectSchema, useDemo } from '../../helpers/demo.js';

const recordSchemas = new Set(
  readdirSync(new URL('../../../fixtures/schemas/records/', import.meta.url)).map((file) =>
    file.replace(/\.json$/, ''),
  ),
);

describe('a walk over 10,000 tasks', () => {
  const demo = useDemo({ scale: 10 });

  it('visits every page exactly once and reads every task once', async () => {
    const session = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal });
    const catalog = await session.catalog();
    const taskResource = catalog.resources.find((resource) =>
      resource.versions[0]!.operations.some((operation) => operation.id === 'list_tasks'),
    )!;
    const first = await listRequest(session, { resource: taskResource.name, pageSize: 100 });
    const before = demo.region.requestCount();
    const starts: string[] = [];
    const ids = new Set<string>();
    let lastLink: string | undefined;
    for await (const page of walkPages(session, first)) {
      starts.push(page.start!);
      const last = page.links.get('last');
      lastLink ??= last && linkUrl(last, session.baseUrl);
      for (const item of page.items) ids.add(String(item['id']));
      expect(page.warnings).toEqual([]);
    }
    const lastStart = Number(new URL(lastLink!).searchParams.get('start'));
    expect(ids.size).toBeGreaterThanOrEqual(10_000);
    expect(starts).toEqual(Array.from({ length: lastStart }, (_, i) => String(i + 1)));
    expect(ids.size).toBeGreaterThan((lastStart - 1) * 100);
    expect(demo.region.requestCount() - before).toBe(lastStart);
  });
});

describe('the demo control plane', () => {
  const demo = useDemo({ scale: 1 });
  const session = (options: Partial<ConstructorParameters<typeof Session>[0]> = {}) =>
    new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.personal, ...options });

  it('serves a catalog whose records match their schemas, with the OU header and User-Agent sent', async () => {
    const exchanges: Exchange[] = [];
    const client = session({ onExchange: (exchange) => exchanges.push(exchange) });
    const catalog = await client.catalog();
    expect(catalog.warnings).toEqual([]);
    for (const resource of catalog.resources) {
      const first = await listRequest(client, { resource: resource.name, pageSize: 3 });
      const response = await client.send(first);
      const page = readPage(response);
      expect(page.warnings).toEqual([]);
      expect(
        recordSchemas.has(`${resource.name}.${resource.defaultVersion}`),
        `a record schema for ${resource.name}`,
      ).toBe(true);
      for (const item of page.items) expectSchema(`records/${resource.name}.${resource.defaultVersion}`, item);
    }
    expect(exchanges.every((exchange) => exchange.request.headers['user-agent'] === 'dpx/0.1.0')).toBe(true);
    client.setOu('00000000-0000-4000-8000-000000000000');
    const scoped = await listRequest(client, { resource: catalog.resources[0]!.name });
    expect(scoped.headers['x-service-organizationalunit-context']).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('moves between pages by their links', async () => {
    const client = session();
    const resource = (await client.catalog()).resources[0]!.name;
    const first = await listRequest(client, { resource, pageSize: 2 });
    const page1 = readPage(await client.send(first));
    const next = pageLinkRequest(client, page1, 'next', first)!;
    const page2 = readPage(await client.send(next));
    expect(page2.start).toBe('2');
    const back = pageLinkRequest(client, page2, 'prev', next)!;
    expect(readPage(await client.send(back)).items).toEqual(page1.items);
    expect(pageLinkRequest(client, page1, 'prev', first)).toBeUndefined();
  });

  it('a token from the other region gets 401 with the envelope, as [code] message', async () => {
    const error = (await session({ token: demo.otherRegion.tokens.personal })
      .catalog()
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.errors.length).toBeGreaterThan(0);
    expect(error.message).toMatch(/^HTTP 401 Unauthorized: \[[a-z_]+\] /);
    expect(error.exitCode).toBe(1);
  });

  it('an expired token gets 401 with a hint that says it expired', async () => {
    const error = (await session({ token: demo.region.tokens.expired })
      .catalog()
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(error.hint).toMatch(/expired/);
  });

  it('an unsupported version gets 406 with the versions the index lists', async () => {
    const client = session();
    const catalog = await client.catalog();
    const resource = catalog.resources[0]!;
    const request = await listRequest(client, { resource: resource.name });
    const error = (await client
      .send({
        ...request,
        version: 'v99',
        headers: { ...request.headers, accept: `application/api.service.${resource.name}=v99+json` },
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(406);
    expect(error.hint).toContain(resource.versions.map((version) => version.version).join(', '));
  });

  it('refuses a write in read-only mode without a request reaching the server', async () => {
    const client = session({ readOnly: true });
    const catalog = await client.catalog();
    const write = catalog.resources
      .flatMap((resource) => resource.versions[0]!.operations.map((operation) => ({ resource, operation })))
      .find(({ operation }) => operation.method === 'POST' && operation.pathVariables.length === 0)!;
    const request = await client.prepare({
      resource: write.resource.name,
      operationId: write.operation.id,
      body: '{}',
    });
    const before = demo.region.requestCount();
    await expect(client.send(request)).rejects.toBeInstanceOf(SafetyError);
    expect(demo.region.requestCount()).toBe(before);
  });
});

describe('a demo whose list hrefs are plain paths', () => {
  const demo = useDemo({ scale: 1, plainListHrefs: true });

  it('pages with the default limit, start and filter parameters', async () => {
    const client = new Session({ baseUrl: demo.region.baseUrl, token: demo.region.tokens.service });
    const resource = (await client.catalog()).resources.find(
      (candidate) =>
        !candidate.versions[0]!.operations.some(
          (operation) => operation.templated && operation.pathVariables.length === 0,
        ),
    )!;
    const first = await listRequest(client, { resource: resource.name, pageSize: 3, filter: '{}' });
    expect(new URL(first.url).search).toBe('?limit=3&filter=%7B%7D');
    const pages = [];
    for await (const page of walkPages(client, first, { maxPages: 3 })) pages.push(page);
    expect(pages.map((page) => page.items.length)).toEqual([3, 3, 3]);
    expect(pages.map((page) => page.start)).toEqual(['1', '2', '3']);
  });
});
