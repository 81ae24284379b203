import { describe, expect, it } from 'vitest';
import { isJsonMediaType, parseVendorMediaType, vendorMediaType } from '../../../src/api/media.js';

describe('vendor media types', () => {
  it('builds and reads back a resource version', () => {
    const type = vendorMediaType('acme', 'protection-groups', 'v3');
    expect(type).toBe('application/api.acme.protection-groups=v3+json');
    expect(parseVendorMediaType(type)).toEqual({ vendor: 'acme', resource: 'protection-groups', version: 'v3' });
  });

  it('reads the wildcard form with parameters', () => {
    expect(parseVendorMediaType('application/api.other.*=v1+json; charset=utf-8')).toEqual({
      vendor: 'other',
      resource: '*',
      version: 'v1',
    });
  });

  it('rejects what is not of the vendor family', () => {
    expect(parseVendorMediaType('application/json')).toBeUndefined();
    expect(parseVendorMediaType('application/api.acme.things=2+json')).toBeUndefined();
    expect(parseVendorMediaType('text/html')).toBeUndefined();
  });

  it('knows JSON when it sees it', () => {
    expect(isJsonMediaType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('application/hal+json')).toBe(true);
    expect(isJsonMediaType('application/api.acme.x=v1+json')).toBe(true);
    expect(isJsonMediaType('text/html; charset=utf-8')).toBe(false);
  });
});
