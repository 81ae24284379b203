// What one operation needs, described from the index and its schema: `dpx operations R OP`, and
// `dpx call R OP --help` (run.ts asks it for the help of a command whose spec describes operations).

import { DataWriter } from '../../io.js';
import { jsonText } from '../../options/output.js';
import type { CommandScope } from '../command.js';

/**
 * What one operation needs (`dpx operations R OP`, `dpx call R OP --help`): method, href, versions,
 * variables, every body field of its schema, and a command to start from.
 */
export async function describeCommand(
  ctx: Pick<CommandScope, 'io' | 'session' | 'settings'>,
  resource: string,
  operationId: string,
  version: string | undefined,
  format: 'text' | 'json' = 'text',
): Promise<number> {
  const { describeOperation } = await import('../../../api/operations/describe.js');
  const { operationHelpText } = await import('../../format/operation.js');
  const { loadBodySchema } = await import('../../../api/operations/body.js');
  const { resolveOperation } = await import('../../../api/hal/operation.js');
  const catalog = await ctx.session({ needsToken: false }).catalog();
  const resolved = resolveOperation(catalog, { resource, operationId, ...(version === undefined ? {} : { version }) });
  const schema = await loadBodySchema(
    { resource: resolved.resource.name, version: resolved.version.version, operationId: resolved.operation.id },
    ctx.settings.schemaDir,
  );
  const description = describeOperation(
    catalog,
    { resource, operationId, ...(version === undefined ? {} : { version }) },
    schema,
  );
  const out = new DataWriter(ctx.io.stdout);
  try {
    await out.write(format === 'json' ? jsonText(description, ctx.io) : operationHelpText(description, catalog));
  } finally {
    out.release();
  }
  return 0;
}
