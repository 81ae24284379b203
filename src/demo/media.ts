import { DemoError } from './errors.js';

/** The resource part of the root index's media type: `application/api.<vendor>.*=v1+json`. */
export const ANY_RESOURCE = '*';

export function mediaType(vendor: string, resource: string, version: string): string {
  return `application/api.${vendor}.${resource}=${version}+json`;
}

interface MediaRange {
  raw: string;
  q: number;
  vendor?: { vendor: string; resource: string; version: string };
  generic: boolean;
}

const VENDOR_RANGE = /^application\/api\.([a-z0-9_-]+)\.([a-z0-9_*-]+)=(v\d+)\+json$/i;
const GENERIC_RANGES = new Set(['*/*', 'application/*', 'application/json', 'application/hal+json']);

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      const qParam = params.find((p) => p.toLowerCase().startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      const vendorMatch = VENDOR_RANGE.exec(type);
      const range: MediaRange = {
        raw: type,
        q: Number.isFinite(q) ? q : 0,
        generic: GENERIC_RANGES.has(type.toLowerCase()),
      };
      if (vendorMatch?.[1] && vendorMatch[2] && vendorMatch[3]) {
        range.vendor = {
          vendor: vendorMatch[1].toLowerCase(),
          resource: vendorMatch[2].toLowerCase(),
          version: vendorMatch[3].toLowerCase(),
        };
      }
      return range;
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q);
}

/**
 * The version of `resource` the Accept header asks for. No Accept, or a generic one, gives the newest;
 * a vendor range for this resource (or the `*` wildcard) gives its version if supported, else 406.
 * `supported` is newest first.
 */
export function negotiateVersion(
  accept: string | undefined,
  vendor: string,
  resource: string,
  supported: readonly string[],
): string {
  const newest = supported[0];
  if (!newest) throw new Error(`resource ${resource} supports no version`);
  if (accept === undefined || accept.trim() === '') return newest;
  let unsupported: string | undefined;
  for (const range of parseAccept(accept)) {
    if (range.generic) return newest;
    const wanted = range.vendor;
    if (!wanted || wanted.vendor !== vendor) continue;
    if (wanted.resource !== resource && wanted.resource !== ANY_RESOURCE) continue;
    if (supported.includes(wanted.version)) return wanted.version;
    unsupported ??= wanted.version;
  }
  if (unsupported) {
    throw new DemoError(
      406,
      'unsupported_version',
      `${resource === ANY_RESOURCE ? 'The resource index' : `Resource ${resource}`} has no version ${unsupported}; supported: ${supported.join(', ')}`,
    );
  }
  throw new DemoError(
    406,
    'not_acceptable',
    `Accept "${accept}" names no media type this endpoint serves; use ${mediaType(vendor, resource, newest)} or ${mediaType(vendor, ANY_RESOURCE, newest)}`,
  );
}
