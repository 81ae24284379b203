// Resolved settings turned into a session: the one place that knows which setting feeds which session
// option, shared by the command line and the explorer's profile switcher. Offline settings give a
// session that answers from their trail.
import type { ExchangeListener } from '../api/exchange.js';
import type { RecordedTrail } from '../api/case/har.js';
import type { IndexStore } from '../api/hal/discovery.js';
import type { PageSizeStore } from '../api/session/session-options.js';
import { Session } from '../api/session/session.js';
import type { Transport } from '../api/wire/transport.js';
import type { Settings } from './settings.js';

/** What the caller adds to the settings: listeners, and how the session behaves for it. */
export interface SessionHooks {
  onExchange?: ExchangeListener;
  onWarning?: (message: string) => void;
  /** Keeps the discovery index between runs (config/cache.ts indexCache); revalidated with If-None-Match. */
  indexStore?: IndexStore;
  /** Keeps each list's largest page between runs (config/cache.ts pageSizeCache). */
  pageSizeStore?: PageSizeStore;
  /** Retries of a failed read; shell completion makes none, since someone is waiting at the prompt. */
  maxRetries?: number;
  /** The run's interruption: once it aborts, the session sends nothing more. */
  stop?: AbortSignal;
}

export function sessionFromSettings(settings: Settings & { baseUrl: string }, hooks: SessionHooks): Session {
  return new Session({
    baseUrl: settings.baseUrl,
    readOnly: settings.readOnly,
    ...(settings.writesLocked === undefined
      ? {}
      : { writesLocked: { reason: settings.writesLocked, hint: settings.writesLockHint ?? '' } }),
    timeoutMs: settings.timeoutMs,
    ...(settings.token === undefined ? {} : { token: settings.token }),
    ...(settings.tokenCommand === undefined ? {} : { credential: settings.tokenCommand }),
    ...(settings.network === undefined ? {} : { network: settings.network }),
    ...(settings.ou === undefined ? {} : { ou: settings.ou }),
    ...(settings.ouHeader === undefined ? {} : { ouHeader: settings.ouHeader }),
    ...(settings.vendor === undefined
      ? {}
      : { vendor: settings.vendor, ...(settings.vendorOverride ? { vendorOverride: true } : {}) }),
    ...(settings.concurrency === undefined ? {} : { concurrency: settings.concurrency }),
    ...(settings.ratePerSecond === undefined ? {} : { ratePerSecond: settings.ratePerSecond }),
    ...(hooks.onExchange ? { onExchange: hooks.onExchange } : {}),
    ...(hooks.onWarning ? { onWarning: hooks.onWarning } : {}),
    // A trail's index is its own: offline, the index cache is neither read nor written.
    ...(hooks.indexStore && settings.offline === undefined ? { indexStore: hooks.indexStore } : {}),
    ...(hooks.pageSizeStore && settings.offline === undefined ? { pageSizeStore: hooks.pageSizeStore } : {}),
    ...(hooks.maxRetries === undefined ? {} : { maxRetries: hooks.maxRetries }),
    ...(hooks.stop === undefined ? {} : { stop: hooks.stop }),
    ...(settings.pageGuard === undefined ? {} : { pageGuard: settings.pageGuard }),
    // Offline, the trail answers at the end of the request chain: nothing is sent, and there is no token
    // to send. A recorded 429 or 503 would answer every retry the same, so there are none.
    ...(settings.offline === undefined ? {} : { transport: offlineTransport(settings.offline.trail), maxRetries: 0 }),
  });
}

/** The trail's answers, their code loaded with the first request: only an offline run needs it. */
function offlineTransport(trail: RecordedTrail): Transport {
  let transport: Promise<Transport> | undefined;
  return async (request, context) => {
    transport ??= import('../api/case/offline.js').then(({ trailTransport }) => trailTransport(trail));
    return (await transport)(request, context);
  };
}
