// `c`: the columns of a resource, to choose and order, from a list or a merged list. The choice is used
// by the table that asked and kept per resource and control plane (src/config/chosen-columns.ts), so the next
// list or merged list of that resource, in this run or the next, opens with it.
import { Box, Text } from 'ink';
import { dataFields } from '../../../api/hal/records.js';
import { Choices } from '../../components/Choices.js';
import { Tinted } from '../../components/theme.js';
import { oneLine } from '../../../text/cells.js';
import type { ScreenBase, ScreenContext, ScreenModule } from '../../nav/screen.js';
import type { Connection } from '../../services/connection.js';

declare module '../../nav/screen.js' {
  interface ScreenParams {
    columns: ColumnsParams;
  }
}

export interface ColumnsParams {
  resource: string;
  /** Every field of the list, the shown ones first in their order. */
  fields: string[];
  /** The fields shown now. */
  shown: readonly string[];
  /** The fields chosen, in order; undefined: every field, ranked as dpx ranks them. */
  apply(fields: string[] | undefined): void;
}

interface Item {
  field: string;
  on: boolean;
}

export interface ColumnsState extends ScreenBase {
  resource: string;
  items: Item[];
  cursor: number;
  apply: ColumnsParams['apply'];
}

/** What a table hands the picker: where its records come from, and what it shows now. */
export interface ColumnChoice {
  connection: Connection;
  resource: string;
  /** The fields of the columns it shows, in order. */
  shown: readonly string[];
  /** Its loaded records: their other fields are offered after the shown ones. */
  rows: readonly Record<string, unknown>[];
  /** Fields of the table's own that no record holds (a merged list's unit): never offered. */
  own?: readonly string[];
  /** Draws the table with the fields chosen (undefined: every field, ranked). */
  use(fields: string[] | undefined): void;
}

/**
 * `c` on a table of records: the picker over its columns, the shown ones first; the choice is used at
 * once and kept for the resource on the connection's control plane, for every list and merged list of it.
 */
export function pickColumns(
  ctx: ScreenContext<unknown>,
  { connection, resource, shown, rows, own = [], use }: ColumnChoice,
): void {
  const offered = (field: string) => !own.includes(field);
  const first = shown.filter(offered);
  const every = [...new Set([...first, ...rows.slice(0, 100).flatMap(dataFields).filter(offered)])];
  if (every.length === 0) return ctx.nav.notify('no rows yet: the columns are known once the first page is in');
  ctx.nav.open('columns', {
    resource,
    fields: every,
    shown: first,
    apply: (fields) => {
      use(fields);
      ctx.services.keepColumnChoice(connection, resource, fields).then(
        () =>
          ctx.nav.notify(
            fields
              ? `columns of ${resource} kept for ${new URL(connection.session.baseUrl).host}`
              : `every column of ${resource} again`,
          ),
        (error: unknown) => ctx.nav.notify(`the choice is used here but was not kept: ${(error as Error).message}`),
      );
    },
  });
}

/** The list with the item at `from` moved one place by `step`, and where it now is. */
function moved(items: Item[], from: number, step: number): { items: Item[]; cursor: number } {
  const to = from + step;
  if (to < 0 || to >= items.length) return { items, cursor: from };
  const next = [...items];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return { items: next, cursor: to };
}

export const columnsScreen: ScreenModule<ColumnsState, ColumnsParams> = {
  title: 'column picker (c)',
  overlay: true,
  // Its own letters (space, a, j, k) are the picker's while it is open, not the global keys.
  typing: () => true,
  init: ({ resource, fields, shown, apply }) => ({
    resource,
    apply,
    cursor: 0,
    items: fields.map((field) => ({ field, on: shown.includes(field) })),
  }),
  crumb: () => 'columns',
  bindings: [
    {
      keys: ['escape'],
      help: 'cancel: the columns stay as they were',
      hint: 'Esc cancel',
      run: (ctx) => ctx.nav.back(),
    },
    {
      keys: ['return'],
      help: 'show the ticked columns in this order, and keep the choice for this resource',
      hint: 'Enter keep',
      run: (ctx) => {
        const fields = ctx.state.items.filter((item) => item.on).map((item) => item.field);
        if (fields.length === 0) return ctx.nav.notify('tick at least one column (Space), or `a` for every column');
        ctx.nav.back();
        ctx.state.apply(fields);
      },
    },
    {
      keys: ['a'],
      help: 'every column, ordered as dpx orders them (forgets the choice)',
      hint: 'a every column',
      run: (ctx) => {
        ctx.nav.back();
        ctx.state.apply(undefined);
      },
    },
    {
      keys: [' '],
      help: 'show or hide the column',
      hint: 'Space tick',
      run: (ctx) =>
        ctx.update((s) => ({ items: s.items.map((item, i) => (i === s.cursor ? { ...item, on: !item.on } : item)) })),
    },
    {
      keys: ['K', '+'],
      help: 'move the column up (earlier)',
      hint: 'K/J move',
      run: (ctx) => ctx.update((s) => moved(s.items, s.cursor, -1)),
    },
    {
      keys: ['J', '-'],
      help: 'move the column down (later)',
      run: (ctx) => ctx.update((s) => moved(s.items, s.cursor, 1)),
    },
    {
      keys: ['up', 'k', 'down', 'j'],
      help: 'choose',
      run: (ctx, key) => {
        const step = key.name === 'up' || key.char === 'k' ? -1 : 1;
        ctx.update((s) => ({ cursor: Math.max(0, Math.min(s.items.length - 1, s.cursor + step)) }));
      },
    },
  ],
  View: ({ state, height }) => (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Tinted bold>columns of {oneLine(state.resource)}: the ticked ones are shown, in this order</Tinted>
      </Text>
      <Choices
        items={state.items}
        cursor={state.cursor}
        height={height - 1}
        render={(item) => `${item.on ? '[x]' : '[ ]'} ${oneLine(item.field)}`}
      />
    </Box>
  ),
};
