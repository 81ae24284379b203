// The priority a request waits in the limiter with, when its caller names none: whatever work was started
// inside `withPriority`. The explorer starts each screen's work with the screen's depth on the stack, so
// the screen in front is served before those behind it, with no priority threaded through every reader
// (pages, counts, fan-outs, the x-ray) between the screen and the session.
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<number>();

/** Runs `work`; every request it sends, now or later in the promises it starts, waits with `priority`. */
export function withPriority<T>(priority: number, work: () => T): T {
  return current.run(priority, work);
}

/** The priority of the work running now (0 outside any). */
export function currentPriority(): number {
  return current.getStore() ?? 0;
}
