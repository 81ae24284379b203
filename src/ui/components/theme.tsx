// Colour, or none: NO_COLOR and CI turn every colour off, and meaning then rests on words and marks.
import { createContext, useContext, type ReactNode } from 'react';
import { Text } from 'ink';
import type { Tone } from '../values.js';

const ColourContext = createContext(true);

export function ColourProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  return <ColourContext.Provider value={enabled}>{children}</ColourContext.Provider>;
}

const TONE_COLOURS: Record<Tone, string | undefined> = {
  bad: 'red', good: 'green', busy: 'yellow', waiting: 'blue', stopped: 'magenta', neutral: undefined, muted: 'gray',
};

/** Whether colour is wanted for this environment. */
export function colourWanted(env: NodeJS.ProcessEnv): boolean {
  return env['NO_COLOR'] === undefined && env['CI'] === undefined;
}

export function Tinted({ tone, color, bold, inverse, children }: { tone?: Tone; color?: string; bold?: boolean; inverse?: boolean; children: ReactNode }) {
  const colour = useContext(ColourContext);
  const chosen = colour ? (color ?? (tone ? TONE_COLOURS[tone] : undefined)) : undefined;
  return <Text color={chosen} bold={bold} inverse={colour ? inverse : false}>{children}</Text>;
}
