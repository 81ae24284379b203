// `>` and `<`: the columns of a table scroll sideways, its frozen columns staying. One binding for every
// table (lists, merged lists, the count matrix), each saying what its columns are and how many stay.
import { columnWindow, scrolled, scrollTo, type WindowOptions } from './column-window.js';
import type { Binding, ScreenContext } from './nav/screen.js';

/** A table's columns as the window sees them. */
export interface TableShape {
  widths: readonly number[];
  frozen: number;
  room: number;
  gap: number;
  partial?: boolean;
}

interface Scrolling {
  /** The first scrolled column shown. */
  left: number;
  /** The current column, when the table has one: it stays on screen. */
  column?: number;
}

/** The window's options for a scroll of `left`. */
function windowOptions(shape: TableShape, left: number): WindowOptions {
  return { frozen: shape.frozen, left, room: shape.room, gap: shape.gap, ...(shape.partial ? { partial: true } : {}) };
}

export function scrollBinding<S extends Scrolling>(
  shapeOf: (ctx: ScreenContext<S>) => TableShape,
  when?: (state: S) => boolean,
  help = 'scroll the columns right / left (the first column stays)',
): Binding<S> {
  return {
    keys: ['>', '<'],
    help,
    hint: '<> columns',
    ...(when ? { when } : {}),
    run: (ctx, key) => {
      const shape = shapeOf(ctx);
      const left = scrolled(shape.widths, windowOptions(shape, ctx.state.left), key.char === '>' ? 1 : -1);
      const column = ctx.state.column;
      // A current column scrolled off the screen moves to the nearest one still on it.
      const shown = columnWindow(shape.widths, windowOptions(shape, left))
        .map(({ index }) => index)
        .filter((index) => index >= shape.frozen);
      const kept =
        column === undefined || column < shape.frozen
          ? column
          : Math.min(Math.max(column, shown[0] ?? left), shown[shown.length - 1] ?? left);
      ctx.update({ left, ...(kept === undefined ? {} : { column: kept }) } as Partial<S>);
    },
  };
}

/**
 * ← →: the current column one step along (`lowest` is the first that can be current), and the scroll
 * that keeps it on screen. Right from the last frozen column goes to the first one on screen, not to a
 * column scrolled off.
 */
export function stepColumn(
  shape: TableShape,
  left: number,
  column: number,
  step: 1 | -1,
  lowest = 0,
): { column: number; left: number } {
  const next = step === 1 && column === shape.frozen - 1 ? Math.max(left, shape.frozen) : column + step;
  const clamped = Math.max(lowest, Math.min(shape.widths.length - 1, next));
  return { column: clamped, left: scrollTo(shape.widths, windowOptions(shape, left), clamped) };
}
