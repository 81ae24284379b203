// A time window (`--since`, `:count … since 24h`) put on a list: on the resource's own time field, sent as
// a filter. One request tells whether the server takes it: the list's first page, which a walk then reads
// again from the session's freshness window at no cost. Where the server refuses it, the caller gets the
// plain filter and a test to apply to the records as they stream. The command line and the explorer both
// ask here, and each says in its own way what was chosen.
import { ApiError, UsageError } from '../errors.js';
import { inWindow, timeFieldFor, windowFilter, type TimeWindow } from '../hal/time-window.js';
import { listRequest, readPage } from './pages.js';
import type { Session } from './session.js';

/** The list the window goes on: what `listRequest` takes. */
type WindowTarget = Parameters<typeof listRequest>[1];

export interface Windowed {
  /** The filter to send: the window ANDed in, or the plain one where the server refused it. */
  filter?: string;
  /** Set when the server refused the window: the records to keep, tested here. */
  keep?: (record: Record<string, unknown>) => boolean;
  /** The time field the window is on. */
  field: string;
  /** Why the server refused the window as a filter, when it did. */
  refused?: string;
}

/** The window on `target`'s list, on `timeField` or the resource's own time field; a usage error when it has none. */
export async function windowOnList(
  session: Session,
  target: WindowTarget,
  window: TimeWindow,
  timeField?: string,
): Promise<Windowed> {
  const plain = await listRequest(session, target);
  const field = timeField ?? timeFieldFor(plain.resource, plain.version, await firstRecord(session, plain));
  if (field === undefined) {
    throw new UsageError(
      `${target.resource} ${plain.version} has no time field that dpx can find`,
      'name one with --time-field FIELD',
    );
  }
  const filter = windowFilter(target.filter, field, window);
  try {
    await session.send(await listRequest(session, { ...target, filter }));
    return { filter, field };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    return {
      ...(target.filter === undefined ? {} : { filter: target.filter }),
      keep: (record) => inWindow(record, field, window),
      field,
      refused: error.message,
    };
  }
}

/** Only asked for when the schema names no time field: the first record shows which fields hold times. */
async function firstRecord(
  session: Session,
  request: Parameters<Session['send']>[0],
): Promise<Record<string, unknown> | undefined> {
  const response = await session.send(request);
  return readPage(response).items[0];
}
