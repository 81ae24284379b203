// The largest page a list accepts, so that a walk over every record (list --all, fan-out, a count's scan,
// x-ray) takes the fewest requests. It is learned by asking for a large page once: a server that takes
// it answers with it; one that clamps it answers with fewer records and a next link (and is asked for
// the large page again: it answers the same); one that refuses it names its range in the 400, which is
// read. The probe is the walk's own first page (the session's freshness window answers it again), so
// learning costs nothing where the large page is taken or clamped, and one request where it is refused.
// Remembered per session, that is per control plane, and list.
import { ApiError } from '../errors.js';
import { listRequest, readPage } from './pages.js';
import type { Session } from './session.js';

/** Asked for first: larger than any page size servers of this kind commonly allow. */
export const PROBE_PAGE_SIZE = 1000;

type ListTarget = Parameters<typeof listRequest>[1];

export interface PageSize {
  /** The page size to ask for. */
  ask: number;
  /** How many records a full page holds: `ask`, or fewer where the server clamps it. */
  perPage: number;
}

const learned = new WeakMap<Session, Map<string, PageSize | undefined>>();

/** The largest page the list gives; undefined when it cannot be learned (the server's default applies). */
export async function largestPageSize(session: Session, target: ListTarget, signal?: AbortSignal): Promise<PageSize | undefined> {
  const probe = await listRequest(session, { ...target, pageSize: PROBE_PAGE_SIZE });
  const key = `${probe.resource} ${probe.version} ${probe.operationId}`;
  let known = learned.get(session);
  if (known === undefined) learned.set(session, (known = new Map()));
  if (known.has(key)) return known.get(key);
  const size = await learn(session, probe, signal);
  known.set(key, size);
  return size;
}

async function learn(session: Session, probe: Awaited<ReturnType<typeof listRequest>>, signal: AbortSignal | undefined): Promise<PageSize | undefined> {
  try {
    const response = await session.send(probe, signal ? { signal } : {});
    const page = readPage(response);
    // Fewer records than asked for while more follow: the server gave its largest page instead.
    const clamped = page.links.has('next') && page.items.length > 0 && page.items.length < PROBE_PAGE_SIZE;
    return { ask: PROBE_PAGE_SIZE, perPage: clamped ? page.items.length : PROBE_PAGE_SIZE };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    const largest = largestInRange(error.message);
    return largest === undefined ? undefined : { ask: largest, perPage: largest };
  }
}

/** The upper bound a refusal names: "from 1 to 100", "between 1 and 500", "at most 200", "maximum 50", "<= 250". */
export function largestInRange(message: string): number | undefined {
  const match = /\b(?:from|between)\s+\d+\s+(?:to|and)\s+(\d+)/i.exec(message)
    ?? /(?:at most|maximum(?:\s+(?:is|of))?|max(?:imum)?\s*[:=]|<=|≤|up to|must not exceed|cannot exceed)\s*(\d+)/i.exec(message);
  const value = match ? Number(match[1]) : NaN;
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
