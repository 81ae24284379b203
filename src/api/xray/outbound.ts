// The links of a record that an x-ray follows: plain links, each entry of a link array, and templated
// links whose path variables the record fills. Paging relations and actions (links with a method other
// than GET) lead nowhere new; a template the record cannot fill is not guessed at.
import { isObject } from '../json.js';
import { isPagingRel, recordLinks } from '../hal/links.js';
import { resolveHref } from '../hal/operation.js';
import { prefillFromRecord } from '../operations/prefill.js';
import { expandTemplate, templateVariables } from '../hal/template.js';
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

export function linkTargets(record: Record<string, unknown>, resourceName: string, baseUrl: string): { targets: LinkTarget[]; skipped: LinkSkipped[] } {
  const raw = isObject(record['_links']) ? record['_links'] : {};
  const targets: LinkTarget[] = [];
  const skipped: LinkSkipped[] = [];
  const seenOfRel = new Map<string, number>();
  for (const link of recordLinks(record)) {
    const index = seenOfRel.get(link.rel) ?? 0;
    seenOfRel.set(link.rel, index + 1);
    const via = Array.isArray(raw[link.rel]) ? `_links.${link.rel}[${index}]` : `_links.${link.rel}`;
    if (isPagingRel(link.rel)) continue;
    const method = link.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      skipped.push({ rel: link.rel, via, reason: `a ${method} link (an action), not a record` });
      continue;
    }
    let href = link.href;
    if (link.templated) {
      const variables = templateVariables(link.href);
      const values = filledVariables(link.href, variables, record, resourceName);
      const missing = variables.path.filter((name) => values[name] === undefined);
      if (missing.length > 0) {
        skipped.push({ rel: link.rel, via, reason: `the record does not fill ${missing.join(', ')} of ${link.href}` });
        continue;
      }
      try {
        href = expandTemplate(link.href, values);
      } catch (error) {
        skipped.push({ rel: link.rel, via, reason: messageOf(error) });
        continue;
      }
    }
    try {
      targets.push({ rel: link.rel, via, url: resolveHref(baseUrl, href) });
    } catch (error) {
      skipped.push({ rel: link.rel, via, reason: messageOf(error) });
    }
  }
  return { targets, skipped };
}

/**
 * The operations' prefill rules, the link read as the GET it is, with one restraint for links: a variable
 * named like a field the record has takes that field or nothing. A backup whose `task_id` is null has no
 * task, and its `{task_id}` link must not be filled with the backup's own id.
 */
function filledVariables(href: string, variables: { path: string[]; query: string[] }, record: Record<string, unknown>, resourceName: string): Record<string, string> {
  const asOperation = { id: '', method: 'GET', href, templated: true, pathVariables: variables.path, queryVariables: variables.query };
  const values = prefillFromRecord(asOperation, record, resourceName);
  for (const name of Object.keys(values)) {
    if (name in record && (record[name] === null || record[name] === undefined)) delete values[name];
  }
  return values;
}
