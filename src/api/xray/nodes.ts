// The x-ray's records as nodes, and the URLs they are known by.
import type { Resource } from '../hal/catalog.js';
import { scalarText } from '../json.js';
import { linkOf, linkUrl, recordLinks, resolveHref } from '../hal/links.js';
import { findReadOperation } from '../hal/operation.js';
import { taskStatus } from '../operations/task.js';
import { recordId, recordLabel, recordName } from '../hal/records.js';
import { expandTemplate } from '../hal/template.js';
import type { XrayNode } from './graph.js';
import { eventOf } from './history.js';

export function recordNode(
  key: string,
  url: string | undefined,
  resource: string,
  version: string,
  depth: number,
  record: Record<string, unknown>,
): XrayNode {
  // A record without a name (an audit entry) reads better as what it records than as its id.
  const label =
    recordName(record)?.name ?? scalarText(record['email']) ?? eventOf(record)?.text ?? recordLabel(record) ?? key;
  const node: XrayNode = { key, resource, version, label, depth, state: 'loaded', record };
  if (url !== undefined) node.url = url;
  const id = recordId(record);
  if (id !== undefined) node.id = id;
  const status = taskStatus(record);
  if (status !== undefined) node.status = status;
  return node;
}

export function selfUrl(record: Record<string, unknown>, baseUrl: string): string | undefined {
  const self = linkOf(recordLinks(record), 'self');
  if (!self || self.templated) return undefined;
  try {
    return linkUrl(self, baseUrl);
  } catch {
    return undefined;
  }
}

/** Where a record without a self link is read: its resource's read operation, given its id. */
export function readUrl(
  resource: Resource,
  version: string,
  record: Record<string, unknown>,
  baseUrl: string,
): string | undefined {
  const id = recordId(record);
  const read = findReadOperation(resource, version);
  if (id === undefined || !read) return undefined;
  try {
    return resolveHref(baseUrl, expandTemplate(read.operation.href, { [read.operation.pathVariables[0]!]: id }));
  } catch {
    return undefined;
  }
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
