// `N`: id columns read as names. A list's `<singular>_id` columns whose resource the index has show the
// name of the record each id refers to; only the ids on screen are asked for, each once per session and
// unit (the core keeps them), and the cells fill in as the names arrive.
import { columnIds, idColumns, ReferenceNames, type IdColumn } from '../../../api/fanout/references.js';
import type { ScreenContext } from '../../nav/screen.js';
import { rowsOf } from '../../window.js';
import type { ListState } from './state.js';

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

/**
 * The text of an id cell while names are on: the referenced record's name once read, the id meanwhile
 * (and for good when the record has no name or cannot be read); undefined for a field that is no id column.
 */
export function namedText(ctx: ScreenContext<ListState>, state: ListState, field: string, value: unknown): string | undefined {
  if (!state.names || typeof value !== 'string') return undefined;
  const column = idColumnsOf(ctx, state).find((candidate) => candidate.field === field);
  if (!column) return undefined;
  return ReferenceNames.of(state.origin.connection.session).name(column, value, state.origin.ou ?? null) ?? value;
}

/** Asks for the names of the ids on screen that are not known yet; each arriving name redraws the list. */
export function askNames(ctx: ScreenContext<ListState>, rows: Record<string, unknown>[]): void {
  const state = ctx.state;
  if (!state.names) return;
  const names = ReferenceNames.of(state.origin.connection.session);
  for (const column of idColumnsOf(ctx, state)) {
    void names.resolve(column, columnIds(column, rows), {
      ou: state.origin.ou ?? null,
      onName: () => ctx.update((s) => ({ namesRead: s.namesRead + 1 })),
    }).catch(() => undefined);
  }
}
