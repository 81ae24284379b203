// The discovery index turned into resources → versions → operations. Nothing here trusts the index's
// order or completeness: versions are ranked by number, and a malformed entry becomes a warning.
import { isObject } from '../json.js';
import { templateVariables } from './template.js';

export interface Operation {
  id: string;
  /** Upper case. */
  method: string;
  href: string;
  templated: boolean;
  pathVariables: string[];
  queryVariables: string[];
}

export interface ResourceVersion {
  /** As the index spells it, lower case: 'v2'. */
  version: string;
  number: number;
  operations: Operation[];
}

export interface Resource {
  name: string;
  /** Newest first. */
  versions: ResourceVersion[];
  defaultVersion: string;
}

export interface Catalog {
  vendor: string;
  resources: Resource[];
  warnings: string[];
}

const VERSION = /^v(\d+)$/i;

/** The number of a version label ('v12' → 12), or undefined when it is not of the form v<N>. */
export function versionNumber(label: string): number | undefined {
  const match = VERSION.exec(label.trim());
  return match ? Number(match[1]) : undefined;
}

export function parseCatalog(body: unknown, vendor: string): Catalog {
  const warnings: string[] = [];
  const resources: Resource[] = [];
  if (!isObject(body)) {
    return { vendor, resources, warnings: ['the discovery index is not a JSON object'] };
  }
  for (const [name, entry] of Object.entries(body)) {
    // HAL decorations (_links, _embedded) are not resources.
    if (name.startsWith('_')) continue;
    const resource = parseResource(name, entry, warnings);
    if (resource) resources.push(resource);
  }
  return { vendor, resources, warnings };
}

function parseResource(name: string, entry: unknown, warnings: string[]): Resource | undefined {
  if (!isObject(entry)) {
    warnings.push(`resource ${name}: not an object; skipped`);
    return undefined;
  }
  const labels = new Set<string>();
  const supported = entry['supported_versions'];
  if (Array.isArray(supported)) {
    for (const label of supported) {
      if (typeof label === 'string' && versionNumber(label) !== undefined) labels.add(label.trim().toLowerCase());
      else
        warnings.push(`resource ${name}: supported version ${JSON.stringify(label)} is not of the form v<N>; skipped`);
    }
  } else {
    warnings.push(`resource ${name}: supported_versions is missing or not an array`);
  }
  for (const key of Object.keys(entry)) {
    const label = key.toLowerCase();
    if (versionNumber(key) !== undefined && !labels.has(label)) {
      warnings.push(`resource ${name}: version ${key} is described but not listed in supported_versions`);
      labels.add(label);
    }
  }

  const versions: ResourceVersion[] = [];
  for (const label of labels) {
    // 'v1' and 'v01' name one version; asking for either must not find an arbitrary one of the two.
    const same = versions.find((version) => version.number === versionNumber(label));
    if (same) {
      warnings.push(`resource ${name}: version ${label} is the same version as ${same.version}; skipped`);
      continue;
    }
    const key = Object.keys(entry).find((candidate) => candidate.toLowerCase() === label);
    const operations = key === undefined ? undefined : entry[key];
    if (!isObject(operations)) {
      warnings.push(`resource ${name}: version ${label} has no operations object; skipped`);
      continue;
    }
    versions.push({
      version: label,
      number: versionNumber(label)!,
      operations: parseOperations(`${name} ${label}`, operations, warnings),
    });
  }
  versions.sort((a, b) => b.number - a.number);
  const newest = versions[0];
  if (!newest) {
    warnings.push(`resource ${name}: no usable version; skipped`);
    return undefined;
  }
  return { name, versions, defaultVersion: newest.version };
}

function parseOperations(where: string, operations: Record<string, unknown>, warnings: string[]): Operation[] {
  const parsed: Operation[] = [];
  for (const [id, descriptor] of Object.entries(operations)) {
    if (!isObject(descriptor)) {
      warnings.push(`${where}: operation ${id} is not an object; skipped`);
      continue;
    }
    const { href, type, templated } = descriptor;
    if (typeof href !== 'string' || href.trim() === '') {
      warnings.push(`${where}: operation ${id} has no href; skipped`);
      continue;
    }
    if (typeof type !== 'string' || !/^[a-z]+$/i.test(type)) {
      warnings.push(`${where}: operation ${id} has no HTTP method in "type"; skipped`);
      continue;
    }
    const hasExpressions = href.includes('{');
    if (templated !== undefined && typeof templated !== 'boolean') {
      warnings.push(`${where}: operation ${id} has a non-boolean "templated"; read from its href`);
    } else if (templated === false && hasExpressions) {
      warnings.push(
        `${where}: operation ${id} is marked not templated but its href has template expressions; treated as templated`,
      );
    }
    const isTemplated = templated === true || hasExpressions;
    const variables = isTemplated ? templateVariables(href) : { path: [], query: [] };
    parsed.push({
      id,
      method: type.toUpperCase(),
      href,
      templated: isTemplated,
      pathVariables: variables.path,
      queryVariables: variables.query,
    });
  }
  return parsed;
}

export function findResource(catalog: Catalog, name: string): Resource | undefined {
  return (
    catalog.resources.find((resource) => resource.name === name) ??
    catalog.resources.find((resource) => resource.name.toLowerCase() === name.toLowerCase())
  );
}

/** The named version ('v2', 'V2' or '2'), or the default (newest) one when none is named. */
export function findVersion(resource: Resource, version?: string): ResourceVersion | undefined {
  if (version === undefined || version === '') return resource.versions[0];
  const number = versionNumber(/^\d+$/.test(version.trim()) ? `v${version.trim()}` : version);
  return number === undefined ? undefined : resource.versions.find((candidate) => candidate.number === number);
}
