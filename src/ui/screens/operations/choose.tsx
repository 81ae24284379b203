// `x`: the operations the index offers for a resource version, then the related operations of other
// resources that take the open record's id; ● marks those the record fills. Enter opens the form.
import { Box, Text } from 'ink';
import { operationsFor, type AvailableOperation } from '../../../api/operations/available.js';
import { loadBodySchema } from '../../../api/operations/body.js';
import { createOperationForm } from '../../../api/operations/form.js';
import { isWriteMethod } from '../../../api/security/safety.js';
import { oneLine, truncate } from '../../../text/cells.js';
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
    const schema = await loadBodySchema({ resource: choice.resource, version: choice.version, operationId: choice.id }, origin.connection.schemaDir);
    ctx.update({ loading: undefined });
    const form = createOperationForm({
      resource: choice.resource, version: choice.version, operation: choice.operation, prefill: choice.prefill, ou: origin.ou ?? '',
      ...(schema ? { bodySchema: schema.schema } : {}), ...(record ? { record: { resource, fields: record } } : {}),
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
    if (!ctx.services.catalogOf(ctx.state.origin.connection)) return ctx.update({ error: { title: 'the index is not loaded yet', lines: [], tone: 'warning' } });
    const chosen = ctx.state.operationId ? offered(ctx).find((op) => op.id === ctx.state.operationId && !op.related) : undefined;
    if (chosen) void choose(ctx, chosen);
  },
  origin: (s) => s.origin,
  crumb: () => 'operations',
  subject: (s) => `${s.resource}@${s.version}`,
  bindings: [
    { keys: ['up', 'k', 'down', 'j', 'home', 'end'], help: 'choose an operation', hint: '↑↓ move', run: (ctx, key) => ctx.update((s) => ({ cursor: moveCursor(s.cursor, offered(ctx).length, key, 1) })) },
    {
      keys: ['return'], help: 'open its form', hint: 'Enter open the form',
      run: (ctx) => {
        const choice = offered(ctx)[ctx.state.cursor];
        if (choice && !ctx.state.loading) void choose(ctx, choice);
      },
    },
    { keys: ['escape', 'q'], help: 'close the operations', hint: 'Esc back', run: (ctx) => ctx.nav.back() },
  ],
  View: ({ state, ctx, height, width }) => {
    const operations = offered(ctx);
    const readOnly = state.origin.connection.session.readOnly;
    const rows = Math.max(3, height - 5);
    const top = Math.max(0, Math.min(state.cursor - rows + 1, operations.length - rows));
    const label = (op: AvailableOperation): string => (op.related ? `${op.resource} ${op.id}` : op.id);
    const idWidth = Math.min(40, Math.max(2, ...operations.map((op) => label(op).length)));
    const related = operations.filter((op) => op.related).length;
    return (
      <Box flexDirection="column">
        <Text bold>
          Operations of {state.resource} {state.version}
          <Text dimColor>  {operations.length - related} from the index{related > 0 ? ` · ${related} related` : ''}{state.record ? ' · ● the open record fills every path variable' : ''}</Text>
        </Text>
        {readOnly && <Tinted tone="busy">read-only: writes (anything but GET/HEAD) can be previewed but will not be sent</Tinted>}
        {operations.length === 0 && <Text dimColor>the index lists no operations for this resource version</Text>}
        {operations.slice(top, top + rows).map((op, index) => {
          const selected = top + index === state.cursor;
          const blocked = readOnly && isWriteMethod(op.method);
          return (
            <Text key={`${op.resource} ${op.id}`} inverse={selected} dimColor={(blocked || op.leftOut !== undefined) && !selected} wrap="truncate">
              {op.fillsFromRecord ? '●' : ' '} <Tinted tone={methodTone(op.method)}>{oneLine(op.method).padEnd(6)}</Tinted> {oneLine(label(op)).padEnd(idWidth)}  {op.related ? oneLine(`related: ${op.related.join(', ')} ← this record  `) : ''}
              {truncate(op.href, Math.max(10, width - idWidth - 14))}
              {blocked ? ' (read-only)' : ''}
              {op.leftOut ? ' (not in the record\'s _links)' : ''}
            </Text>
          );
        })}
        {operations[state.cursor]?.leftOut ? <Text dimColor wrap="wrap">{operations[state.cursor]!.id}: {operations[state.cursor]!.leftOut}; it can still be tried</Text> : null}
      </Box>
    );
  },
};
