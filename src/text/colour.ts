// Colour for printed text: what a status word means decides its colour, the same meanings the
// explorer colours (failed red, succeeded green, warning and running yellow, waiting blue, stopped
// magenta; a word the vocabulary does not know stays uncoloured). The caller decides whether colour is
// wanted at all (a terminal, NO_COLOR unset).
import { statusMeaning, type StatusMeaning } from '../api/status.js';

export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'gray';

const MEANING_COLOURS: Record<StatusMeaning, Colour | undefined> = {
  failed: 'red', succeeded: 'green', warning: 'yellow', running: 'yellow', waiting: 'blue', stopped: 'magenta', unknown: undefined,
};

const SGR: Record<Colour, string> = { red: '31', green: '32', yellow: '33', blue: '34', magenta: '35', gray: '90' };

export function statusColour(word: string): Colour | undefined {
  return MEANING_COLOURS[statusMeaning(word)];
}

/** `text` in `colour` as ANSI SGR, or as it is when colour is off or none is given. */
export function paint(text: string, colour: Colour | undefined, enabled: boolean): string {
  return enabled && colour && text !== '' ? `\x1b[${SGR[colour]}m${text}\x1b[39m` : text;
}
