import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, expect } from 'vitest';
import { startDemo, type DemoHandle, type DemoOptions, type DemoRegion } from '../../src/demo/server.js';

export interface DemoFixture {
  /** The running demo; read it inside tests or hooks, not at collection time. */
  readonly handle: DemoHandle;
  /** The first region (eu-west). */
  readonly region: DemoRegion;
  /** The second region (us-east). */
  readonly otherRegion: DemoRegion;
}

/**
 * The rate ceiling (DPX_RATE) for dpx against a local demo. dpx's default, 50 requests a second, is for a
 * real control plane: here it only adds waiting (a walk of 10,000 tasks, a count over every unit). The
 * ceiling itself is tested in test/integration/cli/polite.test.ts and test/integration/api/limiter.test.ts.
 */
export const LOCAL_RATE = '1000';

/** Starts a demo control plane before the file's tests and closes it after them. */
export function useDemo(options: DemoOptions = {}): DemoFixture {
  let handle: DemoHandle | undefined;
  beforeAll(async () => {
    handle = await startDemo(options);
  });
  afterAll(async () => {
    await handle?.close();
  });
  const running = (): DemoHandle => {
    if (!handle) throw new Error('the demo control plane is not running: use the fixture inside tests or hooks');
    return handle;
  };
  const regionAt = (i: number): DemoRegion => {
    const region = running().regions[i];
    if (!region) throw new Error(`the demo has no region ${i}`);
    return region;
  };
  return {
    get handle() {
      return running();
    },
    get region() {
      return regionAt(0);
    },
    get otherRegion() {
      return regionAt(1);
    },
  };
}

export interface DemoResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body; undefined when the body is empty. */
  body: any;
}

export interface DemoRequest {
  method?: string;
  /** Bearer token; null sends no Authorization header. Defaults to the region's personal token. */
  token?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One HTTP request to a demo region (a path such as '/tasks?limit=5', or an absolute URL). */
export async function demoRequest(region: DemoRegion, path: string, request: DemoRequest = {}): Promise<DemoResponse> {
  const token = request.token === undefined ? region.tokens.personal : request.token;
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  if (token !== null) headers['Authorization'] = `Bearer ${token}`;
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(new URL(path, region.baseUrl), {
    method: request.method ?? 'GET',
    headers,
    ...(request.body !== undefined
      ? { body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body) }
      : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** Every item of a demo list, page by page along its next links; each page must answer 200. */
export async function demoPages(
  region: DemoRegion,
  path: string,
  headers: Record<string, string> = {},
): Promise<any[]> {
  const items: any[] = [];
  for (let next: string | undefined = path; next; ) {
    const page = await demoRequest(region, next, { headers });
    expect(page.status).toBe(200);
    const body = page.body as { _embedded: { items: any[] }; _links: { next?: { href: string } } };
    items.push(...body._embedded.items);
    next = body._links.next?.href;
  }
  return items;
}

const schemaDir = join(import.meta.dirname, '..', '..', 'fixtures', 'schemas');
const ajv = new Ajv({ allErrors: true, strict: false });
// ajv-formats is CommonJS: depending on the loader, the default import is the plugin or its module object.
const addFormats = (typeof ajvFormats === 'function' ? ajvFormats : (ajvFormats as { default: unknown }).default) as (
  ajv: Ajv,
) => void;
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

/** Asserts that `body` matches fixtures/schemas/<file>.json (e.g. 'errors', 'records/tasks.v1'). */
export function expectSchema(file: string, body: unknown): void {
  let validate = validators.get(file);
  if (!validate) {
    const { $id: _id, ...schema } = JSON.parse(readFileSync(join(schemaDir, `${file}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    validate = ajv.compile(schema);
    validators.set(file, validate);
  }
  const valid = validate(body);
  expect(valid ? [] : ajv.errorsText(validate.errors), `response against ${file}.json`).toEqual([]);
}

/** Asserts a list response: the envelope schema, and every item against its record schema. */
export function expectList(recordSchema: string, body: { _embedded?: { items?: unknown[] } }): void {
  expectSchema('list-envelope', body);
  for (const item of body._embedded?.items ?? []) expectSchema(`records/${recordSchema}`, item);
}

/** Asserts an error response: the status, the error envelope schema and the error code. */
export function expectError(response: { status: number; body: unknown }, status: number, code: string): void {
  expect(response.status).toBe(status);
  expectSchema('errors', response.body);
  expect((response.body as { errors: { error_code: string }[] }).errors[0]?.error_code).toBe(code);
}
