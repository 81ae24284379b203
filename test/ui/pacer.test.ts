// The explorer draws what a user does at once and paces what background work changes: a burst of changes
// (a matrix counting at local speed) is drawn when it starts and once at the end of the frame, with the
// last state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_FRAME_MS, DrawPacer } from '../../src/ui/nav/pacer.js';

let clock = 0;
let drawn: number[] = [];
let state = 0;
let pacer: DrawPacer;

beforeEach(() => {
  vi.useFakeTimers();
  clock = 1_000;
  drawn = [];
  state = 0;
  pacer = new DrawPacer(
    () => drawn.push(state),
    () => clock,
  );
});
afterEach(() => {
  pacer.stop();
  vi.useRealTimers();
});

/** A change of the state at the current time. */
function change(): void {
  state += 1;
  pacer.changed();
}

describe('the draw pacer', () => {
  it('draws the first of a burst of background changes at once, and the last at the end of the frame', () => {
    for (let i = 0; i < 500; i++) change();
    expect(drawn).toEqual([1]);
    clock += BACKGROUND_FRAME_MS;
    vi.advanceTimersByTime(BACKGROUND_FRAME_MS);
    expect(drawn).toEqual([1, 500]);
    // Nothing changed since: nothing more is drawn.
    vi.advanceTimersByTime(10 * BACKGROUND_FRAME_MS);
    expect(drawn).toEqual([1, 500]);
  });

  it('draws a background change at once when the screen has not been drawn for a frame', () => {
    change();
    clock += BACKGROUND_FRAME_MS;
    change();
    expect(drawn).toEqual([1, 2]);
  });

  it('draws every change at once after a key, even in the middle of a burst', () => {
    change();
    change();
    expect(drawn).toEqual([1]);
    pacer.userActed();
    change();
    clock += 100;
    change();
    // The pending end-of-frame drawing was taken by the key's: drawn once, not again later.
    expect(drawn).toEqual([1, 3, 4]);
    vi.advanceTimersByTime(BACKGROUND_FRAME_MS);
    expect(drawn).toEqual([1, 3, 4]);
  });

  it('draws nothing pending once stopped', () => {
    change();
    change();
    pacer.stop();
    vi.advanceTimersByTime(BACKGROUND_FRAME_MS);
    expect(drawn).toEqual([1]);
  });
});
