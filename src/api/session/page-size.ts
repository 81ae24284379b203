// The largest page a list accepts, so that a walk over every record (list --all, fan-out over units and
// control planes, the explorer's merged lists, a count's scan) and an x-ray's inbound queries take the
// fewest requests. It is learned by asking for a large page once: a server that takes it answers with
// it; one that clamps it answers with fewer records and a next link (and is asked for the large page
// again: it answers the same); one that refuses it (any 4xx) may name its range, which is read, and the
// page is asked for again at the top of the range, else at the server's default. The probe is the caller's own first page: a walk
// finds it again in the session's freshness window, an x-ray's query takes the answer as it comes, so
// learning costs nothing where the large page is taken or clamped, and one request where it is refused.
//
// Remembered per session — that is per control plane (origin) — and list: a fan-out over 266 units, or
// an x-ray's queries to one list, learn it once. Callers that ask at once wait for the one that learns.
// A refusal that is not about the page size (a filter, a unit) is the caller's own answer, and teaches
// nothing: the next caller tries again. Where the session has a store (the cache folder), what an
// earlier run learned is this run's first guess instead of the large probe: the first page, asked at it,
// confirms it at no cost, and a server that has since lowered its limit refuses it and is learned anew.
// A list that could only be read at the server's default is asked at it for a week, then probed again:
// a server may lift its limit, and nothing else would show it.
import { ApiError } from '../errors.js';
import { pagingParameters, resolveOperation, type PreparedRequest } from '../hal/operation.js';
import type { ApiResponse } from '../wire/response.js';
import { listRequest, readPage } from './pages.js';
import type { PageSize, ServerDefaultPage, StoredPageSizes } from './session-options.js';
import type { Session } from './session.js';

/** Asked for first: larger than any page size servers of this kind commonly allow. */
export const PROBE_PAGE_SIZE = 1000;

/** How long a list read at the server's default is read so before it is probed again. */
export const SERVER_DEFAULT_KEPT_MS = 7 * 24 * 3600_000;

/** A list request's target, without a page size: that is what is learned. */
export type ListTarget = Omit<Parameters<typeof listRequest>[1], 'pageSize'>;

export type { PageSize } from './session-options.js';

/** Sends one request: the session's own send, or a caller's that counts and bounds what it sends (the x-ray's). */
export type Send = (request: PreparedRequest) => Promise<ApiResponse>;

/** A list's first page asked at its largest size, and that size (undefined: the server's default, none could be learned). */
export interface LargestPage {
  response: ApiResponse;
  size: PageSize | undefined;
}

type Stored = StoredPageSizes[string];

interface Memory {
  sizes: Map<string, PageSize | undefined>;
  /** What this run learned, as the store keeps it. */
  learned: Map<string, Exclude<Stored, null>>;
  /** Lists whose size is being learned now, by the caller that asked first: settled when it is done, whatever came of it. */
  learning: Map<string, Promise<void>>;
  /** What earlier runs learned, read once per session: the first guesses. */
  stored: Promise<StoredPageSizes>;
}

const memories = new WeakMap<Session, Memory>();

function memoryOf(session: Session): Memory {
  let memory = memories.get(session);
  if (memory === undefined) {
    // A cache that cannot be read is an empty one: the sizes are learned again.
    const stored = session.pageSizeStore?.read(session.baseUrl).catch(() => undefined) ?? Promise.resolve(undefined);
    memory = { sizes: new Map(), learned: new Map(), learning: new Map(), stored: stored.then((sizes) => sizes ?? {}) };
    memories.set(session, memory);
  }
  return memory;
}

/** Starts reading what earlier runs learned, for a caller that will soon ask and should not wait for a disk then. */
export function recallLargestPages(session: Session): void {
  memoryOf(session);
}

/**
 * What this run learned, over what earlier runs had, back into the store — only when it differs: a run
 * whose first page confirmed the kept size writes nothing. A cache that cannot be written is left as it was.
 */
async function keep(session: Session, memory: Memory): Promise<void> {
  const store = session.pageSizeStore;
  if (store === undefined) return;
  const earlier = await memory.stored;
  const learned = Object.fromEntries(memory.learned);
  if (Object.entries(learned).every(([key, size]) => sameStored(earlier[key], size))) return;
  await store.write(session.baseUrl, { ...earlier, ...learned }).catch(() => undefined);
}

function sameStored(a: Stored | undefined, b: Exclude<Stored, null>): boolean {
  if (a === undefined || a === null) return false;
  if ('serverDefault' in a || 'serverDefault' in b)
    return 'serverDefault' in a && 'serverDefault' in b && a.at === b.at;
  return a.ask === b.ask && a.perPage === b.perPage;
}

/**
 * What an earlier run learned that this run takes as its guess: a size, or a server's default learned
 * less than SERVER_DEFAULT_KEPT_MS ago. An older default, or a null without a date, is probed again.
 */
function earlierGuess(stored: Stored | undefined, now: number): PageSize | ServerDefaultPage | undefined {
  if (stored === undefined || stored === null) return undefined;
  if ('serverDefault' in stored) return now - stored.at < SERVER_DEFAULT_KEPT_MS ? stored : undefined;
  return stored;
}

/** The largest page the list gives; undefined when it cannot be learned (the server's default applies). */
export async function largestPageSize(
  session: Session,
  target: ListTarget,
  signal?: AbortSignal,
): Promise<PageSize | undefined> {
  const turn = await turnOf(session, target, signal);
  if (turn.known) return turn.size;
  return (await turn.learn((request) => session.send(request, signal ? { signal } : {}))).size;
}

/**
 * The list's first page at its largest size, sent with `send`: at the size learned before, else asked
 * at PROBE_PAGE_SIZE and learned from the answer (no request more than the page itself, where the
 * server takes or clamps the size).
 */
export async function firstPageAtLargest(
  session: Session,
  target: ListTarget,
  send: Send,
  signal?: AbortSignal,
): Promise<LargestPage> {
  const turn = await turnOf(session, target, signal);
  if (!turn.known) return turn.learn(send);
  const { size } = turn;
  return {
    response: await send(
      await listRequest(session, { ...target, ...(size === undefined ? {} : { pageSize: size.ask }) }),
    ),
    size,
  };
}

type Turn = { known: true; size: PageSize | undefined } | { known: false; learn: (send: Send) => Promise<LargestPage> };

/**
 * The list's size when it is known, once no other caller is learning it; else this caller's turn to
 * learn it, claimed at once, so that callers that come meanwhile wait for it.
 */
async function turnOf(session: Session, target: ListTarget, signal: AbortSignal | undefined): Promise<Turn> {
  const request = await listRequest(session, target);
  const key = `${request.resource} ${request.version} ${request.operationId}`;
  const memory = memoryOf(session);
  for (;;) {
    if (memory.sizes.has(key)) return { known: true, size: memory.sizes.get(key) };
    const other = memory.learning.get(key);
    if (other === undefined) break;
    // Another caller's failure is its own (its unit, its filter, its signal): this one then tries itself.
    await other;
    signal?.throwIfAborted();
  }
  let done = (): void => undefined;
  memory.learning.set(key, new Promise<void>((resolve) => (done = resolve)));
  return {
    known: false,
    learn: async (send) => {
      try {
        const now = Date.now();
        const guess = earlierGuess((await memory.stored)[key], now);
        const found = await learn(session, target, send, guess);
        memory.sizes.set(key, found.size);
        // A server's default taken at its word keeps the date it was learned; one found now is dated now.
        memory.learned.set(
          key,
          found.size ?? (guess !== undefined && 'serverDefault' in guess ? guess : { serverDefault: true, at: now }),
        );
        await keep(session, memory);
        return found;
      } finally {
        memory.learning.delete(key);
        done();
      }
    },
  };
}

/**
 * The first page asked at the guess — what an earlier run learned, else the probe — and the size that
 * answer shows. A server's default an earlier run learned (and not long ago) is taken at its word.
 */
async function learn(
  session: Session,
  target: ListTarget,
  send: Send,
  earlier: PageSize | ServerDefaultPage | undefined,
): Promise<LargestPage> {
  if (earlier !== undefined && 'serverDefault' in earlier)
    return { response: await send(await listRequest(session, target)), size: undefined };
  const guess = earlier?.ask ?? PROBE_PAGE_SIZE;
  try {
    const response = await send(await listRequest(session, { ...target, pageSize: guess }));
    const page = readPage(response);
    // Fewer records than asked for while more follow: the server gave its largest page instead.
    const clamped = page.links.has('next') && page.items.length > 0 && page.items.length < guess;
    return { response, size: { ask: guess, perPage: clamped ? page.items.length : guess } };
  } catch (error) {
    if (!(error instanceof ApiError) || !refusedRequest(error.status)) throw error;
    const { operation } = resolveOperation(await session.catalog(), target);
    const about = refusalAbout(error.message, pagingParameters(operation).pageSize);
    // The filter or the unit was refused: the list's own answer to the caller, whatever the page size.
    if (about === 'other') throw error;
    const largest = about === 'page size' ? largestInRange(error.message) : undefined;
    const size = largest === undefined ? undefined : { ask: largest, perPage: largest };
    // At the size the refusal named, else at the server's default: refused again, it was not the page size.
    const response = await send(
      await listRequest(session, { ...target, ...(size === undefined ? {} : { pageSize: size.ask }) }),
    );
    return { response, size };
  }
}

/**
 * Whether a status refuses what the request asked, which may be the page size: any 4xx (servers answer a
 * page too large with 400, 404 or 422), but not one about who asks (401, 403, 407) or how often (429),
 * which any page size would get.
 */
function refusedRequest(status: number): boolean {
  return status >= 400 && status <= 499 && ![401, 403, 407, 429].includes(status);
}

/** What a 4xx to the probe refused, by its words: the page size, something else the request carried, or it does not say. */
export function refusalAbout(message: string, pageSizeName: string): 'page size' | 'other' | 'unknown' {
  const words = message.toLowerCase();
  const named = pageSizeName.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (/page.?size|per.?page|\blimit\b/.test(words) || new RegExp(`(^|[^a-z0-9_])${named}([^a-z0-9_]|$)`).test(words))
    return 'page size';
  if (/filter|organi[sz]ational|\bunit\b|\bou\b|tenant|\bpage\b|\bstart\b|cursor|offset/.test(words)) return 'other';
  return 'unknown';
}

/** The upper bound a refusal names: "from 1 to 100", "between 1 and 500", "at most 200", "maximum 50", "<= 250". */
export function largestInRange(message: string): number | undefined {
  const match =
    /\b(?:from|between)\s+\d+\s+(?:to|and)\s+(\d+)/i.exec(message) ??
    /(?:at most|maximum(?:\s+(?:is|of))?|max(?:imum)?\s*[:=]|<=|≤|up to|must not exceed|cannot exceed)\s*(\d+)/i.exec(
      message,
    );
  const value = match ? Number(match[1]) : NaN;
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
