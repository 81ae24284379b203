// Resolved settings turned into a session: the one place that knows which setting feeds which session
// option, shared by the command line and the explorer's profile switcher.
import type { ExchangeListener } from '../api/exchange.js';
import { Session } from '../api/session.js';
import type { Settings } from './settings.js';

export interface SessionHooks {
  onExchange?: ExchangeListener;
  onWarning?: (message: string) => void;
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
  });
}
