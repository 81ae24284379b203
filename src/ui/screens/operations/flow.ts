// What the screens of trying an operation share: where the flow's requests go (the origin of the screen
// it was opened from, so a record read in one unit is acted on in that unit), the record it was opened
// with, and how the flow ends.
import type { ScreenContext } from '../../nav/screen.js';
import type { Origin } from '../../services/connection.js';

export interface Flow {
  origin: Origin;
  /** The id of the flow's first screen: leaving the flow goes back to the screen under it. */
  start: number;
  /** The record the flow was opened with, and its resource: it fills variables and names a DELETE's target. */
  record?: { resource: string; fields: Record<string, unknown> };
}

/** Closes every screen of the flow, back to where it was opened. */
export function leaveFlow(ctx: ScreenContext<unknown>, flow: Flow): void {
  ctx.nav.backTo(flow.start);
  ctx.nav.back();
}

/** The unit a request of the flow goes to, by name when the explorer knows it. */
export function unitName(ctx: ScreenContext<unknown>, flow: Flow, ou: string | undefined): string | undefined {
  return ctx.services.unitName(flow.origin.connection, ou);
}
