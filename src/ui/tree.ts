// A record as the lines of a collapsible tree. `_links` are left out: the detail view lists them
// separately, as things to follow.
import { childPath } from '../api/case/diff.js';

export interface TreeLine {
  /** JSON pointer of the value, the key of its collapsed state. */
  path: string;
  /** The value's path as comparisons name it (`role.id`, `items[2]`). */
  field: string;
  depth: number;
  label: string;
  value: unknown;
  container: 'object' | 'array' | undefined;
  size: number;
  collapsed: boolean;
}

const LARGE = 12;

function pointer(parent: string, key: string): string {
  return `${parent}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function entriesOf(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  if (value && typeof value === 'object') return Object.entries(value);
  return [];
}

function containerOf(value: unknown): TreeLine['container'] {
  if (Array.isArray(value)) return 'array';
  return value && typeof value === 'object' ? 'object' : undefined;
}

/** Containers that start collapsed: large ones, so a record opens readable. */
export function initiallyCollapsed(record: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (value: unknown, path: string): void => {
    for (const [key, child] of entriesOf(value)) {
      if (path === '' && key === '_links') continue;
      const childPath = pointer(path, key);
      if (containerOf(child)) {
        if (entriesOf(child).length > LARGE) out.add(childPath);
        visit(child, childPath);
      }
    }
  };
  visit(record, '');
  return out;
}

/** The visible lines of `record`, given which containers are collapsed. */
export function flattenTree(record: unknown, collapsed: ReadonlySet<string>): TreeLine[] {
  const lines: TreeLine[] = [];
  const visit = (value: unknown, path: string, field: string, depth: number): void => {
    for (const [key, child] of entriesOf(value)) {
      if (depth === 0 && key === '_links') continue;
      const at = pointer(path, key);
      const named = childPath(field, Array.isArray(value) ? Number(key) : key);
      const container = containerOf(child);
      const isCollapsed = container !== undefined && collapsed.has(at);
      lines.push({
        path: at,
        field: named,
        depth,
        label: key,
        value: child,
        container,
        size: entriesOf(child).length,
        collapsed: isCollapsed,
      });
      if (container && !isCollapsed) visit(child, at, named, depth + 1);
    }
  };
  visit(record, '', '', 0);
  return lines;
}
