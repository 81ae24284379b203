// Every source asked side by side, their events read as one stream: the way `fanOutList` (one list over
// many scopes) and `askAcross` (one question over many regions) both run their sources. A reader that
// falls behind holds the sources back; stopping the iteration, or the caller's signal, cancels them all.

import { setMaxListeners } from 'node:events';
import { Channel } from '../channel.js';
import { UsageError, type DpxError } from '../errors.js';

/** What the stream needs to know of an event: a source that failed, and with what. */
export interface SourceEvent {
  kind: string;
  error?: DpxError;
}

/** Pages the reader may fall behind by before the sources wait for it. */
const BACKLOG_PAGES = 16;

/**
 * The events each source's `read` sends, as they come. A source that does not know the question (a
 * `failed` event with a usage error, such as an unknown resource) is held back: if no source answers,
 * the question is wrong and that error is thrown; once one answers (`answers(event)`), the others'
 * refusals are reported like any failure.
 */
export async function* sideBySide<S, E extends SourceEvent>(
  sources: readonly S[],
  read: (source: S, events: Channel<E>, signal: AbortSignal) => Promise<void>,
  answers: (event: E) => boolean,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<E> {
  const stop = new AbortController();
  // Every request waiting for a slot listens to this one signal: hundreds of listeners are expected.
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const events = new Channel<E>(BACKLOG_PAGES);
  try {
    void Promise.all(sources.map((source) => read(source, events, stop.signal))).then(
      () => events.close(),
      (error: unknown) => events.close(error),
    );
    const refusals: E[] = [];
    let answered = false;
    for await (const event of events) {
      if (event.kind === 'failed' && event.error instanceof UsageError && !answered) {
        refusals.push(event);
        continue;
      }
      if (!answered && answers(event)) {
        answered = true;
        yield* refusals.splice(0);
      }
      yield event;
    }
    if (refusals.length === sources.length && refusals[0]?.error) throw refusals[0].error;
    yield* refusals;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    events.close();
  }
}
