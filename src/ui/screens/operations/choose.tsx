// `x`: the operations the index offers for a resource version, then the related operations of other
// resources that take the open record's id; ● marks those the record fills. Enter opens the form.
import { Box, Text } from 'ink';
import { operationsFor, type AvailableOperation } from '../../../api/operations/available.js';
import { loadBodySchema } from '../../../api/operations/body.js';
import { createOperationForm } from '../../../api/operations/form.js';
import { isWriteMethod } from '../../../api/security/safety.js';
import { oneLine, truncate, wrapLines } from '../../../text/cells.js';
import { share, windowText } from '../../layout.js';
import { methodTone, Tinted } from '../../components/theme.js';
import { moveCursor } from '../../keys.js';
import { errorInfo } from '../../nav/problems.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import type { Flow } from './flow.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    operations: OperationsParams;
  }
}

export interface OperationsParams {
  origin: Origin;
  resource: string;
  version: string;
  record?: Record<string, unknown>;
  /** Opens this operation's form at once (the palette's "<resource> <operation-id>"). */
  operationId?: string;
}

export interface OperationsState extends ScreenBase, OperationsParams {
  cursor: number;
}

type Ctx = ScreenContext<OperationsState>;

function offered(ctx: Ctx): AvailableOperation[] {
  const { origin, resource, version, record } = ctx.state;
  const catalog = ctx.services.catalogOf(origin.connection);
  return catalog ? operationsFor(catalog, resource, version, record) : [];
}

async function choose(ctx: Ctx, choice: AvailableOperation): Promise<void> {
  const { origin, resource, record } = ctx.state;
  ctx.update({ loading: `opening ${choice.id}`, error: undefined });
  try {
    const schema = await loadBodySchema(
      { resource: choice.resource, version: choice.version, operationId: choice.id },
      origin.connection.schemaDir,
    );
    ctx.update({ loading: undefined });
    const form = createOperationForm({
      resource: choice.resource,
      version: choice.version,
      operation: choice.operation,
      prefill: choice.prefill,
      ou: origin.ou ?? '',
      ...(schema ? { bodySchema: schema.schema } : {}),
      ...(record ? { record: { resource, fields: record } } : {}),
    });
    const flow: Flow = { origin, start: ctx.id, ...(record ? { record: { resource, fields: record } } : {}) };
    ctx.nav.open('operation-form', { flow, form, ...(schema ? { schema } : {}) });
  } catch (error) {
    ctx.update({ loading: undefined, error: errorInfo(error) });
  }
}

export const operationsScreen: ScreenModule<OperationsState, OperationsParams> = {
  title: 'operations (x, Tab on home)',
  init: (params) => ({ ...params, cursor: 0 }),
  start: (ctx) => {
    if (!ctx.services.catalogOf(ctx.state.origin.connection))
      return ctx.update({ error: { title: 'the index is not loaded yet', lines: [], tone: 'warning' } });
    const chosen = ctx.state.operationId
      ? offered(ctx).find((op) => op.id === ctx.state.operationId && !op.related)
      : undefined;
    if (chosen) void choose(ctx, chosen);
  },
  origin: (s) => s.origin,
  crumb: () => 'operations',
  subject: (s) => `${s.resource}@${s.version}`,
  bindings: [
    {
      keys: ['up', 'k', 'down', 'j', 'home', 'end'],
      help: 'choose an operation',
      hint: '↑↓ move',
      run: (ctx, key) => ctx.update((s) => ({ cursor: moveCursor(s.cursor, offered(ctx).length, key, 1) })),
    },
    {
      keys: ['return'],
      help: 'open its form',
      hint: 'Enter open the form',
      run: (ctx) => {
        const choice = offered(ctx)[ctx.state.cursor];
        if (choice && !ctx.state.loading) void choose(ctx, choice);
      },
    },
    { keys: ['escape'], help: 'close the operations', hint: 'Esc back', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx, height, width }) => {
    const operations = offered(ctx);
    const readOnly = state.origin.connection.session.readOnly;
    const label = (op: AvailableOperation): string => (op.related ? `${op.resource} ${op.id}` : op.id);
    const idWidth = Math.min(40, Math.max(2, ...operations.map((op) => label(op).length)));
    const related = operations.filter((op) => op.related).length;
    const chosen = operations[state.cursor];
    const leftOut = chosen?.leftOut
      ? wrapLines(`${chosen.id}: ${chosen.leftOut}; it can still be tried`, Math.max(1, width - 1), 2)
      : [];
    const note = readOnly ? 1 : operations.length === 0 ? 1 : 0;
    // The title and the operation under the cursor first; then the note, why it is dimmed, and the rest.
    const [, listRoom = 0, noteRoom = 0, leftOutRoom = 0] = share(
      height,
      [
        { least: 1, most: 1 },
        { least: Math.min(2, operations.length), most: operations.length },
        { least: 0, most: note },
        { least: Math.min(1, leftOut.length), most: leftOut.length },
      ],
      [0, 2, 3, 1],
    );
    // A line says which operations are shown, when they are not all.
    const rows = operations.length > listRoom ? Math.max(1, listRoom - 1) : listRoom;
    const top = Math.max(0, Math.min(state.cursor - rows + 1, operations.length - rows));
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate">
          Operations of {oneLine(`${state.resource} ${state.version}`)}
          <Text dimColor>
            {' '}
            {operations.length - related} from the index{related > 0 ? ` · ${related} related` : ''}
            {state.record ? ' · ● the open record fills every path variable' : ''}
          </Text>
        </Text>
        {noteRoom > 0 && readOnly ? (
          <Tinted tone="busy">read-only: writes (anything but GET/HEAD) can be previewed but will not be sent</Tinted>
        ) : null}
        {noteRoom > 0 && operations.length === 0 ? (
          <Tinted tone="muted">the index lists no operations for this resource version</Tinted>
        ) : null}
        {operations.slice(top, top + rows).map((op, index) => {
          const selected = top + index === state.cursor;
          const blocked = readOnly && isWriteMethod(op.method);
          return (
            <Text
              key={`${op.resource} ${op.id}`}
              inverse={selected}
              dimColor={(blocked || op.leftOut !== undefined) && !selected}
              wrap="truncate"
            >
              {op.fillsFromRecord ? '●' : ' '}{' '}
              <Tinted tone={methodTone(op.method)}>{oneLine(op.method).padEnd(6)}</Tinted>{' '}
              {oneLine(label(op)).padEnd(idWidth)}{' '}
              {op.related ? oneLine(`related: ${op.related.join(', ')} ← this record  `) : ''}
              {truncate(op.href, Math.max(10, width - idWidth - 14))}
              {blocked ? ' (read-only)' : ''}
              {op.leftOut ? " (not in the record's _links)" : ''}
            </Text>
          );
        })}
        {operations.length > rows && rows > 0 ? (
          <Tinted tone="muted">
            {windowText('operations', { top, end: Math.min(operations.length, top + rows) }, operations.length)}
          </Tinted>
        ) : null}
        {leftOut.slice(0, leftOutRoom).map((line, index) => (
          <Tinted key={`left out ${index}`} tone="muted">
            {line}
          </Tinted>
        ))}
      </Box>
    );
  },
};
