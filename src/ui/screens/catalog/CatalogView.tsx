// Home: every resource the index offers, with its versions, its operations and whether it lists (at the
// top level, or only under a parent record).
import { Box, Text } from 'ink';
import type { Resource } from '../../../api/hal/catalog.js';
import { listOperations } from '../../../api/hal/operation.js';
import { fit, oneLine, truncate } from '../../../text/cells.js';
import { Tinted } from '../../components/theme.js';

export interface CatalogViewProps {
  resources: Resource[];
  total: number;
  filter: string;
  editing: boolean;
  cursor: number;
  height: number;
  columns: number;
}

export function CatalogView({ resources, total, filter, editing, cursor, height, columns }: CatalogViewProps) {
  const rows = height - 1;
  const top = Math.max(0, Math.min(cursor - Math.floor(rows / 2), resources.length - rows));
  const nameWidth = Math.min(28, Math.max(8, ...resources.map((r) => r.name.length)));
  const shown = resources.slice(top, top + rows);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        {editing || filter ? (
          <Tinted tone="info">
            filter: {oneLine(filter)}
            {editing ? '▏' : ''}
          </Tinted>
        ) : (
          <Tinted tone="muted">/ to filter ·</Tinted>
        )}
        <Tinted tone="muted">
          {' '}
          {resources.length}/{total} resources · Enter lists · :name vN another version
        </Tinted>
      </Text>
      {shown.map((resource, i) => {
        const selected = top + i === cursor;
        const versions = resource.versions.map((v) => v.version).join(' ');
        const version = resource.versions.find((v) => v.version === resource.defaultVersion) ?? resource.versions[0];
        const lists = resource.versions.flatMap((v) => listOperations(v));
        // A resource listed only under a parent record asks for the parent when opened: marked {…}, as a templated link is.
        const listMark = lists.some((o) => o.pathVariables.length === 0)
          ? 'list ✓'
          : lists.length > 0
            ? 'list {…}'
            : '';
        const operations = version ? version.operations.map((o) => `${o.method} ${o.id}`).join(', ') : '';
        const rest = Math.max(0, columns - nameWidth - 30);
        return (
          <Text key={resource.name} wrap="truncate">
            <Tinted bold={selected} inverse={selected}>
              {selected ? '› ' : '  '}
              {fit(resource.name, nameWidth)}
            </Tinted>{' '}
            {fit(versions, 8)}{' '}
            {listMark ? (
              <Tinted tone="good">{fit(listMark, 8)}</Tinted>
            ) : (
              <Tinted tone="muted">{fit('no list', 8)}</Tinted>
            )}{' '}
            <Tinted tone="muted">{fit(`${version?.operations.length ?? 0} ops`, 7)}</Tinted>{' '}
            <Tinted tone="muted">{truncate(operations, rest)}</Tinted>
          </Text>
        );
      })}
      {resources.length === 0 && total > 0 ? (
        <Tinted tone="muted"> nothing matches "{filter}" (Backspace edits, Esc clears)</Tinted>
      ) : null}
    </Box>
  );
}
