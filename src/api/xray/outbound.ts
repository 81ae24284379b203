// The links of a record that an x-ray follows: plain links, each entry of a link array, and templated
// links whose path variables the record fills. Paging relations and actions (links with a method other
// than GET) lead nowhere new; a template the record cannot fill is not guessed at.
import { isObject } from '../json.js';
import type { Links } from 'ketting/dist/link.js';
import { expandedLink, halLinks, isPagingRel, linkUrl, type Link } from '../hal/links.js';
import { prefillFromRecord } from '../operations/prefill.js';
import { templateVariables } from '../hal/template.js';
import { messageOf } from '../errors.js';

export interface LinkTarget {
  rel: string;
  via: string;
  url: string;
}

export interface LinkSkipped {
  rel: string;
  via: string;
  reason: string;
}

export function linkTargets(
  record: Record<string, unknown>,
  resourceName: string,
  baseUrl: string,
): { targets: LinkTarget[]; skipped: LinkSkipped[] } {
  const raw = isObject(record['_links']) ? record['_links'] : {};
  const links: Links = halLinks(raw);
  const targets: LinkTarget[] = [];
  const skipped: LinkSkipped[] = [];
  for (const rel of new Set(links.getAll().map((link) => link.rel))) {
    if (isPagingRel(rel)) continue;
    // A relation's links in order (ketting's getMany): an entry of a link array is named by its place.
    for (const [index, link] of (links.getMany(rel) as Link[]).entries()) {
      const via = Array.isArray(raw[rel]) ? `_links.${rel}[${index}]` : `_links.${rel}`;
      const target = linkTarget(link, via, record, resourceName, baseUrl);
      if ('url' in target) targets.push(target);
      else skipped.push(target);
    }
  }
  return { targets, skipped };
}

/** Where one link of the record leads, or why it is not followed. */
function linkTarget(
  link: Link,
  via: string,
  record: Record<string, unknown>,
  resourceName: string,
  baseUrl: string,
): LinkTarget | LinkSkipped {
  const method = link.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD')
    return { rel: link.rel, via, reason: `a ${method} link (an action), not a record` };
  let values: Record<string, string> = {};
  if (link.templated) {
    const variables = templateVariables(link.href);
    values = filledVariables(link.href, variables, record, resourceName);
    const missing = variables.path.filter((name) => values[name] === undefined);
    if (missing.length > 0)
      return { rel: link.rel, via, reason: `the record does not fill ${missing.join(', ')} of ${link.href}` };
  }
  try {
    return { rel: link.rel, via, url: linkUrl(expandedLink(link, values), baseUrl) };
  } catch (error) {
    return { rel: link.rel, via, reason: messageOf(error) };
  }
}

/**
 * The operations' prefill rules, the link read as the GET it is, with one restraint for links: a variable
 * named like a field the record has takes that field or nothing. A backup whose `task_id` is null has no
 * task, and its `{task_id}` link must not be filled with the backup's own id.
 */
function filledVariables(
  href: string,
  variables: { path: string[]; query: string[] },
  record: Record<string, unknown>,
  resourceName: string,
): Record<string, string> {
  const asOperation = {
    id: '',
    method: 'GET',
    href,
    templated: true,
    pathVariables: variables.path,
    queryVariables: variables.query,
  };
  const values = prefillFromRecord(asOperation, record, resourceName);
  for (const name of Object.keys(values)) {
    if (name in record && (record[name] === null || record[name] === undefined)) delete values[name];
  }
  return values;
}
