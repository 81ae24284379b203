// Colour by meaning, the same on the command line and in the explorer: what a status word means decides
// its tone (failed red, succeeded green, warning and running yellow, waiting blue, stopped magenta; a word
// the vocabulary does not know stays uncoloured), and a tone its colour. Whether colour is wanted at all
// (a terminal, NO_COLOR unset) is the caller's to decide.
import { statusMeaning, type StatusMeaning } from '../api/hal/status.js';

export type Tone = 'bad' | 'good' | 'busy' | 'waiting' | 'stopped' | 'info' | 'neutral' | 'muted';
export type ColourName = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';

export const TONE_COLOURS: Record<Tone, ColourName | undefined> = {
  bad: 'red',
  good: 'green',
  busy: 'yellow',
  waiting: 'blue',
  stopped: 'magenta',
  info: 'cyan',
  neutral: undefined,
  muted: 'gray',
};

const TONE_OF_MEANING: Record<StatusMeaning, Tone> = {
  failed: 'bad',
  succeeded: 'good',
  warning: 'busy',
  running: 'busy',
  waiting: 'waiting',
  stopped: 'stopped',
  unknown: 'neutral',
};

const SGR: Record<ColourName, string> = {
  red: '31',
  green: '32',
  yellow: '33',
  blue: '34',
  magenta: '35',
  cyan: '36',
  gray: '90',
};

export function meaningTone(meaning: StatusMeaning): Tone {
  return TONE_OF_MEANING[meaning];
}

/** The tone of a status word's meaning; `neutral` for a word the vocabulary does not know. */
export function statusTone(word: string): Tone {
  return meaningTone(statusMeaning(word));
}

/** `text` in a tone's colour as ANSI SGR, or as it is when colour is off or the tone has none. */
export function paint(text: string, tone: Tone | undefined, enabled: boolean): string {
  const colour = tone === undefined ? undefined : TONE_COLOURS[tone];
  return enabled && colour && text !== '' ? `\x1b[${SGR[colour]}m${text}\x1b[39m` : text;
}
