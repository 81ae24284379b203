// Resolved settings turned into a session: the one place that knows which setting feeds which session
// option, shared by the command line and the explorer's profile switcher.
import type { ExchangeListener } from '../api/exchange.js';
import { Session, type IndexStore } from '../api/session.js';
import type { Settings } from './settings.js';

/** What the caller adds to the settings: listeners, and how the session behaves for it. */
export interface SessionHooks {
  onExchange?: ExchangeListener;
  onWarning?: (message: string) => void;
  /** Keeps the discovery index between runs (config/cache.ts indexCache); revalidated with If-None-Match. */
  indexStore?: IndexStore;
  /** Retries of a failed read; shell completion makes none, since someone is waiting at the prompt. */
  maxRetries?: number;
}

export function sessionFromSettings(settings: Settings & { baseUrl: string }, hooks: SessionHooks): Session {
  return new Session({
    baseUrl: settings.baseUrl,
    readOnly: settings.readOnly,
    timeoutMs: settings.timeoutMs,
    ...(settings.token === undefined ? {} : { token: settings.token }),
    ...(settings.ou === undefined ? {} : { ou: settings.ou }),
    ...(settings.ouHeader === undefined ? {} : { ouHeader: settings.ouHeader }),
    ...(settings.vendor === undefined ? {} : { vendor: settings.vendor }),
    ...(hooks.onExchange ? { onExchange: hooks.onExchange } : {}),
    ...(hooks.onWarning ? { onWarning: hooks.onWarning } : {}),
    ...(hooks.indexStore ? { indexStore: hooks.indexStore } : {}),
    ...(hooks.maxRetries === undefined ? {} : { maxRetries: hooks.maxRetries }),
  });
}
