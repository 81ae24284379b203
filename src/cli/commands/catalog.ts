// `dpx resources` and `dpx operations <resource>`: the discovery index, as a table or as JSON.

import { findResource, findVersion, type Catalog, type Resource, type ResourceVersion } from '../../api/hal/catalog.js';
import { UsageError } from '../../api/errors.js';
import { listOperations, unknownResourceHint } from '../../api/hal/operation.js';
import type { CommandContext } from '../context.js';
import { renderTable } from '../format/table.js';
import { DataWriter } from '../io.js';
import { jsonText, OUTPUT_FORMATS, outputFormat, tableWidth } from './output.js';

/** Marks a list under a parent in the table's ids: it lists only once its path variables are given. */
const NESTED_LIST_MARK = '+';

export async function resourcesCommand(ctx: CommandContext, options: Record<string, unknown>): Promise<number> {
  const format = outputFormat(options['output'], OUTPUT_FORMATS.resources);
  const catalog = await ctx.session().catalog();
  const rows = catalog.resources.map((resource) => {
    const version = findVersion(resource, resource.defaultVersion);
    return {
      name: resource.name,
      default_version: resource.defaultVersion,
      versions: resource.versions.map((candidate) => candidate.version),
      operations: (version?.operations ?? []).map((operation) => operation.id),
      lists: (version ? listOperations(version) : []).map((operation) => ({
        id: operation.id,
        path_variables: operation.pathVariables,
      })),
    };
  });
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (format === 'json') {
      await out.write(jsonText(rows, ctx.io));
    } else {
      const isNested = (row: (typeof rows)[number], id: string) =>
        row.lists.some((list) => list.id === id && list.path_variables.length > 0);
      const table = rows.map((row) => ({
        resource: row.name,
        versions: row.versions.map((version) => (version === row.default_version ? `${version}*` : version)).join(' '),
        operations: row.operations.length,
        ids: row.operations.map((id) => (isNested(row, id) ? `${id}${NESTED_LIST_MARK}` : id)).join(' '),
      }));
      await out.write(renderTable(table, tableWidth(ctx.io), ['resource', 'versions', 'operations', 'ids']).text);
      ctx.note('* the default version (the newest); dpx operations <resource> for the details');
      if (rows.some((row) => row.operations.some((id) => isNested(row, id))))
        ctx.note(
          `${NESTED_LIST_MARK} a list under a parent record: dpx list <resource> --var NAME=VALUE names the parent`,
        );
    }
  } finally {
    out.release();
  }
  return 0;
}

export async function operationsCommand(
  ctx: CommandContext,
  positionals: string[],
  options: Record<string, unknown>,
): Promise<number> {
  const format = outputFormat(options['output'], OUTPUT_FORMATS.operations);
  const [name, operationId, ...extra] = positionals;
  if (name === undefined || extra.length > 0) {
    throw new UsageError(
      'dpx operations takes a resource name, and at most one operation id',
      'dpx resources lists them; e.g. dpx operations users, dpx operations users create_user',
    );
  }
  const version = typeof options['version'] === 'string' ? options['version'] : undefined;
  if (operationId !== undefined)
    return describeCommand(ctx, name, operationId, version, format === 'json' ? 'json' : 'text');
  const catalog = await ctx.session().catalog();
  const { resource, version: chosen } = chooseVersion(catalog, name, version);
  const out = new DataWriter(ctx.io.stdout);
  try {
    if (format === 'json') {
      await out.write(jsonText(chosen.operations, ctx.io));
    } else {
      const table = chosen.operations.map((operation) => ({
        id: operation.id,
        method: operation.method,
        href: operation.href,
        path_variables: operation.pathVariables.join(' '),
        query_variables: operation.queryVariables.join(' '),
      }));
      await out.write(
        renderTable(table, tableWidth(ctx.io), ['id', 'method', 'href', 'path_variables', 'query_variables']).text,
      );
      const others = resource.versions
        .filter((candidate) => candidate !== chosen)
        .map((candidate) => candidate.version);
      ctx.note(
        `${resource.name} ${chosen.version}${others.length > 0 ? ` (also: ${others.join(', ')}; --version to pick)` : ''}`,
      );
    }
  } finally {
    out.release();
  }
  return 0;
}

/** The resource and version asked for, or a usage error that names what the index does have. */
function chooseVersion(
  catalog: Catalog,
  name: string,
  version: string | undefined,
): { resource: Resource; version: ResourceVersion } {
  const resource = findResource(catalog, name);
  if (!resource) {
    throw new UsageError(`unknown resource: ${name}`, unknownResourceHint(catalog, name));
  }
  const chosen = findVersion(resource, version);
  if (!chosen) {
    throw new UsageError(
      `${resource.name} has no version ${version ?? ''}`.trimEnd(),
      `supported versions: ${resource.versions.map((candidate) => candidate.version).join(', ')}`,
    );
  }
  return { resource, version: chosen };
}

/**
 * What one operation needs (`dpx operations R OP`, `dpx call R OP --help`): method, href, versions,
 * variables, every body field of its schema, and a command to start from.
 */
export async function describeCommand(
  ctx: CommandContext,
  resource: string,
  operationId: string,
  version: string | undefined,
  format: 'text' | 'json' = 'text',
): Promise<number> {
  const { describeOperation } = await import('../../api/operations/describe.js');
  const { operationHelpText } = await import('../format/operation.js');
  const { loadBodySchema } = await import('../../api/operations/body.js');
  const { resolveOperation } = await import('../../api/hal/operation.js');
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
