import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { valueAt } from '../../../src/api/json.js';
import { parseFields, selectFields } from '../../../src/cli/format/fields.js';

describe('valueAt', () => {
  const record = {
    id: 'r1',
    owner: { email: 'a@b', team: { name: 'core' } },
    'owner.email': 'literal',
    tags: ['x'],
    none: null,
  };

  it('reads nested values by a dotted path', () => {
    expect(valueAt(record, 'owner.team.name')).toBe('core');
    expect(valueAt(record, 'none')).toBeNull();
  });

  it('a key spelled with the dot itself wins over the nested value', () => {
    expect(valueAt(record, 'owner.email')).toBe('literal');
  });

  it('is undefined when a step is missing or not an object, never an error', () => {
    expect(valueAt(record, 'owner.phone')).toBeUndefined();
    expect(valueAt(record, 'id.length')).toBeUndefined();
    expect(valueAt(record, 'tags.0')).toBeUndefined();
    expect(valueAt(record, 'none.x')).toBeUndefined();
    expect(valueAt(record, 'toString')).toBeUndefined();
  });
});

describe('parseFields and selectFields', () => {
  it('reads a comma list, trims names, drops repeats and keeps the order', () => {
    expect(parseFields(' b, a.c ,b')).toEqual(['b', 'a.c']);
    expect(parseFields(undefined)).toBeUndefined();
  });

  it('refuses empty names and empty path steps', () => {
    for (const text of ['', ',', 'a,,b', '.a', 'a..b', 'a.']) expect(() => parseFields(text)).toThrow(UsageError);
  });

  it('keys the chosen values by their paths, in the order asked, leaving out what the record lacks', () => {
    const selected = selectFields({ id: 1, nested: { x: 2 }, other: 3 }, ['nested.x', 'missing', 'id']);
    expect(selected).toEqual({ 'nested.x': 2, id: 1 });
    expect(Object.keys(selected)).toEqual(['nested.x', 'id']);
  });
});
