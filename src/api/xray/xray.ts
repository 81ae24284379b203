// The x-ray of one record: everything its links reach, breadth first to a depth; every list whose
// records refer to it by id; and those referring records as a history. Results arrive as events while
// the answers come in, so a screen can grow a tree; the CLI takes the whole result at the end.
//
// Cost, exactly: one request per record read (the root when it is not given, and each distinct record
// the links reach), one per list whose fields had to be learned from a page, and one per inbound
// candidate, asked at the largest page the list takes — plus one per list that refuses the large page
// asked first, once per session. The discovery index is read once per session before the x-ray and is
// not counted here.
// Every request goes through the session, at most `concurrency` at a time.
import { Channel } from '../channel.js';
import type { Session } from '../session/session.js';
import { XrayRun } from './run.js';
import type { XrayEvent, XrayOptions, XrayResult, XrayTarget } from './types.js';

export type { XrayEdge, XrayNode, NodeState } from './graph.js';
export type { InboundCandidate } from './inbound.js';
export type { TimelineEntry } from './history.js';
export { unsearchableText } from './lookups.js';
export type { FilterStore, StoredFilterKnowledge } from './filters.js';
export * from './types.js';

/**
 * The x-ray as events, in the order things are learned; the generator's return value is the whole
 * result. Stopping early (break, return) or aborting the signal cancels the requests in flight.
 */
export async function* xray(
  session: Session,
  target: XrayTarget,
  options: XrayOptions = {},
): AsyncGenerator<XrayEvent, XrayResult> {
  const events = new Channel<XrayEvent>();
  const run = new XrayRun(session, options, (event) => events.push(event));
  const done = run.start(target).finally(() => events.close());
  // Read below; a consumer that stops early never awaits it, and its failure is then nobody's concern.
  done.catch(() => undefined);
  try {
    yield* events;
    return await done;
  } finally {
    run.stop();
  }
}

/** The x-ray with a callback per event, for callers that want the result as one promise. */
export async function runXray(
  session: Session,
  target: XrayTarget,
  options: XrayOptions & { onEvent?: (event: XrayEvent) => void } = {},
): Promise<XrayResult> {
  const events = xray(session, target, options);
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    options.onEvent?.(next.value);
  }
}
