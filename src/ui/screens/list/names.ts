// Names beside ids, on by default (`N` turns them off): a list's `<singular>_id` columns whose resource the
// index has show the name of the record each id refers to beside a short id (`Warsaw · 3f2a5b1c…`). A unit
// is named from the unit tree the explorer already has, with no request; any other record is read once per
// session and unit (the core keeps them), only for the ids on screen, through the limiter, and the cells
// fill in as the names arrive.
import { setMaxListeners } from 'node:events';
import { columnIds, idColumns, ReferenceNames, type IdColumn } from '../../../api/fanout/references.js';
import { isUuid } from '../../../api/fanout/units.js';
import type { ScreenContext } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import type { Services } from '../../services/services.js';
import { rowsOf } from '../../window.js';
import type { ListState } from './state.js';

/** What stops a list's name reads: every read of the list listens to its one signal. */
export function namesStopper(): AbortController {
  const stopper = new AbortController();
  setMaxListeners(0, stopper.signal);
  return stopper;
}

const found = new WeakMap<ListState['pages'], IdColumn[]>();

/** The list's id columns, learned once per set of loaded pages. */
export function idColumnsOf(ctx: ScreenContext<ListState>, state: ListState): IdColumn[] {
  const known = found.get(state.pages);
  if (known) return known;
  const catalog = ctx.services.catalogOf(state.origin.connection);
  const columns = catalog ? idColumns(catalog, rowsOf(state.pages)) : [];
  found.set(state.pages, columns);
  return columns;
}

/** A name with the id it stands for, the id cut short where it is a UUID (the record view keeps it whole). */
export function nameBesideId(name: string, id: string): string {
  return `${name} · ${isUuid(id) ? `${id.slice(0, 8)}…` : id}`;
}

/**
 * The name an id has without a request: a unit's, from the tree the explorer has, else a record's read
 * before in the origin's session and unit (null: read, and it has none).
 */
export function knownName(services: Services, origin: Origin, column: IdColumn, id: string): string | null | undefined {
  return services.unitName(origin.connection, id) ?? ReferenceNames.of(origin.connection.session).name(column, id, origin.ou ?? null);
}

/**
 * What a record's id fields are called, from what is known already (the records and x-ray ask for no
 * name): `field → name` for each top-level `<singular>_id` field whose name is known.
 */
export function knownNames(services: Services, origin: Origin, record: Record<string, unknown>): ReadonlyMap<string, string> {
  const catalog = services.catalogOf(origin.connection);
  const names = new Map<string, string>();
  for (const column of catalog ? idColumns(catalog, [record]) : []) {
    const id = record[column.field];
    const name = typeof id === 'string' ? knownName(services, origin, column, id) : undefined;
    if (name) names.set(column.field, name);
  }
  return names;
}

/** The id columns with a name known for one of the loaded rows: they come first after the id, as names do. */
export function namedColumns(ctx: ScreenContext<ListState>, state: ListState): string[] {
  const rows = rowsOf(state.pages);
  return idColumnsOf(ctx, state)
    .filter((column) => rows.some((row) => typeof row[column.field] === 'string' && knownName(ctx.services, state.origin, column, row[column.field] as string)))
    .map((column) => column.field);
}

/**
 * The text of an id cell while names are on: the referenced record's name beside the id once known, the
 * id meanwhile (and for good when the record has no name or cannot be read); undefined for a field that
 * is no id column.
 */
export function namedText(ctx: ScreenContext<ListState>, state: ListState, field: string, value: unknown): string | undefined {
  if (!state.names || typeof value !== 'string') return undefined;
  const column = idColumnsOf(ctx, state).find((candidate) => candidate.field === field);
  if (!column) return undefined;
  const name = knownName(ctx.services, state.origin, column, value);
  return name ? nameBesideId(name, value) : value;
}

/** Asks for the names of the ids on screen that are not known yet; each arriving name redraws the list. */
export function askNames(ctx: ScreenContext<ListState>, rows: Record<string, unknown>[]): void {
  const state = ctx.state;
  const columns = state.names ? idColumnsOf(ctx, state) : [];
  if (columns.length === 0) return;
  const { connection } = state.origin;
  const redraw = () => ctx.update((s) => ({ namesRead: s.namesRead + 1 }));
  // The unit tree is asked once per connection; once it is known, unit ids are named from it.
  if (!ctx.services.unitsKnown(connection)) void ctx.services.units(connection).then(redraw, () => undefined);
  const names = ReferenceNames.of(connection.session);
  for (const column of columns) {
    const unknown = columnIds(column, rows).filter((id) => knownName(ctx.services, state.origin, column, id) === undefined);
    if (unknown.length === 0) continue;
    void names.resolve(column, unknown, { ou: state.origin.ou ?? null, onName: redraw, signal: state.namesStop.signal }).catch(() => undefined);
  }
}
