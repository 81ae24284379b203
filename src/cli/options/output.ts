// The output choices every printing command shares: which format, how wide a table, whether JSON is
// indented, whether in colour. Each command's formats are in its spec.

import { UsageError } from '../../api/errors.js';
import { jsonString } from '../format/json.js';
import type { CliIO } from '../io.js';

/** The formats of most commands that print: a table (the default) or JSON. */
export const TABLE_OR_JSON = ['table', 'json'] as const;

/** When stdout is not a terminal and $COLUMNS is unset, tables are laid out for this many cells. */
const PIPED_TABLE_WIDTH = 100;

export function outputFormat<T extends string>(value: unknown, allowed: readonly T[]): T {
  if (value === undefined) return allowed[0]!;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`unknown output format '${String(value)}'`, `--output takes one of: ${allowed.join(', ')}`);
}

/** The terminal's width; when piped, $COLUMNS, else a fixed width so output does not depend on the caller. */
export function tableWidth(io: CliIO): number {
  if (io.stdout.isTTY && io.stdout.columns) return io.stdout.columns;
  const columns = Number(io.env['COLUMNS']);
  return Number.isInteger(columns) && columns > 0 ? columns : PIPED_TABLE_WIDTH;
}

/** JSON for a person (indented) on a terminal, compact for a program; the exact data, nothing a terminal obeys. */
export function jsonText(value: unknown, io: CliIO): string {
  return `${jsonString(value, io.stdout.isTTY ? 2 : undefined)}\n`;
}

/** Colour on stdout: only on a terminal, and never when NO_COLOR is set (no-color.org) or the terminal is dumb. */
export function colourWanted(io: CliIO): boolean {
  return io.stdout.isTTY === true && io.env['NO_COLOR'] === undefined && io.env['TERM'] !== 'dumb';
}
