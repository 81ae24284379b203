// `/`: the quick filter over the rows loaded, for any table of records (a list, a merged list). The text
// field takes the focus on `/` and gives it back on Enter (kept) or Esc (cleared).
import { editText } from '../../keys.js';
import { TEXT, type Binding } from '../../nav/screen.js';
import { recordMatches } from './measured-columns.js';

export interface QuickFiltered {
  /** A text every shown row contains, applied to the loaded rows only. */
  localFilter: string;
  localFilterEditing: boolean;
  cursor: number;
  top: number;
}

export const quickFilterTyping = (state: QuickFiltered): boolean => state.localFilterEditing;

/**
 * The last filtering of each array of loaded rows. A key press and the frame it draws ask for the filtered
 * rows several times, and a letter typed only narrows what the text before it matched: on a merged list of
 * 20,000 records, each asking scanned every field of every record.
 */
const filtered = new WeakMap<readonly object[], { text: string; rows: readonly object[] }>();

/** The rows that contain the quick filter's text. */
export function quickFiltered<R extends Record<string, unknown>>(
  rows: readonly R[],
  state: QuickFiltered,
): readonly R[] {
  const text = state.localFilter;
  if (!text) return rows;
  const known = filtered.get(rows) as { text: string; rows: readonly R[] } | undefined;
  if (known?.text === text) return known.rows;
  // recordMatches compares lower case: a row holding the new text holds any part of it.
  const narrowing = known !== undefined && text.toLowerCase().includes(known.text.toLowerCase());
  const matching = (narrowing ? known.rows : rows).filter((row) => recordMatches(row, text));
  filtered.set(rows, { text, rows: matching });
  return matching;
}

/** What the footer shows while the field has the focus. */
export function quickFilterStatus(state: QuickFiltered): string | undefined {
  return state.localFilterEditing ? `/${state.localFilter}▏` : undefined;
}

/** The field's keys while it has the focus: first in a screen's bindings, so every letter types. */
/**
 * What an empty table says: nothing while rows are still coming (`busy`) or when an error shown says why, that
 * no loaded row matches when a quick filter is typed, else `none`.
 */
export function emptyText(state: QuickFiltered & { error?: unknown }, busy: boolean, none: string): string {
  return busy ? '' : state.localFilter ? `no loaded row matches "${state.localFilter}"` : state.error ? '' : none;
}

export function quickFilterEditing<S extends QuickFiltered>(): Binding<S>[] {
  return [
    {
      keys: ['return'],
      help: 'keep the quick filter',
      hint: 'Enter keeps',
      when: quickFilterTyping,
      run: (ctx) => ctx.update({ localFilterEditing: false } as Partial<S>),
    },
    {
      keys: ['escape'],
      help: 'clear the quick filter',
      hint: 'Esc clears',
      when: quickFilterTyping,
      run: (ctx) => ctx.update({ localFilterEditing: false, localFilter: '', cursor: 0, top: 0 } as Partial<S>),
    },
    {
      keys: [TEXT, 'backspace', 'ctrl-u'],
      help: 'type the quick filter',
      when: quickFilterTyping,
      run: (ctx, key) =>
        ctx.update(
          (s) => ({ localFilter: editText(s.localFilter, key) ?? s.localFilter, cursor: 0, top: 0 }) as Partial<S>,
        ),
    },
  ];
}

/** `/` moves into the field; Esc or Backspace clears a kept filter before they go back. */
export function quickFilterKeys<S extends QuickFiltered>(
  help = 'quick filter on the loaded rows (Enter keeps it, Esc clears it)',
  hint = '/ quick',
): Binding<S>[] {
  return [
    {
      keys: ['/'],
      help,
      hint,
      when: (s) => !s.localFilterEditing,
      run: (ctx) => ctx.update({ localFilterEditing: true } as Partial<S>),
    },
    {
      keys: ['escape', 'backspace'],
      help: 'clear the quick filter first, then back',
      when: (s) => !s.localFilterEditing && s.localFilter !== '',
      run: (ctx) => ctx.update({ localFilter: '', cursor: 0, top: 0 } as Partial<S>),
    },
  ];
}
