// Thousands of malformed indexes, envelopes, link objects, templates, error bodies and tokens through the
// readers: each one either answers (with warnings where something was wrong) or throws a DpxError with a
// one-line message and a hint. Anything else thrown — a TypeError, a RangeError — fails the property.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/api/hal/catalog.js';
import { ApiError, DpxError, toDpxError } from '../../src/api/errors.js';
import { apiErrorFor, type FailedResponse } from '../../src/api/wire/failure.js';
import { recordLinks } from '../../src/api/hal/links.js';
import { findListOperation, pagingParameters, resolveRequest } from '../../src/api/hal/operation.js';
import { pageLinkRequest, readPage, type LinkRole } from '../../src/api/session/pages.js';
import { Session } from '../../src/api/session/session.js';
import { expandTemplate, templateVariables } from '../../src/api/hal/template.js';
import { describeToken } from '../../src/api/security/token.js';
import { unreachableOrigin } from '../helpers/ports.js';
import { anyScalar } from '../helpers/any-unicode.js';

/** A control plane that does not answer: a port this file bound and closed. */
const NOWHERE = await unreachableOrigin();

const BASE = `${NOWHERE}/api`;
const RUNS = 1_500;
const session = new Session({ baseUrl: BASE, token: 'property-test-token' });

/** Runs `read`; a throw must be a DpxError that reads as one line with a hint. */
function typedOrValue<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof DpxError)) throw error;
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(error.message.trim()).not.toBe('');
    expect(error.hint.trim()).not.toBe('');
    return undefined;
  }
}

function expectWarnings(warnings: unknown): void {
  expect(Array.isArray(warnings)).toBe(true);
  for (const warning of warnings as unknown[]) expect(typeof warning).toBe('string');
}

/** What JSON.parse would hand over: own `__proto__` keys included, no undefined, no -0. */
const fromJson = <T>(value: T): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

/** String units biased towards the ones readers trip on: line breaks, lone surrogates, NUL, template and URL syntax. */
const awkwardUnit = fc.oneof(
  fc.constantFrom('\n', '\r', '\t', '\u2028', '\ud800', '\udfff', '\u0000', '\u001b', '{', '}', '/', '\\', '%', '"'),
  fc.string({ minLength: 1, maxLength: 1 }),
  anyScalar,
);

function text(constraints: { maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.oneof(fc.string(constraints), fc.string({ ...constraints, unit: awkwardUnit }));
}

const awkwardKey = fc.oneof(
  text({ maxLength: 8 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    '',
    ' ',
    '_links',
    '_embedded',
    'v1',
    'V2',
    'v01',
    'v99999999999999999999',
    'v-1',
    'self',
    'next',
  ),
);
const json = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3, stringUnit: awkwardUnit }));

const templatePiece = fc.oneof(
  fc.constantFrom(
    '/',
    '{',
    '}',
    '{?',
    '{/',
    '{&',
    '{#',
    '{+',
    '{;',
    '{.',
    ',',
    '*',
    ':3',
    ':0',
    ':99999',
    '%',
    '%zz',
    '?',
    '&',
    '#',
    '\\',
    '\\\\',
    ' ',
    '=',
    '{id}',
    '{?limit,start}',
    '{&filter}',
    '{/id*}',
    '\u0000',
    'é',
    '\uD800',
    '//',
    'http://',
    'http://[',
    'mailto:',
    '..',
    '{{a}}',
  ),
  text({ maxLength: 4 }),
);
const template = fc.array(templatePiece, { maxLength: 8 }).map((pieces) => pieces.join(''));
const method = fc.oneof(fc.constantFrom('get', 'GET', 'post', 'delete', 'Patch', 'x y', '', 'GET\n'), json);

const operationDescriptor = fc.oneof(
  json,
  fc.record(
    { href: fc.oneof(template, json), type: method, templated: fc.oneof(fc.boolean(), json) },
    { requiredKeys: [] },
  ),
);
const operations = fc.oneof(
  json,
  fc.dictionary(fc.oneof(awkwardKey, fc.constantFrom('list_things', 'read_thing', 'listAll')), operationDescriptor, {
    maxKeys: 5,
  }),
);
const versionLabel = fc.oneof(
  fc.constantFrom('v1', 'v2', 'V3', 'v10', ' v1 ', 'v', '1', 'v1.0', 'v-2', 'v99999999999999999999'),
  json,
);
const resourceEntry = fc.oneof(
  json,
  fc
    .tuple(
      fc.record({ supported_versions: fc.oneof(fc.array(versionLabel, { maxLength: 4 }), json) }, { requiredKeys: [] }),
      fc.dictionary(fc.oneof(awkwardKey, fc.constantFrom('v1', 'v2', 'V3', 'v10')), operations, { maxKeys: 4 }),
    )
    .map(([head, versions]) => ({ ...versions, ...head })),
);
const index = fc.oneof(json, fc.dictionary(awkwardKey, resourceEntry, { maxKeys: 5 })).map(fromJson);

const linkObject = fc.oneof(
  template,
  json,
  fc.record(
    { href: fc.oneof(template, json), templated: fc.oneof(fc.boolean(), json), type: method, title: json },
    { requiredKeys: [] },
  ),
);
const links = fc.oneof(
  json,
  fc.dictionary(
    fc.oneof(
      awkwardKey,
      fc.constantFrom('self', 'next', '_next', 'prev', 'previous', 'PREV', 'first', 'last', '_last'),
    ),
    fc.oneof(linkObject, fc.array(linkObject, { maxLength: 3 })),
    { maxKeys: 6 },
  ),
);
const count = fc.oneof(fc.integer(), fc.double(), fc.constantFrom('12', '-1', '1e3', '', 'NaN'), json);
const envelope = fc
  .oneof(
    json,
    fc.record(
      {
        _embedded: fc.oneof(
          json,
          fc.record(
            {
              items: fc.oneof(
                fc.array(fc.oneof(json, fc.record({ id: json, _links: links }, { requiredKeys: [] })), {
                  maxLength: 5,
                }),
                json,
              ),
            },
            { requiredKeys: [] },
          ),
          fc.dictionary(awkwardKey, fc.array(json, { maxLength: 3 }), { maxKeys: 3 }),
        ),
        _links: links,
        current_count: count,
        total_count: count,
        total_pages_count: count,
        start: fc.oneof(fc.integer(), text({ maxLength: 5 }), json),
      },
      { requiredKeys: [] },
    ),
  )
  .map(fromJson);

describe('the catalog reader (parseCatalog)', () => {
  it('turns any index into resources and warnings, and every operation it keeps can be prepared or refused as usage', () => {
    fc.assert(
      fc.property(index, fc.dictionary(awkwardKey, text({ maxLength: 6 }), { maxKeys: 3 }), (body, values) => {
        const catalog = typedOrValue(() => parseCatalog(body, 'service'));
        if (!catalog) return;
        expectWarnings(catalog.warnings);
        for (const resource of catalog.resources) {
          expect(resource.versions.length).toBeGreaterThan(0);
          for (const version of resource.versions) {
            const list = typedOrValue(() => findListOperation(version));
            if (list) typedOrValue(() => pagingParameters(list));
            for (const operation of version.operations) {
              expect(operation.method).toBe(operation.method.toUpperCase());
              const variables: Record<string, string> = {};
              for (const name of [...operation.pathVariables, ...operation.queryVariables])
                variables[name] = values[name] ?? 'x';
              typedOrValue(() =>
                resolveRequest(
                  catalog,
                  { resource: resource.name, version: version.version, operationId: operation.id, variables },
                  { baseUrl: BASE, vendor: 'service', ouHeader: 'x-ou' },
                ),
              );
            }
          }
        }
      }),
      // Found here: a lone surrogate in an href (valid JSON: "\ud800") makes expandTemplate throw a URIError.
      {
        numRuns: RUNS,
        examples: [
          [
            {
              things: {
                supported_versions: ['v1'],
                v1: { list_things: { href: '/things{?limit}\ud800', type: 'get' } },
              },
            },
            {},
          ],
        ],
      },
    );
  });
});

describe('the page reader (readPage) and the link roles', () => {
  it('reads any envelope into items, links and warnings, or a ProtocolError', () => {
    fc.assert(
      fc.property(envelope, (body) => {
        const page = typedOrValue(() => readPage({ body, url: `${BASE}/things` }));
        if (!page) return;
        expectWarnings(page.warnings);
        for (const item of page.items)
          expect(typeof item === 'object' && item !== null && !Array.isArray(item)).toBe(true);
        for (const count of [page.currentCount, page.totalCount, page.totalPages])
          if (count !== undefined) expect(Number.isFinite(count)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  // Found here: an href such as "\\\\" makes resolveHref's `new URL` throw a TypeError.
  it('turns every link role of a page into a request, or a typed error', () => {
    const basis = {
      method: 'GET',
      url: `${BASE}/things`,
      headers: { accept: 'application/json' },
      resource: 'things',
      version: 'v1',
      operationId: 'list_things',
    };
    fc.assert(
      fc.property(envelope, (body) => {
        const page = typedOrValue(() => readPage({ body, url: `${BASE}/things` }));
        if (!page) return;
        for (const role of page.links.getAll().map((link) => link.rel as LinkRole)) {
          const request = typedOrValue(() => pageLinkRequest(session, page, role, basis));
          if (request) expect(typeof request.url).toBe('string');
        }
      }),
      { numRuns: RUNS, examples: [[{ _embedded: { items: [] }, _links: { next: { href: '\\\\' } } }]] },
    );
  });
});

describe('the record link reader (recordLinks)', () => {
  it('flattens any _links into links with a string href', () => {
    fc.assert(
      fc.property(fc.oneof(json, fc.record({ _links: links }, { requiredKeys: [] })).map(fromJson), (record) => {
        const flat = typedOrValue(() => recordLinks(record));
        for (const link of flat ?? []) {
          expect(typeof link.href).toBe('string');
          expect(link.href).not.toBe('');
          expect(typeof link.templated).toBe('boolean');
          if (link.method !== undefined) expect(link.method).toMatch(/^[A-Z]+$/);
          const expanded = typedOrValue(() =>
            session.prepareLink(link, { resource: 'things', version: 'v1' }, { id: 'a/b', limit: '5' }),
          );
          if (expanded) expect(typeof expanded.url).toBe('string');
        }
      }),
      // Found here: a templated href with a lone surrogate throws a URIError from the expansion.
      { numRuns: RUNS, examples: [[{ _links: { self: { href: '\ud800{id}', templated: true } } }]] },
    );
  });
});

describe('template variables and expansion', () => {
  it('name the variables of any template and expand it with any values', () => {
    fc.assert(
      fc.property(
        template,
        fc.dictionary(text({ maxLength: 5 }), fc.option(text({ maxLength: 8 }), { nil: undefined }), { maxKeys: 4 }),
        (href, values) => {
          const variables = typedOrValue(() => templateVariables(href));
          if (variables) for (const name of [...variables.path, ...variables.query]) expect(name).not.toBe('');
          const expanded = typedOrValue(() => expandTemplate(href, values));
          if (expanded !== undefined) expect(typeof expanded).toBe('string');
        },
      ),
      {
        numRuns: RUNS * 2,
        examples: [
          ['\ud800', {}],
          ['{id}', { id: '\udc00' }],
        ],
      },
    );
  });
});

describe('the error mapping (apiErrorFor)', () => {
  // A reason phrase is HTAB / SP / VCHAR / obs-text: no line breaks can reach us through HTTP.
  const reasonPhrase = text({ maxLength: 20 }).map((text) => text.replace(/[\r\n]/g, ' '));
  const contentType = fc.oneof(
    fc.constantFrom(
      '',
      'application/json',
      'application/json; charset=utf-8',
      'text/html',
      'text/plain',
      'application/problem+json',
      'application/api.service.things=v1+json',
      ';;',
      'text/html; charset',
    ),
    text({ maxLength: 12 }).map((text) => text.replace(/[\r\n]/g, '')),
  );
  const entry = fc.oneof(
    json,
    fc.record({ error_code: json, error_message: json, code: json, message: json }, { requiredKeys: [] }),
  );
  const errorBody = fc
    .oneof(json, fc.record({ errors: fc.oneof(fc.array(entry, { maxLength: 4 }), json) }, { requiredKeys: [] }))
    .map(fromJson);
  const html = fc
    .tuple(text({ maxLength: 30 }), text({ maxLength: 200 }))
    .map(([title, rest]) => `<html><head><title>${title}</title></head><body>${rest}\n${rest}</body></html>`);

  // Found here: an `error_code` with a line break (JSON allows "\n" in any string) reaches the message as is.
  it('maps any status and body to an ApiError with a one-line message and a hint', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constantFrom(0, 429, 401, 406, 999)),
        reasonPhrase,
        contentType,
        fc.oneof(
          errorBody.map((body) => ({ body, text: JSON.stringify(body) })),
          fc.oneof(html, text({ maxLength: 300 })).map((text) => ({ body: undefined, text })),
        ),
        fc.option(fc.oneof(fc.nat(100_000), fc.double({ min: 0, max: 1e6, noNaN: true })), { nil: undefined }),
        fc.record(
          {
            supportedVersions: fc.array(text({ maxLength: 4 }), { maxLength: 3 }),
            resource: text({ maxLength: 6 }),
            version: text({ maxLength: 4 }),
            tokenProblem: text({ maxLength: 20 }),
          },
          { requiredKeys: [] },
        ),
        (status, statusText, type, { body, text }, retryAfterSeconds, context) => {
          const response: FailedResponse = { status, statusText, contentType: type, text, body, retryAfterSeconds };
          const error = apiErrorFor(response, context);
          expect(error).toBeInstanceOf(ApiError);
          expect(error.status).toBe(status);
          expect(error.message).not.toMatch(/[\r\n]/);
          expect(error.message.length).toBeLessThan(2_000 + text.length);
          expect(error.hint.trim()).not.toBe('');
          for (const item of error.errors) expect(`${item.code} ${item.message}`).not.toMatch(/[\r\n]/);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('normalises anything thrown into a DpxError (toDpxError)', () => {
    const thrown = fc.oneof(
      fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true }),
      text().map((message) => new Error(message)),
      text().map((message) => new SyntaxError(message)),
      text().map((message) => new RangeError(message)),
    );
    fc.assert(
      fc.property(thrown, (value) => {
        const error = toDpxError(value);
        expect(error).toBeInstanceOf(DpxError);
        expect(error.message).not.toMatch(/[\r\n]/);
        expect(error.hint.trim()).not.toBe('');
        expect([1, 2, 3, 4]).toContain(error.exitCode);
      }),
      // Found here: a thrown object with no prototype makes String() throw a TypeError inside toDpxError.
      { numRuns: RUNS, examples: [[Object.create(null)]] },
    );
  });
});

describe('the token decoder (describeToken)', () => {
  const segment = (value: unknown) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  const claims = fc.record(
    {
      sub: json,
      iss: fc.oneof(json, fc.constantFrom(NOWHERE, 'https://other.example', 'not a url', 'ftp://x')),
      exp: fc.oneof(json, fc.integer(), fc.double(), fc.constantFrom(1e20, -1e20, 8.64e12, 8.64e12 + 1, 0)),
      iat: fc.oneof(json, fc.integer(), fc.constantFrom(1e300, -1e15)),
      token_type: json,
      typ: json,
    },
    { requiredKeys: [] },
  );
  const token = fc.oneof(
    text({ maxLength: 60 }),
    fc
      .tuple(fc.oneof(json, fc.constant({ alg: 'HS256', typ: 'JWT' })), fc.oneof(claims, json), text({ maxLength: 10 }))
      .map(([header, payload, signature]) => `${segment(header)}.${segment(payload)}.${segment(signature)}`),
    fc.tuple(text({ maxLength: 20 }), text({ maxLength: 20 })).map(([a, b]) => `${segment(a)}.${segment(b)}.sig`),
  );

  // Found here: `exp` 1e20 decodes to an Invalid Date, which `dpx whoami` then fails to print (RangeError).
  it('describes any string without throwing, never quotes it, and gives only valid dates', () => {
    fc.assert(
      fc.property(token, fc.integer({ min: 0, max: 4_102_444_800_000 }), (text, now) => {
        const info = describeToken(text, BASE, now);
        expectWarnings(info.warnings);
        for (const warning of info.warnings) {
          expect(warning).not.toMatch(/[\r\n]/);
          if (text.length > 8) expect(warning).not.toContain(text);
        }
        for (const date of [info.issuedAt, info.expiresAt])
          if (date !== undefined) expect(Number.isNaN(date.getTime())).toBe(false);
      }),
      { numRuns: RUNS * 2, examples: [[`${segment({ alg: 'none' })}.${segment({ exp: 1e20 })}.`, 0]] },
    );
  });
});
