// Vendor media types select a resource's version: application/api.<vendor>.<resource>=v<N>+json.

const VENDOR_MEDIA_TYPE = /^\s*application\/api\.([^.\s;=/]+)\.([^\s;=]+)=(v\d+)\+json\s*(;|$)/i;

export function vendorMediaType(vendor: string, resource: string, version: string): string {
  return `application/api.${vendor}.${resource}=${version}+json`;
}

/** Reads a Content-Type (or one Accept entry) back into its parts; `resource` is `*` for the wildcard form. */
export function parseVendorMediaType(
  contentType: string,
): { vendor: string; resource: string; version: string } | undefined {
  const match = VENDOR_MEDIA_TYPE.exec(contentType);
  if (!match) return undefined;
  return { vendor: match[1]!, resource: match[2]!, version: match[3]!.toLowerCase() };
}

/** True for any JSON-bearing content type: application/json, +json suffixes, the vendor family. */
export function isJsonMediaType(contentType: string): boolean {
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json') || essence.startsWith('application/api.');
}
