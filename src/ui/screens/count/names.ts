// Names beside ids in the matrix's value columns: when the field counted by holds ids of a resource the
// index has (`role_id`, `policy_id`, a unit's id), each value's header shows the name of the record the id
// refers to beside a short id (`Warsaw · 3f2a5b1c…`), cut to the column's width. A unit is named from the
// matrix's own rows or the explorer's unit tree, with no request; any other record is read once per
// session and unit (the names lists, records and x-ray share: list/names.ts), only for the columns on
// screen, through the limiter, at a priority below the matrix's own counts.
import { idColumns, ReferenceNames, type IdColumn } from '../../../api/fanout/references.js';
import { isUuid } from '../../../api/fanout/units.js';
import { currentPriority, withPriority } from '../../../api/wire/priority.js';
import type { CountPlan } from '../../../api/fanout/count.js';
import { cellWidth, oneLine, truncate } from '../../../text/cells.js';
import type { ScreenContext } from '../../nav/screen.js';
import type { Connection, Origin } from '../../services/connection.js';
import type { Services } from '../../services/services.js';
import { knownName, nameBesideId } from '../list/names.js';

/** What the names are read for and kept in, in the matrix's state. */
export interface NamedMatrix {
  connections: Connection[];
  plan?: CountPlan;
  /** The resource the values are ids of, once the index says (undefined: they are no ids it knows). */
  valueIds?: IdColumn;
  /** Each value's name as known so far (null: read, and it has none). */
  valueNames: ReadonlyMap<string, string | null>;
  /** Stops the name reads: when the matrix leaves the stack. */
  namesStop: AbortController;
}

/** A value's header when its column holds an id: its whole text, the cells it asks for, and the text cut to a width. */
export interface Header {
  text: string;
  width: number;
  cut(width: number): string;
}

/** Characters of the id kept when a name must be cut: `· 3f2a…`. */
const SHORT_ID = 4;
/**
 * The cells a value's header asks for while its name is coming, and at most once it has come
 * (`Warsaw · 3f2a5b1c…`): the columns do not move as names arrive, the columns named are those that stay
 * on screen, and an 80-column terminal still shows several values beside the unit and the total. A longer
 * name is cut, its id kept short after it.
 */
export const NAMED_HEADER = 18;

/**
 * Where the names are read: the first control plane, in the unit of its root row (the matrix counts
 * every unit from there, so each value's record is within its scope).
 */
function namesOrigin(state: NamedMatrix): Origin | undefined {
  const connection = state.connections[0];
  if (!connection) return undefined;
  const root = state.plan?.rows.find((row) => row.scope.source.session === connection.session && row.scope.depth === 0);
  return { connection, ou: root?.scope.ou ?? undefined };
}

/** The name of a value's record known without a request: a unit's from the matrix's rows or the tree, else one read before. */
function nameOf(services: Services, state: NamedMatrix, column: IdColumn, id: string): string | null | undefined {
  const origin = namesOrigin(state);
  if (!origin) return undefined;
  const unit = state.plan?.rows.find(
    (row) => row.scope.ou === id && row.scope.source.session === origin.connection.session,
  )?.scope.ouName;
  return unit ?? knownName(services, origin, column, id);
}

/** `Backup Operator · c8cdfec6…` where it fits, else the name cut with a shorter id after it (`Backup Op… · c8cd…`). */
export function cutHeader(name: string, id: string, width: number): string {
  const full = nameBesideId(oneLine(name), id);
  if (cellWidth(full) <= width) return full;
  const suffix = ` · ${isUuid(id) ? `${id.slice(0, SHORT_ID)}…` : oneLine(id)}`;
  const room = width - cellWidth(suffix);
  return room >= 4 ? `${truncate(oneLine(name), room)}${suffix}` : truncate(oneLine(name), width);
}

/**
 * The header of a value's column when the values are ids: the name beside a short id once the name is
 * known, the short id meanwhile (and for good when the record has none); undefined for any other column.
 */
export function valueHeader(state: NamedMatrix, cell: number): Header | undefined {
  const value = state.plan?.columns[cell]?.value;
  if (!state.valueIds || typeof value !== 'string') return undefined;
  const name = state.valueNames.get(value);
  if (name) {
    const text = nameBesideId(oneLine(name), value);
    return { text, width: Math.min(NAMED_HEADER, cellWidth(text)), cut: (width) => cutHeader(name, value, width) };
  }
  const short = isUuid(value) ? `${value.slice(0, 8)}…` : oneLine(value);
  // Not read yet: the room its name will take; read, and it has none: the id's own.
  return {
    text: short,
    width: name === null ? cellWidth(short) : Math.max(NAMED_HEADER, cellWidth(short)),
    cut: (width) => truncate(short, width),
  };
}

/** Takes into the state every value's name known now, when any is new. */
function learnNames(ctx: ScreenContext<NamedMatrix>, column: IdColumn): void {
  if (!ctx.alive) return;
  const state = ctx.state;
  const names = new Map(state.valueNames);
  let learnt = state.valueIds?.field !== column.field || state.valueIds.resource !== column.resource;
  for (const { value } of state.plan?.columns ?? []) {
    if (typeof value !== 'string' || names.get(value) != null) continue;
    const name = nameOf(ctx.services, state, column, value);
    if (name === undefined || names.get(value) === name) continue;
    names.set(value, name);
    learnt = true;
  }
  if (learnt) ctx.update({ valueIds: column, valueNames: names });
}

/**
 * Names the values: every one from what is known already (which also gives their columns the width a
 * name takes, before any name is read), then those among `onScreen()` (the columns on screen once that
 * width is known) by reading the ones not known, each once; each arriving name redraws the matrix. The
 * unit tree is waited for first, so that unit ids are never read one by one.
 */
export async function askValueNames(ctx: ScreenContext<NamedMatrix>, onScreen: () => readonly number[]): Promise<void> {
  const { plan } = ctx.state;
  const origin = namesOrigin(ctx.state);
  if (!plan?.by || !origin) return;
  const { connection } = origin;
  const catalog = await ctx.services.catalog(connection).catch(() => undefined);
  const column = catalog && idColumns(catalog, [{ [plan.by]: '' }])[0];
  if (!column) return;
  if (!ctx.services.unitsKnown(connection)) await ctx.services.units(connection).catch(() => undefined);
  learnNames(ctx, column);
  const state = ctx.state;
  if (!ctx.alive || state.plan !== plan) return;
  const ids = [
    ...new Set(
      onScreen()
        .map((cell) => plan.columns[cell]?.value)
        .filter((value): value is string => typeof value === 'string'),
    ),
  ].filter((id) => nameOf(ctx.services, state, column, id) === undefined);
  if (ids.length === 0) return;
  // Below the matrix's own counts: a name is worth less than a number.
  const names = ReferenceNames.of(connection.session);
  await withPriority(currentPriority() - 0.5, () =>
    names.resolve(column, ids, {
      ou: origin.ou ?? null,
      onName: () => learnNames(ctx, column),
      signal: state.namesStop.signal,
    }),
  ).catch(() => undefined);
}
