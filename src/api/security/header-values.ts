// Every value that goes into a header is checked before anything is sent. Node refuses a header holding
// a control character by throwing deep in the network layer, which would read as "could not reach the
// control plane"; and a value with a line break in it must never reach the wire at all.
import { UsageError } from '../errors.js';

/** Tab is allowed inside a field value (RFC 9110); every other C0 control, DEL and anything past Latin-1 is not. */
const NOT_ALLOWED = /[\x00-\x08\x0a-\x1f\x7f]|[^\x00-\xff]/u;

/** `U+000A (a line break)` for the first character that may not stand in a header value. */
function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const name =
    code === 0x0a || code === 0x0d
      ? 'a line break'
      : code === 0x1b
        ? 'an escape'
        : code <= 0x1f || code === 0x7f
          ? 'a control character'
          : 'a character headers cannot carry';
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} (${name})`;
}

/** What is wrong with a header value, or undefined when it may be sent. */
export function headerValueProblem(value: string): string | undefined {
  const match = NOT_ALLOWED.exec(value);
  if (!match) return undefined;
  return `holds ${describeCharacter(match[0])} at character ${match.index + 1}`;
}

/**
 * Throws a UsageError naming the header and the character when a value may not be sent. `names` gives a
 * header a name a person knows it by ('the organizational unit' for the OU header).
 */
export function checkHeaderValues(headers: Record<string, string>, names: Record<string, string> = {}): void {
  for (const [header, value] of Object.entries(headers)) {
    const problem = headerValueProblem(value);
    if (problem === undefined) continue;
    const known = names[header.toLowerCase()];
    throw new UsageError(
      `${known ? `${known} (header ${header})` : `the header ${header}`} ${problem}; nothing was sent`,
      known
        ? `give ${known} without control characters: a unit's id, name or path`
        : 'remove the character from the value',
    );
  }
}
