// `x`: the operations the index offers for a resource version, then the related operations of other
// resources that take the open record's id; ● marks those the current record fills.
import { Box, Text } from 'ink';
import type { AvailableOperation } from '../../api/operations/available.js';
import { isWriteMethod } from '../../api/safety.js';
import { truncate } from '../../text/cells.js';
import { methodTone, Tinted } from '../components/theme.js';
import { isChar, useKeys, useLiveState } from './use-keys.js';

export interface OperationsListProps {
  resource: string;
  version: string;
  operations: AvailableOperation[];
  /** True when a record is open, so the ● marks mean something. */
  hasRecord: boolean;
  readOnly: boolean;
  /** Rows available for the list itself. */
  height?: number;
  width?: number;
  onChoose(operation: AvailableOperation): void;
  onCancel(): void;
  isActive?: boolean;
}

export function OperationsList(props: OperationsListProps): React.ReactElement {
  const [cursor, setCursor, liveCursor] = useLiveState(0);
  const count = props.operations.length;
  const height = Math.max(3, props.height ?? 15);
  const width = props.width ?? 100;
  useKeys((key) => {
    if (key.name === 'escape' || isChar(key, 'q')) props.onCancel();
    else if (key.name === 'up' || isChar(key, 'k')) setCursor((at) => Math.max(0, at - 1));
    else if (key.name === 'down' || isChar(key, 'j')) setCursor((at) => Math.min(count - 1, at + 1));
    else if (key.name === 'home') setCursor(0);
    else if (key.name === 'end') setCursor(count - 1);
    else if (key.name === 'return') {
      const chosen = props.operations[Math.min(liveCursor(), count - 1)];
      if (chosen) props.onChoose(chosen);
    }
  }, props.isActive ?? true);

  const top = Math.max(0, Math.min(cursor - height + 1, count - height));
  const visible = props.operations.slice(top, top + height);
  const label = (op: AvailableOperation): string => (op.related ? `${op.resource} ${op.id}` : op.id);
  const idWidth = Math.min(40, Math.max(2, ...props.operations.map((op) => label(op).length)));
  const relatedCount = props.operations.filter((op) => op.related).length;
  return (
    <Box flexDirection="column">
      <Text bold>
        Operations of {props.resource} {props.version}
        <Text dimColor>  {count - relatedCount} from the index{relatedCount > 0 ? ` · ${relatedCount} related` : ''}{props.hasRecord ? ' · ● the open record fills every path variable' : ''}</Text>
      </Text>
      {props.readOnly && <Tinted tone="busy">read-only: writes (anything but GET/HEAD) can be previewed but will not be sent</Tinted>}
      {count === 0 && <Text dimColor>the index lists no operations for this resource version</Text>}
      {visible.map((op, index) => {
        const selected = top + index === cursor;
        const blocked = props.readOnly && isWriteMethod(op.method);
        const mark = op.fillsFromRecord ? '●' : ' ';
        return (
          <Text key={`${op.resource} ${op.id}`} inverse={selected} dimColor={blocked && !selected} wrap="truncate">
            {mark} <Tinted tone={methodTone(op.method)}>{op.method.padEnd(6)}</Tinted> {label(op).padEnd(idWidth)}  {op.related ? `related: ${op.related.join(', ')} ← this record  ` : ''}
            {truncate(op.href, Math.max(10, width - idWidth - 14))}
            {blocked ? ' (read-only)' : ''}
          </Text>
        );
      })}
      <Text dimColor>↑↓ move · Enter open the form · Esc back</Text>
    </Box>
  );
}
