// When the screen is drawn again after its state changed. What a user does (a key, a resize) is drawn at
// once, and so is what follows it shortly (the page a key asked for). Work in the background changes the
// state far more often than anyone reads it — a matrix counting thousands of cells at local speed, a
// merged list filling in, names arriving — and every drawing reconciles and lays out the whole screen:
// those changes are drawn at once when the screen has not been drawn for a frame, else together at the
// end of the frame.

import { monotonicMs } from '../../api/wire/clock.js';

/** How often background work may draw the screen: 20 frames a second. */
export const BACKGROUND_FRAME_MS = 50;
/** How long after a key its consequences are drawn as they come. */
const AFTER_USER_MS = 250;

export class DrawPacer {
  private userAt = -Infinity;
  private drawnAt = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly draw: () => void,
    private readonly clock: () => number = monotonicMs,
  ) {}

  /** A key or a resize: what changes now and shortly after is drawn at once. */
  userActed(): void {
    this.userAt = this.clock();
  }

  /** The state changed: drawn now, or at the end of the frame. */
  changed(): void {
    const at = this.clock();
    if (at - this.userAt < AFTER_USER_MS || at - this.drawnAt >= BACKGROUND_FRAME_MS) return this.drawNow();
    this.timer ??= setTimeout(() => this.drawNow(), BACKGROUND_FRAME_MS - (at - this.drawnAt));
  }

  /** No drawing is left pending (the explorer is closing). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private drawNow(): void {
    this.stop();
    this.drawnAt = this.clock();
    this.draw();
  }
}
