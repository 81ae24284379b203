// One record: a tree of its fields (nested values fold), then its links to follow; or raw JSON.
import type { ReactElement } from 'react';
import { Box, Text } from 'ink';
import type { Link } from '../../../api/hal/links.js';
import { oneLine, truncate } from '../../../text/cells.js';
import type { TreeLine } from '../../tree.js';
import { formatExact, summarise } from '../../values.js';
import { Tinted } from '../../components/theme.js';

export interface RecordViewProps {
  lines: TreeLine[];
  links: Link[];
  cursor: number;
  top: number;
  height: number;
  raw: boolean;
  record: unknown;
  columns: number;
  now: number;
  /** Fields that changed since the version before, by path, with the value they had. */
  changed?: ReadonlyMap<string, unknown>;
  /** What the first line says about the version on show, when the record has more than one. */
  version?: string;
  /** The names of the records its top-level id fields refer to, where known: shown beside the ids. */
  names?: ReadonlyMap<string, string>;
}

/** Whether a line is a changed field, or holds one. */
function touched(field: string, changed: ReadonlyMap<string, unknown>): boolean {
  if (changed.has(field)) return true;
  for (const path of changed.keys()) if (path.startsWith(`${field}.`) || path.startsWith(`${field}[`)) return true;
  return false;
}

function was(value: unknown): string {
  return value === undefined
    ? 'absent'
    : typeof value === 'string'
      ? JSON.stringify(value)
      : (JSON.stringify(value) ?? String(value));
}

export function RecordView({
  lines,
  links,
  cursor,
  top,
  height,
  raw,
  record,
  columns,
  now,
  changed,
  version,
  names,
}: RecordViewProps) {
  if (raw) {
    const text = JSON.stringify(record, null, 2).split('\n');
    return (
      <Box flexDirection="column">
        <Tinted tone="muted">raw JSON ({text.length} lines) · y for the tree</Tinted>
        {text.slice(top, top + height - 1).map((line, i) => (
          <Text key={i} wrap="truncate">
            {oneLine(line)}
          </Text>
        ))}
      </Box>
    );
  }
  const items: { key: string; node: ReactElement }[] = [];
  const first = Math.max(0, top);
  const last = first + height - 1;
  lines.forEach((line, index) => {
    if (index < first || index >= last) return;
    const selected = index === cursor;
    const indent = '  '.repeat(line.depth);
    const marker = line.container ? (line.collapsed ? '▸ ' : '▾ ') : '  ';
    const value = line.container
      ? { text: line.collapsed ? `${summarise(line.value)} (${line.size})` : '', tone: 'muted' as const }
      : formatExact(line.value, now);
    const change = changed !== undefined && touched(line.field, changed);
    const before =
      change && !line.container && changed.has(line.field) ? `  (was ${was(changed.get(line.field))})` : '';
    const name = line.depth === 0 && !line.container ? names?.get(line.field) : undefined;
    items.push({
      key: line.path,
      node: (
        <Text wrap="truncate">
          <Tinted inverse={selected} bold={selected}>
            {selected ? '›' : ' '}
          </Tinted>
          {indent}
          {marker}
          <Tinted tone={change ? 'busy' : 'info'} inverse={change}>
            {oneLine(line.label)}
          </Tinted>
          {line.container ? '' : ': '}
          <Tinted tone={change ? 'busy' : value.tone} bold={change}>
            {truncate(value.text, Math.max(10, columns - indent.length - line.label.length - 8))}
          </Tinted>
          {name ? <Tinted tone="good"> · {oneLine(name)}</Tinted> : null}
          {before ? <Tinted tone="muted">{oneLine(before)}</Tinted> : null}
        </Text>
      ),
    });
  });
  links.forEach((link, i) => {
    const index = lines.length + i;
    if (index < first || index >= last) return;
    const selected = index === cursor;
    const label = `${link.method && link.method.toUpperCase() !== 'GET' ? `${link.method.toUpperCase()} ` : ''}${link.templated ? '{…} ' : ''}${link.href}`;
    items.push({
      key: `link:${i}`,
      node: (
        <Text wrap="truncate">
          <Tinted inverse={selected} bold={selected}>
            {selected ? '›' : ' '}
          </Tinted>
          {i === 0 ? <Tinted tone="stopped">→ </Tinted> : '  '}
          <Tinted tone="stopped" bold>
            {oneLine(link.rel)}
          </Tinted>{' '}
          <Tinted tone="muted">{truncate(label, Math.max(10, columns - link.rel.length - 8))}</Tinted>
        </Text>
      ),
    });
  });
  return (
    <Box flexDirection="column">
      <Tinted tone="muted">
        {version ? `${version} · ` : ''}
        {lines.length} fields · {links.length} links (Enter follows) · y raw JSON
      </Tinted>
      {items.map((item) => (
        <Box key={item.key}>{item.node}</Box>
      ))}
    </Box>
  );
}
