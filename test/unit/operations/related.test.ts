import { describe, expect, it } from 'vitest';
import { parseBodyText } from '../../../src/api/operations/jsonc.js';
import { parseCatalog } from '../../../src/api/hal/catalog.js';
import { operationsFor, type BodySchemaLookup } from '../../../src/api/operations/available.js';
import { bodyPropertyNames } from '../../../src/api/operations/body.js';
import { createOperationForm } from '../../../src/api/operations/form.js';

/** What a body (JSON with comments) sends. */
function bodyValue(text: string): unknown {
  const parsed = parseBodyText(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

const index = {
  snapshots: {
    supported_versions: ['v1'],
    v1: {
      get_snapshot: { href: '/snapshots/{snapshot_id}', type: 'get', templated: true },
      list_snapshots: { href: '/snapshots{?limit}', type: 'get', templated: true },
    },
  },
  recoveries: {
    supported_versions: ['v1', 'v2'],
    v1: { start_recovery: { href: '/v1/recoveries', type: 'post', templated: false } },
    v2: {
      list_recoveries: { href: '/recoveries{?limit}', type: 'get', templated: true },
      start_recovery: { href: '/recoveries', type: 'post', templated: false },
      update_recovery: { href: '/recoveries/{recovery_id}', type: 'patch', templated: true },
    },
  },
  events: {
    supported_versions: ['v1'],
    v1: {
      list_events: { href: '/events{?snapshot_id,limit}', type: 'get', templated: true },
      get_event: { href: '/events/{id}', type: 'get', templated: true },
    },
  },
  copies: {
    supported_versions: ['v1'],
    v1: { copy_snapshot: { href: '/snapshots/{snapshot_id}/copies', type: 'post', templated: true } },
  },
};
const catalog = parseCatalog(index, 'service');

const startSchema = {
  type: 'object',
  required: ['snapshot_id', 'mode'],
  properties: {
    snapshot_id: { type: 'string' },
    mode: { type: 'string', enum: ['full', 'partial'] },
    note: { type: 'string' },
  },
};
const updateSchema = { type: 'object', properties: { note: { type: 'string' } } };
const schemas: Record<string, object> = {
  'recoveries v2 start_recovery': startSchema,
  'recoveries v1 start_recovery': startSchema,
  'recoveries v2 update_recovery': updateSchema,
};
const lookup: BodySchemaLookup = (resource, version, operationId) => schemas[`${resource} ${version} ${operationId}`];

describe('related operations', () => {
  it("follow the record's own operations: other resources whose body, query or path names <singular>_id", () => {
    const ops = operationsFor(catalog, 'snapshots', 'v1', { id: 's-1', name: 'nightly' }, lookup);
    expect(ops.map((op) => `${op.resource} ${op.version} ${op.id} ${op.related?.join(',') ?? '-'}`)).toEqual([
      'snapshots v1 get_snapshot -',
      'snapshots v1 list_snapshots -',
      'events v1 list_events snapshot_id',
      'recoveries v2 start_recovery snapshot_id',
      'copies v1 copy_snapshot snapshot_id',
    ]);
    const byId = Object.fromEntries(ops.map((op) => [op.id, op]));
    expect(byId['list_events']!.prefill).toEqual({ snapshot_id: 's-1' });
    expect(byId['start_recovery']!.prefill).toEqual({});
    expect(byId['copy_snapshot']!.prefill).toEqual({ snapshot_id: 's-1' });
    expect(byId['copy_snapshot']!.fillsFromRecord).toBe(true);
  });

  it("are offered only with a record, and never fill another resource's `id` or own-id variables", () => {
    expect(operationsFor(catalog, 'snapshots', 'v1', undefined, lookup).some((op) => op.related)).toBe(false);
    const fromEvent = operationsFor(catalog, 'events', 'v1', { id: 'e-1' }, lookup);
    expect(fromEvent.filter((op) => op.related)).toEqual([]);
  });

  it('singularise like the variable prefill: policy_id relates to a policies record', () => {
    const policies = parseCatalog(
      {
        policies: {
          supported_versions: ['v1'],
          v1: { list_policies: { href: '/policies', type: 'get', templated: false } },
        },
        runs: { supported_versions: ['v1'], v1: { run_policy: { href: '/runs', type: 'post', templated: false } } },
      },
      'service',
    );
    const schema = { type: 'object', properties: { policy_id: { type: 'string' } } };
    const ops = operationsFor(policies, 'policies', 'v1', { id: 'p-9' }, () => schema);
    expect(ops.filter((op) => op.related).map((op) => `${op.resource} ${op.id} ${op.related!.join(',')}`)).toEqual([
      'runs run_policy policy_id',
    ]);
  });
});

describe('body prefill from the record', () => {
  it('fills <singular>_id properties of the template with the record id, required or not, and keeps the rest', () => {
    const operation = catalog.resources
      .find((r) => r.name === 'recoveries')!
      .versions[0]!.operations.find((op) => op.id === 'start_recovery')!;
    const form = createOperationForm({
      resource: 'recoveries',
      version: 'v2',
      operation,
      bodySchema: startSchema,
      record: { resource: 'snapshots', fields: { id: 's-1' } },
    });
    expect(bodyValue(form.body)).toEqual({ snapshot_id: 's-1', mode: 'full' });
    const optional = { type: 'object', properties: { snapshot_id: { type: 'string' } } };
    expect(
      bodyValue(
        createOperationForm({
          resource: 'recoveries',
          version: 'v2',
          operation,
          bodySchema: optional,
          record: { resource: 'snapshots', fields: { id: 's-2' } },
        }).body,
      ),
    ).toEqual({ snapshot_id: 's-2' });
  });

  it('leaves the template alone without a record or when the record is of an unrelated resource', () => {
    const operation = catalog.resources
      .find((r) => r.name === 'recoveries')!
      .versions[0]!.operations.find((op) => op.id === 'start_recovery')!;
    const plain = bodyValue(
      createOperationForm({ resource: 'recoveries', version: 'v2', operation, bodySchema: startSchema }).body,
    );
    expect(plain).toEqual({ snapshot_id: '', mode: 'full' });
    const unrelated = createOperationForm({
      resource: 'recoveries',
      version: 'v2',
      operation,
      bodySchema: startSchema,
      record: { resource: 'events', fields: { id: 'e-1' } },
    });
    expect(bodyValue(unrelated.body)).toEqual(plain);
  });

  it('reads property names through a root $ref and allOf', () => {
    const schema = {
      $ref: '#/definitions/body',
      definitions: { body: { allOf: [{ properties: { a_id: {} } }, { properties: { b: {} } }] } },
    };
    expect(bodyPropertyNames(schema)).toEqual(['a_id', 'b']);
  });
});
