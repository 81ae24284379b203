// `dpx resources`: the resources of the discovery index, as a table or as JSON.

import { findVersion } from '../../../api/hal/catalog.js';
import { listOperations } from '../../../api/hal/operation.js';
import { renderTable } from '../../format/table.js';
import { DataWriter } from '../../io.js';
import { jsonText, outputFormat, tableWidth } from '../../options/output.js';
import type { OptionValues } from '../../options/shared.js';
import type { CommandScope, PlaneInput } from '../command.js';
import { spec } from './spec.js';

/** Marks a list under a parent in the table's ids: it lists only once its path variables are given. */
const NESTED_LIST_MARK = '+';

export async function run(
  ctx: CommandScope,
  { options }: PlaneInput<OptionValues<typeof spec.options>>,
): Promise<number> {
  const format = outputFormat(options['output'], spec.formats);
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
