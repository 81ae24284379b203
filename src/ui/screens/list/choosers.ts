// What the list opens over itself to ask, and applies when answered: the path variables a list under a
// parent record needs before it opens, the server-side filter (f), the columns (c) and the version (v).
import { findResource, findVersion } from '../../../api/hal/catalog.js';
import { findListOperation } from '../../../api/hal/operation.js';
import { buildFilter, type Condition } from '../../filter.js';
import type { ScreenContext } from '../../nav/screen.js';
import { filterParams } from '../overlays/filter-builder.js';
import { pickColumns } from '../overlays/column-chooser.js';
import { rowsOf } from '../../window.js';
import { loadFirstPage } from './paging.js';
import { columnsOf, type ListState } from './state.js';

type Ctx = ScreenContext<ListState>;

function applyFilter(ctx: Ctx, conditions: Condition[], samples: Record<string, unknown>): void {
  const serverFilter = conditions.length ? buildFilter(conditions, samples, ctx.now) : undefined;
  ctx.update({ conditions, serverFilter, localFilter: '', sort: undefined });
  void loadFirstPage(ctx);
}

export function openFilterBuilder(ctx: Ctx): void {
  const state = ctx.state;
  if (state.source.kind !== 'resource') {
    return ctx.nav.notify(
      'this list came from a link; server-side filters apply to lists opened from the index (use / for the loaded rows)',
    );
  }
  ctx.nav.open(
    'filter',
    filterParams(rowsOf(state.pages), state, state.serverFilter !== undefined, (conditions, samples) =>
      applyFilter(ctx, conditions, samples),
    ),
  );
}

/**
 * Opens the list, first asking for the path variables of a list under a parent record (the backups of
 * one protection group) when the opener did not give them. Esc there leaves the list unopened.
 */
export async function openList(ctx: Ctx): Promise<void> {
  const { source, origin } = ctx.state;
  if (source.kind !== 'resource') return loadFirstPage(ctx);
  const catalog = await ctx.services.catalog(origin.connection).catch(() => undefined);
  const resource = catalog && findResource(catalog, source.resource);
  const version = resource && findVersion(resource, ctx.state.version || source.version);
  const given = source.variables ?? {};
  const operation =
    version &&
    (source.operationId
      ? version.operations.find((o) => o.id === source.operationId)
      : findListOperation(version, Object.keys(given)));
  const missing = operation?.pathVariables.filter((name) => !given[name]) ?? [];
  if (!operation || missing.length === 0) return loadFirstPage(ctx);
  ctx.nav.open('template', {
    title: `${source.resource} ${operation.id}`,
    href: operation.href,
    variables: missing,
    required: missing,
    submit: (values) => {
      ctx.update({ source: { ...source, operationId: operation.id, variables: { ...given, ...values } } });
      void loadFirstPage(ctx);
    },
    cancel: () => ctx.nav.back(),
  });
}

/** `c`: choose and order the columns; the choice is kept for this resource on this control plane. */
export function chooseColumns(ctx: Ctx): void {
  pickColumns(ctx as ScreenContext<unknown>, {
    connection: ctx.state.origin.connection,
    resource: ctx.state.resource,
    rows: rowsOf(ctx.state.pages),
    shown: columnsOf(ctx.state, ctx.now).map((column) => column.field),
    use: (fields) => ctx.update({ fields, column: 0, left: 1 }),
  });
}

/** The columns chosen for this resource before (`c`), read once when the list opens. */
export async function loadColumnChoice(ctx: Ctx): Promise<void> {
  const fields = await ctx.services
    .columnChoice(ctx.state.origin.connection, ctx.state.resource)
    .catch(() => undefined);
  if (fields && ctx.alive) ctx.update({ fields });
}

export function chooseVersion(ctx: Ctx): void {
  const catalog = ctx.services.catalogOf(ctx.state.origin.connection);
  const known = catalog ? findResource(catalog, ctx.state.resource) : undefined;
  if (!known) return ctx.nav.notify(`${ctx.state.resource} is not in the index, so it has no versions to choose from`);
  ctx.nav.open('version', {
    resource: known.name,
    versions: known.versions.map((v) => v.version),
    current: ctx.state.version,
    apply: (version) => {
      ctx.update({ version });
      void loadFirstPage(ctx);
    },
  });
}
