// Names beside ids, on by default (`N` turns them off): the `<singular>_id` columns of a list or a merged
// list whose resource the index has show the name of the record each id refers to beside a short id
// (`Warsaw · 3f2a5b1c…`). A unit is named from the unit tree the explorer already has, with no request;
// any other record is read once per session and unit (the core keeps them), only for the ids on screen,
// through the limiter, and the cells fill in as the names arrive.
import { setMaxListeners } from 'node:events';
import { useMemo } from 'react';
import { columnIds, idColumns, ReferenceNames, type IdColumn } from '../../../api/fanout/references.js';
import { isUuid } from '../../../api/fanout/units.js';
import type { Binding, ScreenContext } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import type { Services } from '../../services/services.js';

/** What a screen of rows holds for names beside ids. */
export interface NamedRows {
  origin: Origin;
  /** `N`: id columns show the names of the records they refer to. */
  names: boolean;
  /** Names read so far while names are on: a new one redraws the rows. */
  namesRead: number;
  /** Stops the name reads asked for: when names are turned off, and when the screen leaves the stack. */
  namesStop: AbortController;
}

/** The rows a screen has loaded, and what stays the same object while they do (a list's pages, a merged list's rows). */
export interface LoadedRows {
  rows: readonly Record<string, unknown>[];
  key: object;
}

/** What stops a list's name reads: every read of the list listens to its one signal. */
export function namesStopper(): AbortController {
  const stopper = new AbortController();
  setMaxListeners(0, stopper.signal);
  return stopper;
}

const found = new WeakMap<object, IdColumn[]>();

/** The id columns of the rows, learned once per set of loaded rows. */
export function idColumnsOf(services: Services, origin: Origin, loaded: LoadedRows): IdColumn[] {
  const known = found.get(loaded.key);
  if (known) return known;
  const catalog = services.catalogOf(origin.connection);
  const columns = catalog ? idColumns(catalog, loaded.rows) : [];
  found.set(loaded.key, columns);
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
  return (
    services.unitName(origin.connection, id) ??
    ReferenceNames.of(origin.connection.session).name(column, id, origin.ou ?? null)
  );
}

/**
 * What a record's id fields are called, from what is known already (the records and x-ray ask for no
 * name): `field → name` for each top-level `<singular>_id` field whose name is known.
 */
export function knownNames(
  services: Services,
  origin: Origin,
  record: Record<string, unknown>,
): ReadonlyMap<string, string> {
  const catalog = services.catalogOf(origin.connection);
  const names = new Map<string, string>();
  for (const column of catalog ? idColumns(catalog, [record]) : []) {
    const id = record[column.field];
    const name = typeof id === 'string' ? knownName(services, origin, column, id) : undefined;
    if (name) names.set(column.field, name);
  }
  return names;
}

/**
 * While names are on, the cells that read as names: the id columns with a name known for one of the loaded
 * rows (they come first after the id, as names do), and each id cell's text — the referenced record's name
 * beside the id once known, the id meanwhile (and for good when the record has no name or cannot be read).
 */
export function namedCells(
  services: Services,
  named: NamedRows,
  loaded: LoadedRows,
): { fields: string[]; text(field: string, value: unknown): string | undefined } | undefined {
  if (!named.names) return undefined;
  const columns = idColumnsOf(services, named.origin, loaded);
  const name = (column: IdColumn, value: unknown) =>
    typeof value === 'string' ? knownName(services, named.origin, column, value) : undefined;
  return {
    fields: columns
      .filter((column) => loaded.rows.some((row) => name(column, row[column.field])))
      .map((column) => column.field),
    text: (field, value) => {
      const column = typeof value === 'string' ? columns.find((candidate) => candidate.field === field) : undefined;
      if (!column) return undefined;
      const known = name(column, value);
      return known ? nameBesideId(known, value as string) : (value as string);
    },
  };
}

/**
 * The cells read as names (namedCells) for a screen's view, made again only when names are turned on or off,
 * one arrives or other rows are loaded (`loaded`: what stays the same object while they do): rows redraw only then.
 */
export function useNamedCells<S extends NamedRows>(
  services: Services,
  state: S,
  loaded: object,
  loadedOf: (state: S) => LoadedRows,
): ReturnType<typeof namedCells> {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cells change with these alone (state would redraw every row per key)
  return useMemo(() => namedCells(services, state, loadedOf(state)), [state.names, state.namesRead, loaded]);
}

/** Asks for the names of the ids on screen that are not known yet; each arriving name redraws the screen. */
export function askNames<S extends NamedRows>(
  ctx: ScreenContext<S>,
  loaded: LoadedRows,
  rows: readonly Record<string, unknown>[],
): void {
  const state = ctx.state;
  const columns = state.names ? idColumnsOf(ctx.services, state.origin, loaded) : [];
  if (columns.length === 0) return;
  const { connection } = state.origin;
  const redraw = () => ctx.update((s) => ({ namesRead: s.namesRead + 1 }) as Partial<S>);
  const names = ReferenceNames.of(connection.session);
  const ask = () => {
    for (const column of columns) {
      const unknown = columnIds(column, rows).filter(
        (id) => knownName(ctx.services, state.origin, column, id) === undefined,
      );
      if (unknown.length === 0) continue;
      void names
        .resolve(column, unknown, {
          ou: state.origin.ou ?? null,
          onName: redraw,
          signal: state.namesStop.signal,
          together: true,
        })
        .catch(() => undefined);
    }
  };
  // The unit tree is asked once per connection, and the names wait for it: unit ids are named from it, not
  // read one by one meanwhile.
  if (ctx.services.unitsKnown(connection)) return ask();
  void ctx.services.units(connection).then(
    () => {
      redraw();
      ask();
    },
    () => ask(),
  );
}

/** `N`: names beside ids, on and off; `loaded` gives the screen's rows, `shown` asks again for what is on screen. */
export function namesToggle<S extends NamedRows>(
  loaded: (state: S) => LoadedRows,
  shown: (ctx: ScreenContext<S>) => void,
  when: (state: S) => boolean,
): Binding<S> {
  return {
    keys: ['N'],
    help: 'names beside ids (on by default): a <resource>_id column shows the name of the record it refers to beside a short id; again: the ids alone',
    hint: 'N names',
    when,
    run: (ctx) => {
      if (idColumnsOf(ctx.services, ctx.state.origin, loaded(ctx.state)).length === 0)
        return ctx.nav.notify('no column here holds ids of a resource the index has');
      if (ctx.state.names) ctx.state.namesStop.abort();
      ctx.update((s) => ({ names: !s.names, namesStop: s.names ? namesStopper() : s.namesStop }) as Partial<S>);
      ctx.nav.notify(ctx.state.names ? 'names beside ids (N: ids alone)' : 'ids alone (N: names beside them)');
      shown(ctx);
    },
  };
}
