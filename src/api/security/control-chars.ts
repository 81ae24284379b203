// A control character in what names a request (an id, a variable, a query value) or in a token is
// refused before anything is sent. A CR copied from a CR LF file would otherwise go out as %0D and come
// back as a 404 that shows nothing wrong; in a token, Node would refuse the header deep in the network
// layer, which reads as "could not reach the control plane". The character is shown inert, with where it was.
import { UsageError } from '../errors.js';
import { visible } from '../visible.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const NAMES: Record<number, string> = {
  9: 'a tab',
  10: 'a line feed',
  13: 'a carriage return',
  27: 'an escape',
  0: 'a NUL',
};

/** `␍ (U+000D, a carriage return) at character 9`, for the first control character of `value`; else undefined. */
function controlCharacterProblem(value: string): string | undefined {
  const match = CONTROL.exec(value);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${visible(match[0])} (${hex}, ${NAMES[code] ?? 'a control character'}) at character ${match.index + 1}`;
}

/**
 * Throws a usage error when `value` holds a control character. `what` names it for a person ('the value
 * of user_id'); a secret (a token) is never shown, only the character and where it was.
 */
export function checkNoControlCharacter(value: string, what: string, options: { secret?: boolean } = {}): void {
  const problem = controlCharacterProblem(value);
  if (problem === undefined) return;
  throw new UsageError(
    `${what} holds ${problem}${options.secret ? '' : `: ${visible(value)}`}; nothing was sent`,
    options.secret
      ? 'the token is read as it is: fix it where it comes from (its file, variable or command)'
      : 'remove the character (a CR often comes with a line copied from a CR LF file)',
  );
}

/** Every --var and --query value of a request, checked as checkNoControlCharacter does. */
export function checkNamedValues(variables: Record<string, string>, query: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(variables)) checkNoControlCharacter(value, `the value of ${name}`);
  for (const [name, value] of Object.entries(query)) checkNoControlCharacter(value, `the query value ${name}`);
}
