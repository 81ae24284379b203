// Readers of an option's text: numbers and NAME=VALUE pairs, each refusing bad input with a usage error.

import { UsageError } from '../../api/errors.js';

/** A positive number from an option's text; `integer` also refuses fractions. */
export function positiveNumber(option: string, text: string | undefined, integer = false): number {
  const value = Number(text);
  if (
    text === undefined ||
    text.trim() === '' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  ) {
    throw new UsageError(
      `${option} must be a positive ${integer ? 'whole ' : ''}number, not '${text ?? ''}'`,
      `for example ${option} 10`,
    );
  }
  return value;
}

/** Like positiveNumber, but 0 is allowed (ports: 0 picks a free one). */
export function nonNegativeInteger(option: string, text: string | undefined): number {
  if (text === '0') return 0;
  return positiveNumber(option, text, true);
}

/** `NAME=VALUE` options (`--var`, `--query`) into a record; the value may itself contain `=`. */
export function namedValues(option: string, value: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of Array.isArray(value) ? (value as string[]) : []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${option} takes NAME=VALUE, not '${pair}'`, `e.g. ${option} id=1234`);
    result[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return result;
}
