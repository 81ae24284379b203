// `dpx operations <resource>`: a resource's operations from the discovery index, as a table or as JSON.

import {
  findResource,
  findVersion,
  type Catalog,
  type Resource,
  type ResourceVersion,
} from '../../../api/hal/catalog.js';
import { UsageError } from '../../../api/errors.js';
import { unknownResourceHint } from '../../../api/hal/operation.js';
import { renderTable } from '../../format/table.js';
import { DataWriter } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import type { OptionValues } from '../../options/shared.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { describeCommand } from './describe.js';
import { spec } from './spec.js';

export async function run(
  ctx: CommandScope,
  { positionals, options }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const format = outputFormat(options['output'], spec.formats);
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
