// Colour on the command line: the meaning of a status word as an SGR colour, the same meanings the
// explorer colours (failed red, succeeded green, warning and running yellow, waiting blue, stopped
// magenta). Only on a terminal, and never with NO_COLOR.

import type { StatusMeaning } from '../../api/status.js';
import type { CliIO } from '../io.js';

const SGR: Record<StatusMeaning, string | undefined> = {
  failed: '31', succeeded: '32', warning: '33', running: '33', waiting: '34', stopped: '35', unknown: undefined,
};
const DIM = '2';

export function colourWanted(io: CliIO): boolean {
  return io.stdout.isTTY === true && io.env['NO_COLOR'] === undefined;
}

/** Text in the colour of a meaning (or dimmed); as it is when colour is off or the meaning has none. */
export function tint(text: string, style: StatusMeaning | 'dim', enabled: boolean): string {
  const code = style === 'dim' ? DIM : SGR[style];
  return enabled && code !== undefined && text !== '' ? `\x1b[${code}m${text}\x1b[0m` : text;
}
