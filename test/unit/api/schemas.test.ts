import { describe, expect, it } from 'vitest';
import { compileBodyCheck } from '../../../src/api/hal/schema-compiler.js';
import { bodyCheckFor } from '../../../src/api/hal/body-check.js';
import { bodySchemaFor, checkErrorEnvelope, checkIndex } from '../../../src/api/hal/schemas.js';

describe('schemas', () => {
  it('reports mismatches as warnings with JSON pointers, never throws', () => {
    expect(
      checkIndex({ things: { supported_versions: 'v1' } }).some((warning) => warning.startsWith('index /things')),
    ).toBe(true);
    expect(checkIndex(null).length).toBeGreaterThan(0);
    expect(checkErrorEnvelope({ errors: [{ error_code: 'a', error_message: 'b' }] })).toEqual([]);
  });

  it('checks bodies with precompiled and with run-time schemas', () => {
    expect(bodySchemaFor('no-such-resource', 'v1', 'x')).toBeUndefined();
    expect(bodyCheckFor('no-such-resource', 'v1', 'x')).toBeUndefined();
    expect(bodyCheckFor('restores', 'v1', 'create_restore')!({})).toEqual([
      `body /: must have required property 'backup_id'`,
    ]);
    const runTime = compileBodyCheck({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
    expect(runTime({ name: 'x' })).toEqual([]);
    expect(runTime({ name: 1 })).toEqual(['body /name: must be string']);
  });
});
