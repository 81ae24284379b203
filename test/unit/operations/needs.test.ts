// What an operation needs and what goes out: the fields of a body schema, errors in words a person can
// act on, header values checked, units by name, the body a PATCH sends, operations a record's links
// leave out, the curl's token source, and a 400's hint.
import { describe, expect, it } from 'vitest';
import { parseBodyText } from '../../../src/api/operations/jsonc.js';
import { parseCatalog } from '../../../src/api/hal/catalog.js';
import { patternExample, patternMessage } from '../../../src/api/hal/pattern-example.js';
import { schemaErrorMessage } from '../../../src/api/hal/schemas.js';
import { operationsFor } from '../../../src/api/operations/available.js';
import { bodyFields, describeOperation } from '../../../src/api/operations/describe.js';
import {
  bodyToSend,
  changedFields,
  createOperationForm,
  withBody,
  withBodyField,
} from '../../../src/api/operations/form.js';
import { directoryOf, pathText } from '../../../src/api/fanout/unit-names.js';
import type { OrgUnit } from '../../../src/api/fanout/units.js';
import { checkHeaderValues, headerValueProblem } from '../../../src/api/security/header-values.js';
import { toCurl } from '../../../src/api/security/curl.js';
import { apiErrorFor } from '../../../src/api/wire/failure.js';
import { UsageError } from '../../../src/api/errors.js';

/** What a body (JSON with comments) sends. */
function bodyValue(text: string): unknown {
  const parsed = parseBodyText(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const widgetSchema = {
  type: 'object',
  required: ['size'],
  additionalProperties: false,
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 40, description: 'Shown on the widget', examples: ['left'] },
    size: { type: 'integer', minimum: 1, maximum: 9 },
    colour: { type: 'string', enum: ['red', 'blue'], default: 'red' },
    gadget_id: { type: 'string', pattern: UUID },
    enabled: { type: 'boolean' },
  },
};
const catalog = parseCatalog(
  {
    widgets: {
      supported_versions: ['v1', 'v2'],
      v2: {
        get_widget: { href: '/widgets/{widget_id}', type: 'get' },
        patch_widget: { href: '/widgets/{widget_id}', type: 'patch' },
        paint_widget: { href: '/widgets/{widget_id}/paint', type: 'post' },
        polish_widget: { href: '/widgets/{widget_id}/polish', type: 'post' },
        list_widgets: { href: '/widgets{?limit,start,filter}', type: 'get' },
      },
      v1: { patch_widget: { href: '/widgets/{widget_id}', type: 'patch' } },
    },
    gadgets: { supported_versions: ['v1'], v1: { list_gadgets: { href: '/gadgets', type: 'get' } } },
  },
  'acme',
);

describe('what an operation needs', () => {
  it('lists every body field, required first, with type, limits, allowed values, default, description and example', () => {
    const fields = bodyFields(widgetSchema);
    expect(fields.map((field) => `${field.name}${field.required ? '*' : ''}`)).toEqual([
      'size*',
      'label',
      'colour',
      'gadget_id',
      'enabled',
    ]);
    expect(fields[0]).toMatchObject({ type: 'integer', limits: ['1 to 9'] });
    expect(fields[1]).toMatchObject({
      limits: ['1–40 characters'],
      description: 'Shown on the widget',
      example: 'left',
    });
    expect(fields[2]).toMatchObject({ allowed: ['red', 'blue'], default: 'red' });
    expect(fields[3]).toMatchObject({ limits: ['a UUID'], example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
  });

  it('names the versions that have the operation, what an id variable refers to, and an example with a placeholder for ids', () => {
    const described = describeOperation(
      catalog,
      { resource: 'widgets', operationId: 'patch_widget' },
      { schema: widgetSchema, source: 'built-in', check: () => [] },
    );
    expect(described.versions).toEqual(['v2', 'v1']);
    expect(described.variables).toEqual([
      { name: 'widget_id', kind: 'path', required: true, about: 'the id of a widgets record' },
    ]);
    expect(described.schema?.fields.find((field) => field.name === 'gadget_id')?.refers).toBe('gadgets');
    expect(described.example).toBe(`dpx call widgets patch_widget <widget_id> --body '{"size":1}' --allow-writes`);
    const list = describeOperation(catalog, { resource: 'widgets', operationId: 'list_widgets' });
    expect(list.variables.map((variable) => variable.about)[2]).toMatch(/^a JSON filter/);
    expect(list.hasBody).toBe(false);
  });
});

describe('errors a person can act on', () => {
  it('an enum error lists the allowed values; a pattern error gives an example, not the regular expression', () => {
    expect(
      schemaErrorMessage({ instancePath: '/colour', keyword: 'enum', params: { allowedValues: ['red', 'blue'] } }),
    ).toBe('must be one of: red, blue');
    expect(patternMessage(UUID)).toBe('must be a UUID, e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301');
    expect(patternMessage('^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$')).toBe('must be an email address, e.g. someone@example.com');
    expect(patternMessage('^[A-Z]{2}-\\d{3}$')).toBe('does not have the expected form, e.g. AA-111');
    // A pattern that takes anything names no shape; one too hard to sample gives no example rather than a wrong one.
    expect(patternExample('.*')?.name).toBeUndefined();
    expect(patternMessage('^(?=x)y$')).toBe('does not have the expected form');
  });

  it('a 400 gets the hint of its cause: the body, the unit, the filter, the page size', () => {
    const failed = (message: string) => ({
      status: 400,
      statusText: 'Bad Request',
      contentType: 'application/json',
      text: '',
      body: { errors: [{ error_code: 'bad', error_message: message }] },
      retryAfterSeconds: undefined,
    });
    const body = apiErrorFor(failed('Request body at /colour: must be one of: red, blue'), {
      resource: 'widgets',
      sent: { operationId: 'patch_widget', body: true },
    });
    expect(body.hint).toContain('`dpx call widgets patch_widget --help` lists its fields');
    const unit = apiErrorFor(
      failed('The x-acme-organizationalunit-context header must be one organizational-unit UUID'),
      { sent: { body: false, ou: 'Finance' } },
    );
    expect(unit.hint).toMatch(/^the organizational unit sent \(Finance\) was refused/);
    const filter = apiErrorFor(failed('filter: unknown operator $like'), { sent: { body: false, filter: '{}' } });
    expect(filter.hint).toMatch(/^the filter was refused: .*\$begins_with/);
    const size = apiErrorFor(failed('limit must be a whole number from 1 to 500'), {
      sent: { body: false, pageSize: '900' },
    });
    expect(size.hint).toMatch(/^the page size was refused/);
  });
});

describe('header values', () => {
  it('a control character or a character past Latin-1 is named with where it is; a tab is allowed', () => {
    expect(headerValueProblem('Acme\nCorp')).toBe('holds U+000A (a line break) at character 5');
    expect(headerValueProblem('a\x1b[31m')).toBe('holds U+001B (an escape) at character 2');
    expect(headerValueProblem('東京')).toBe('holds U+6771 (a character headers cannot carry) at character 1');
    expect(headerValueProblem('a\tb')).toBeUndefined();
    expect(() => checkHeaderValues({ 'x-ou': 'a\rb' }, { 'x-ou': 'the organizational unit' })).toThrow(UsageError);
    expect(() => checkHeaderValues({ 'x-ou': 'a\rb' }, { 'x-ou': 'the organizational unit' })).toThrow(
      /^the organizational unit \(header x-ou\) holds U\+000D/,
    );
  });
});

describe('units by name', () => {
  const unit = (id: string, name: string, parent?: string): OrgUnit => ({
    id,
    name,
    detail: '',
    depth: 0,
    children: 0,
    ...(parent ? { parent } : {}),
  });
  const units = [
    unit('r', 'Global'),
    unit('a', 'Acme'),
    unit('e', 'EMEA', 'a'),
    unit('g', 'Globex'),
    unit('ge', 'EMEA', 'g'),
    unit('b', 'Berlin', 'e'),
  ];
  units[1]!.parent = 'r';
  units[3]!.parent = 'r';

  it('finds a unit by id, by a name only it has, or by its path from the root or from any ancestor', () => {
    const directory = directoryOf(units);
    expect(directory.find('B')).toEqual([units[5]]);
    expect(directory.find('berlin')).toEqual([units[5]]);
    expect(directory.find('Global/Acme/EMEA')).toEqual([units[2]]);
    expect(directory.find('acme / emea')).toEqual([units[2]]);
    expect(directory.find('Nowhere')).toEqual([]);
  });

  it('a name two units share is ambiguous, with both paths', () => {
    const directory = directoryOf(units);
    expect(directory.find('EMEA').map((unit) => pathText(directory.path(unit.id)))).toEqual([
      'Global / Acme / EMEA',
      'Global / Globex / EMEA',
    ]);
  });
});

describe('the body a form sends', () => {
  const operation = catalog.resources[0]!.versions[0]!.operations.find((op) => op.id === 'patch_widget')!;
  const record = {
    id: 'w-1',
    label: 'left',
    size: 3,
    colour: 'blue',
    created_timestamp: '2024-01-01T00:00:00Z',
    _links: { self: { href: '/widgets/w-1' } },
  };

  it('a PATCH opened from a record starts from its values the schema accepts, and sends only what changed', () => {
    const form = createOperationForm({
      resource: 'widgets',
      version: 'v2',
      operation,
      bodySchema: widgetSchema,
      record: { resource: 'widgets', fields: record },
    });
    expect(bodyValue(form.body)).toEqual({ label: 'left', size: 3, colour: 'blue' });
    // The fields the record lacks but the schema accepts are named, commented out: untouched, they are not sent.
    expect(form.body).toMatch(/^ {2}\/\/ "gadget_id": "", {2}\/\/ string, a UUID$/m);
    expect(form.body).toMatch(/^ {2}\/\/ "enabled": false, {2}\/\/ boolean$/m);
    expect(form.body).not.toContain('"id"');
    expect(form.body).not.toContain('created_timestamp');
    expect(changedFields(form)).toEqual([]);
    expect(bodyToSend(form)).toBe('{}');
    const enabled = withBodyField(form, form.bodyFields.find((field) => field.name === 'enabled')!, { value: true })!;
    expect(enabled.body).toMatch(/^ {2}"enabled": true, {2}\/\/ boolean$/m);
    expect(JSON.parse(bodyToSend(enabled)!)).toEqual({ enabled: true });
    const sized = withBodyField(form, form.bodyFields[0]!, '5')!;
    expect(bodyValue(sized.body)).toEqual({ label: 'left', size: 5, colour: 'blue' });
    expect(JSON.parse(bodyToSend(sized)!)).toEqual({ size: 5 });
    expect(changedFields(sized)).toEqual(['size']);
  });

  it("typed text takes the field's type; an empty value takes the field out; a body that is not an object is left alone", () => {
    const form = createOperationForm({ resource: 'widgets', version: 'v2', operation, bodySchema: widgetSchema });
    const [size, label, , , enabled] = form.bodyFields;
    expect(bodyValue(withBodyField(form, enabled!, 'true')!.body)).toMatchObject({ enabled: true });
    expect(bodyValue(withBodyField(form, size!, 'big')!.body)).toMatchObject({ size: 'big' });
    expect(bodyValue(withBodyField(withBodyField(form, label!, 'x')!, label!, '')!.body)).not.toHaveProperty('label');
    expect(withBodyField(withBody(form, '[1'), label!, 'x')).toBeUndefined();
    // A POST sends the body as typed.
    expect(bodyToSend(withBody(form, '{"size": 1}'))).toBe('{"size": 1}');
  });
});

describe("operations a record's links leave out", () => {
  it("an action under the record that its links do not offer is marked, with why; the record's own address is not judged", () => {
    const record = {
      id: 'w-1',
      _links: { self: { href: '/widgets/w-1' }, paint: { href: '/widgets/w-1/paint', type: 'post' } },
    };
    const ops = operationsFor(catalog, 'widgets', 'v2', record);
    const byId = Object.fromEntries(ops.map((op) => [op.id, op]));
    expect(byId['paint_widget']!.leftOut).toBeUndefined();
    expect(byId['polish_widget']!.leftOut).toMatch(/^the record's _links leave it out \(they offer paint\)/);
    expect(byId['patch_widget']!.leftOut).toBeUndefined();
  });

  it('a record whose links offer no action says nothing', () => {
    const ops = operationsFor(catalog, 'widgets', 'v2', { id: 'w-1', _links: { self: { href: '/widgets/w-1' } } });
    expect(ops.every((op) => op.leftOut === undefined)).toBe(true);
  });
});

describe('the curl dpx prints', () => {
  const request = {
    method: 'GET',
    url: 'https://cp.example/widgets/1',
    headers: { accept: 'application/json' },
    resource: 'widgets',
    version: 'v2',
    operationId: 'get_widget',
  };
  it('reads the token from where dpx read it', () => {
    expect(toCurl(request, { kind: 'file', path: "/home/o'neil/eu.token" })).toContain(
      `-H "Authorization: Bearer $(cat '/home/o'\\''neil/eu.token')"`,
    );
    expect(toCurl(request, { kind: 'env', name: 'US_TOKEN' })).toContain('-H "Authorization: Bearer $US_TOKEN"');
    expect(toCurl(request)).toContain('-H "Authorization: Bearer $DPX_TOKEN"');
  });
});
