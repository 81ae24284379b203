// `:<resource> @all`: one list across every unit of the current profile, each record tagged with the unit
// it was read in; opened from a filtered list, with that list's filter. This module draws it and keys it: the
// cursor (the next pages asked for as the end nears), the columns, the filter builder; its state and the
// reading of every unit's pages are fan-out.ts's. A record opens, and acts, in its own unit.
import { findResource } from '../../../api/hal/catalog.js';
import { RecordDedupe } from '../../../api/fanout/fanout.js';
import type { Scope } from '../../../api/fanout/scopes.js';
import { formatCount } from '../../../text/cells.js';
import { MOVE_KEYS, moveCursor } from '../../keys.js';
import { scrollTop } from '../../layout.js';
import type { ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';
import { buildFilter } from '../../filter.js';
import { inferColumns, windowOf, type Column } from '../list/measured-columns.js';
import { scrollBinding } from '../../scroll-keys.js';
import {
  emptyText,
  quickFiltered,
  quickFilterEditing,
  quickFilterKeys,
  quickFilterStatus,
  quickFilterTyping,
} from '../list/quick-filter.js';
import { filterParams } from '../overlays/filter-builder.js';
import { pickColumns } from '../overlays/column-chooser.js';
import { ListView } from '../list/ListView.js';
import { namesStopper, namesToggle, useNamedCells } from '../list/names.js';
import type { CellText } from '../list/state.js';
import {
  askMore,
  askShownNames,
  loadedOf,
  startLoading,
  UNIT,
  type MergedParams,
  type MergedState,
} from './fan-out.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    'merged-list': MergedParams;
  }
}

const PREFETCH_MARGIN = 5;

type Ctx = ScreenContext<MergedState>;

/** The version the resource's lists are read in: the index's default. */
function versionOf(ctx: Ctx): string {
  const catalog = ctx.services.catalogOf(ctx.state.origin.connection);
  return (catalog && findResource(catalog, ctx.state.resource)?.defaultVersion) ?? '';
}

/**
 * The record under the cursor as it was read, with the version its list was read in: in its unit, or
 * (`outermost`) in the outermost chosen unit holding it, whose scope sees the units above the record's own
 * (an x-ray that follows a unit's parent from the record's own unit would get a 404).
 */
function chosen(
  ctx: Ctx,
  unit: 'own' | 'outermost' = 'own',
): { resource: string; version: string; record: Record<string, unknown>; origin: Origin } | undefined {
  const row = quickFiltered(ctx.state.rows, ctx.state)[ctx.state.cursor];
  const scope = row && ctx.state.scopeOf.get(row);
  if (!row || !scope) return undefined;
  const { [UNIT]: _unit, ...record } = row;
  const { origin, resource } = ctx.state;
  return {
    resource,
    version: versionOf(ctx),
    record,
    origin: {
      connection: origin.connection,
      ou: (unit === 'outermost' ? scope.within[scope.within.length - 1] : undefined) ?? scope.ou ?? undefined,
    },
  };
}

/** The cursor moved (or the terminal resized): the rows follow it, and the next pages come as the end nears. */
function moveTo(ctx: Ctx, cursor: number): void {
  const height = ctx.bodyHeight() - 1;
  ctx.update((s) => ({ cursor, top: scrollTop(s.top, cursor, height) }));
  if (cursor + PREFETCH_MARGIN + height >= quickFiltered(ctx.state.rows, ctx.state).length) askMore(ctx);
  setImmediate(() => askShownNames(ctx));
}

/** `f`: the filter builder over the loaded records; its filter reads every unit again, in a merged list of its own. */
function openFilterBuilder(ctx: Ctx): void {
  const { origin, resource, filter, conditions = [] } = ctx.state;
  const params = filterParams(
    ctx.state.rows,
    { resource, version: versionOf(ctx), conditions },
    filter !== undefined,
    (chosenConditions, samples) => {
      ctx.nav.back();
      const built = chosenConditions.length ? buildFilter(chosenConditions, samples, ctx.now) : undefined;
      ctx.nav.open('merged-list', {
        origin,
        resource,
        ...(built ? { filter: built, conditions: chosenConditions } : {}),
      });
    },
  );
  // The unit a row is shown with is dpx's, not a field the server could filter on.
  ctx.nav.open('filter', { ...params, fields: params.fields.filter((field) => field !== UNIT) });
}

/** `c`: choose and order the columns, as in a list of the resource; both read the choice kept for it. */
function chooseColumns(ctx: Ctx): void {
  const { origin, resource, rows } = ctx.state;
  pickColumns(ctx as ScreenContext<unknown>, {
    connection: origin.connection,
    resource,
    rows,
    own: [UNIT],
    shown: columnsOf(ctx.state, ctx.now).map((column) => column.field),
    use: (fields) => ctx.update({ fields, left: 1 }),
  });
}

const planned = new WeakMap<
  readonly Scope[],
  { empty: boolean; fields: readonly string[] | undefined; names: number; named: boolean; columns: Column[] }
>();

/**
 * Every column, with the unit after the first (the columns chosen for the resource, else the id), then
 * the id columns that read as names: planned once the first records are in (again for new units, and as
 * names arrive), not on every page. A plan made without the names' text (by a key) is made again by the
 * drawing, which has it.
 */
function columnsOf(state: MergedState, now: number, cellText?: CellText): Column[] {
  const names = state.names ? state.namesRead : -1;
  const known = planned.get(state.scopes);
  if (
    known &&
    known.empty === (state.rows.length === 0) &&
    known.fields === state.fields &&
    known.names === names &&
    (known.named || !cellText)
  )
    return known.columns;
  const order = state.fields ? [state.fields[0]!, UNIT, ...state.fields.slice(1)] : undefined;
  const columns = inferColumns(
    state.rows,
    now,
    { fields: [UNIT, ...(cellText?.fields ?? [])], text: (field, value) => cellText?.text(field, value) },
    order,
  );
  planned.set(state.scopes, {
    empty: state.rows.length === 0,
    fields: state.fields,
    names,
    named: cellText !== undefined,
    columns,
  });
  return columns;
}

export const mergedScreen: ScreenModule<MergedState, MergedParams> = {
  title: 'merged list (:<resource> @all)',
  init: (params) => ({
    ...params,
    scopes: [],
    rows: [],
    scopeOf: new WeakMap(),
    more: new Map(),
    asking: 0,
    failed: 0,
    cursor: 0,
    top: 0,
    left: 1,
    localFilter: '',
    localFilterEditing: false,
    dedupe: new RecordDedupe(),
    stopping: new AbortController(),
    names: true,
    namesRead: 0,
    namesStop: namesStopper(),
  }),
  start: (ctx) => void startLoading(ctx),
  stop: (state) => {
    state.stopping.abort();
    state.namesStop.abort();
  },
  origin: (s) => s.origin,
  resized: (ctx) => moveTo(ctx, ctx.state.cursor),
  empty: (s) => s.rows.length === 0,
  crumb: (s) => `${s.resource} @all${s.filter ? ' (filtered)' : ''}`,
  subject: (s) => `${s.resource} in every unit`,
  question: (s) => ({ resource: s.resource, ...(s.filter ? { filter: s.filter } : {}) }),
  status: (s) => {
    const typing = quickFilterStatus(s);
    if (typing) return typing;
    const answering = s.asking > 0 ? ` · ${s.asking} units answering` : '';
    const failed = s.failed > 0 ? ` · ${s.failed} units failed` : '';
    const matching = s.localFilter ? `${quickFiltered(s.rows, s).length}/` : '';
    return `${matching}${formatCount(s.rows.length)} records from ${s.scopes.length} units${answering}${failed}${s.more.size === 0 && s.scopes.length > 0 ? ' · end' : ''}`;
  },
  badges: (s, width) => {
    const label = windowOf(columnsOf(s, Date.now()), s.left, width - 2).label;
    return label ? [label] : [];
  },
  typing: quickFilterTyping,
  bindings: [
    scrollBinding((ctx) => ({
      widths: columnsOf(ctx.state, ctx.now).map((column) => column.width),
      frozen: 1,
      room: ctx.size.columns - 2,
      gap: 1,
      partial: true,
    })),
    ...quickFilterEditing<MergedState>(),
    {
      keys: ['return'],
      help: 'open the record, in the unit it was read in',
      hint: 'Enter open',
      run: (ctx) => {
        const row = chosen(ctx);
        if (row) ctx.nav.open('record', row);
      },
    },
    {
      keys: ['X'],
      help: 'x-ray of the record, from the outermost unit of the list that holds it (its links reach units above its own)',
      hint: 'X x-ray',
      run: (ctx) => {
        const row = chosen(ctx, 'outermost');
        if (row) ctx.nav.open('xray', row);
      },
    },
    {
      keys: [...MOVE_KEYS],
      help: 'move; the next pages are asked for as the end comes near',
      run: (ctx, key) => {
        const height = ctx.bodyHeight() - 1;
        moveTo(ctx, moveCursor(ctx.state.cursor, quickFiltered(ctx.state.rows, ctx.state).length, key, height));
      },
    },
    {
      keys: ['f'],
      help: 'server-side filter builder: field, operator, value; every unit is read again with it',
      hint: 'f filter',
      run: openFilterBuilder,
    },
    {
      keys: ['c'],
      help: 'choose and order the columns (kept for this resource on this control plane, as in its list)',
      hint: 'c columns',
      run: chooseColumns,
    },
    namesToggle(loadedOf, askShownNames, (state) => !state.localFilterEditing),
    ...quickFilterKeys<MergedState>(),
  ],
  View: ({ state, ctx, height, width }) => {
    const rows = quickFiltered(state.rows, state);
    const empty = emptyText(state, Boolean(state.loading) || state.asking > 0, 'no unit holds any');
    const cellText = useNamedCells(ctx.services, state, state.rows, loadedOf);
    return (
      <ListView
        view={windowOf(columnsOf(state, ctx.now, cellText), state.left, width - 2)}
        rows={rows}
        cursor={state.cursor}
        top={state.top}
        height={height}
        currentColumn={-1}
        now={ctx.now}
        empty={empty}
        {...(cellText ? { cellText } : {})}
      />
    );
  },
};
