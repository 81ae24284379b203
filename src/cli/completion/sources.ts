// Where completion's names come from: the config file for profiles; for resources, operations, versions
// and units, the control plane the line's options (else the environment, else the profile) point at. Its
// discovery index and unit list are kept in the cache folder and used without a request while younger
// than FRESH_FOR_MS; older ones are asked for again (the index with If-None-Match, so an unchanged one
// costs a 304), and when that fails the old ones still serve. No source may fail completion: each gives
// what it can, or nothing.

import type { Catalog } from '../../api/hal/catalog.js';
import type { Session } from '../../api/session/session.js';
import { catalogFromIndex } from '../../api/hal/discovery.js';
import { loadUnits, type OrgUnit } from '../../api/fanout/units.js';
import { indexCache, unitCache, type StoredUnits } from '../../config/cache.js';
import { defaultCacheDir } from '../../config/cache-dir.js';
import { listProfiles, type Profile } from '../../config/profiles.js';
import { Resolved } from '../../config/resolved.js';
import type { GlobalFlags } from '../../config/settings.js';
import type { DemoHandle } from '../../demo/server.js';
import { startDemoFor } from '../context.js';

/** How long a kept index or unit list is used without asking the server. */
export const FRESH_FOR_MS = 10 * 60_000;
/** Someone is waiting at the prompt: a control plane that has not answered by then is not waited for (and all of completion has a deadline of its own). */
const REQUEST_TIMEOUT_MS = 2_000;

interface Connection {
  session: Session;
  /** False for the demo: its port changes with every start, so nothing of it is worth keeping. */
  cached: boolean;
  /** Without a token the server is not asked; kept names serve however old. */
  canAsk: boolean;
}

export class CompletionSources {
  private connection: Promise<Connection | undefined> | undefined;
  private demo: DemoHandle | undefined;
  private readonly cacheDir: string;

  constructor(
    private readonly flags: GlobalFlags,
    private readonly env: NodeJS.ProcessEnv,
    private readonly configPath: string,
  ) {
    this.cacheDir = defaultCacheDir(env);
  }

  async profiles(): Promise<{ name: string; profile: Profile }[]> {
    return listProfiles(this.configPath).catch(() => []);
  }

  async catalog(): Promise<Catalog | undefined> {
    const connection = await this.connect();
    if (!connection) return undefined;
    const { session, cached, canAsk } = connection;
    if (!cached) return session.catalog().catch(() => undefined);
    const store = indexCache(this.cacheDir);
    return freshOrKept(
      { read: () => store.read(session.baseUrl), write: (entry) => store.write(session.baseUrl, entry) },
      (entry) => catalogFromIndex(entry, session.baseUrl, session.vendor),
      // The session revalidates and keeps the index itself.
      canAsk ? () => session.catalog() : undefined,
    );
  }

  async units(): Promise<OrgUnit[] | undefined> {
    const connection = await this.connect();
    if (!connection) return undefined;
    const { session, cached, canAsk } = connection;
    if (!cached) return loadUnits(session).catch(() => undefined);
    const store = unitCache(this.cacheDir);
    const kept: Kept<StoredUnits> = {
      read: () => store.read(session.baseUrl),
      write: (entry) => store.write(session.baseUrl, entry),
    };
    const refresh = async (): Promise<OrgUnit[]> => {
      const units = (await loadUnits(session)) ?? [];
      await kept.write({ units, checkedAt: Date.now() });
      return units;
    };
    return freshOrKept(kept, (entry) => entry.units, canAsk ? refresh : undefined);
  }

  async close(): Promise<void> {
    await this.demo?.close().catch(() => undefined);
  }

  /** The control plane's session, once; undefined when no base URL is known or the settings cannot be read. */
  private connect(): Promise<Connection | undefined> {
    this.connection ??= this.openSession().catch(() => undefined);
    return this.connection;
  }

  private async openSession(): Promise<Connection | undefined> {
    const resolved = await Resolved.of(this.flags, this.env, this.configPath);
    const { settings } = resolved;
    if (this.flags.demo) this.demo = await startDemoFor(settings);
    if (settings.baseUrl === undefined) return undefined;
    const session = resolved.session(
      { ...settings, baseUrl: settings.baseUrl, timeoutMs: REQUEST_TIMEOUT_MS },
      { maxRetries: 0, ...(this.demo ? {} : { indexStore: indexCache(this.cacheDir) }) },
    );
    // A token command is not run for a completion: it may take seconds, or prompt.
    return { session, cached: this.demo === undefined, canAsk: settings.token !== undefined };
  }
}

interface Kept<E extends { checkedAt: number }> {
  read(): Promise<E | undefined>;
  write(entry: E): Promise<void>;
}

/**
 * A kept entry younger than FRESH_FOR_MS as is; else what `refresh` gets; when that fails (or there is no
 * asking), the kept entry however old, marked as just asked about so that the next completion does not
 * wait on the server again.
 */
async function freshOrKept<E extends { checkedAt: number }, T>(
  kept: Kept<E>,
  use: (entry: E) => T,
  refresh: (() => Promise<T>) | undefined,
): Promise<T | undefined> {
  const entry = await kept.read().catch(() => undefined);
  const usable = (from: E): T | undefined => {
    try {
      return use(from);
    } catch {
      return undefined;
    }
  };
  if (entry && Date.now() - entry.checkedAt < FRESH_FOR_MS) {
    const value = usable(entry);
    if (value !== undefined) return value;
  }
  try {
    if (refresh) return await refresh();
  } catch {
    if (entry) await kept.write({ ...entry, checkedAt: Date.now() }).catch(() => undefined);
  }
  return entry && usable(entry);
}
