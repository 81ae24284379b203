// The one colour map of the explorer and its operation screens. Colour, or none: NO_COLOR and CI turn
// every colour off, and meaning then rests on words and marks.
import { createContext, useContext, type ReactNode } from 'react';
import chalk from 'chalk';
import { Text } from 'ink';
import type { TaskOutcome } from '../../api/operations/task.js';
import { TONE_COLOURS, type Tone } from '../../text/colour.js';

const ColourContext = createContext(true);

export function ColourProvider({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  return <ColourContext.Provider value={enabled}>{children}</ColourContext.Provider>;
}

/** Whether colour is wanted for this environment. */
export function colourWanted(env: NodeJS.ProcessEnv): boolean {
  return env['NO_COLOR'] === undefined && env['CI'] === undefined;
}

/** Reads: green, writes: yellow, deletes: red. */
export function methodTone(method: string): Tone {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD') return 'good';
  if (upper === 'DELETE') return 'bad';
  if (upper === 'POST' || upper === 'PUT' || upper === 'PATCH') return 'busy';
  return 'stopped';
}

export function httpStatusTone(status: number): Tone {
  if (status >= 500) return 'bad';
  if (status >= 400) return 'busy';
  if (status >= 300) return 'info';
  return 'good';
}

export const OUTCOME_TONE: Record<TaskOutcome, Tone> = {
  running: 'info',
  succeeded: 'good',
  warning: 'busy',
  failed: 'bad',
};

/** Whether colour is on: for text styled as a string (`tint`) rather than by `Tinted`. */
export function useColour(): boolean {
  return useContext(ColourContext);
}

export interface TintStyle {
  tone?: Tone | undefined;
  bold?: boolean | undefined;
  inverse?: boolean | undefined;
}

/**
 * `text` as `<Tinted>` with these props draws it, as one string: the same codes in the same order as
 * ink's Text (colour, then bold, then inverse), through the chalk ink uses, so the terminal's support
 * decides alike. A row built of such strings is one text node for ink instead of two per cell.
 */
export function tint(text: string, { tone, bold, inverse }: TintStyle, colour: boolean): string {
  const chosen = colour && tone ? TONE_COLOURS[tone] : undefined;
  let styled = chosen ? chalk[chosen](text) : text;
  if (bold) styled = chalk.bold(styled);
  if (colour && inverse) styled = chalk.inverse(styled);
  return styled;
}

/** The colour of a tone, or none when colour is off: for ink props that are not text (borders). */
export function useToneColour(tone: Tone): string | undefined {
  return useContext(ColourContext) ? TONE_COLOURS[tone] : undefined;
}

/**
 * Text in a tone. On a line of its own it is one line, cut to the width (a line that wraps is taller than
 * the screen planned: src/ui/layout.ts); text that should run over lines is wrapped by the screen, which
 * counts its lines (wrapLines). Inside another Text, it is part of that one's line.
 */
export function Tinted({
  tone,
  bold,
  inverse,
  wrap = 'truncate',
  children,
}: {
  tone?: Tone;
  bold?: boolean;
  inverse?: boolean;
  wrap?: 'wrap' | 'truncate';
  children: ReactNode;
}) {
  const colour = useContext(ColourContext);
  const chosen = colour && tone ? TONE_COLOURS[tone] : undefined;
  return (
    <Text color={chosen} bold={bold} inverse={colour ? inverse : false} wrap={wrap}>
      {children}
    </Text>
  );
}
