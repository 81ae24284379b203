// What reading a case asks of a recorded body (har-collect.ts): its text, wherever the HAR keeps it, and
// whether it is a discovery index.

import { parseCatalog, type Catalog } from '../hal/catalog.js';
import { isObject } from '../json.js';
import { parseVendorMediaType } from '../media.js';
import { TRUNCATED_COMMENT } from './har-entry.js';

/** An answer this large is not a discovery index. */
const MAX_INDEX_CHARS = 8 * 1024 * 1024;

/** A body kept in a file beside the HAR (Playwright's `content._file`): its text, undefined when it is not there. */
export type Attachment = (name: string) => string | undefined;

/** A body as text: browsers store binary and sometimes JSON as base64; Playwright may keep it in a file beside. */
export function contentText(content: Record<string, unknown>, attachment?: Attachment): string | undefined {
  const text = content['text'];
  if (content['comment'] === TRUNCATED_COMMENT) return undefined;
  if (typeof text !== 'string')
    return typeof content['_file'] === 'string' && attachment ? attachment(content['_file']) : undefined;
  return content['encoding'] === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

/** The resource index a recorded answer of `contentType` holds; undefined when it is no index. */
export function indexCatalog(contentType: string, text: string): Catalog | undefined {
  if (text.length > MAX_INDEX_CHARS) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(body) || isObject(body['_embedded'])) return undefined;
  const vendor = parseVendorMediaType(contentType)?.vendor ?? 'service';
  const catalog = parseCatalog(body, vendor);
  return catalog.resources.length > 0 ? catalog : undefined;
}
