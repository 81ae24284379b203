// One control plane the explorer talks to: a profile's settings turned into a session. The explorer
// keeps one per profile it has visited, so switching back finds the same session (OU, request count).
// Every screen's data comes from an origin, a connection and the unit its requests were made in, which
// it keeps whatever the user switches to afterwards.
import type { TokenReference } from '../../api/security/curl.js';
import type { Session } from '../../api/session/session.js';
import { listProfiles } from '../../config/profiles.js';
import { Resolved, type SessionHooks } from '../../config/resolved.js';
import { sessionFromSettings } from '../../config/session.js';
import type { Settings } from '../../config/settings.js';

export type { SessionHooks } from '../../config/resolved.js';

export interface Connection {
  /** The profile's name, or a label such as "demo" for a session that comes from no profile. */
  profile?: string;
  /** Set when every answer comes from a recorded trail ("OFFLINE · case-42.har"): nothing is sent. */
  offline?: string;
  session: Session;
  token?: string;
  /** Where the token came from: a copied curl reads it from there. */
  tokenRef?: TokenReference;
  /** Why writes cannot be turned on here, when they cannot (a read-only profile, a trail). */
  writesLocked?: string;
  schemaDir?: string;
  pageSize?: number;
}

/** Where a screen's records come from: the control plane, and the unit its requests are scoped to. */
export interface Origin {
  connection: Connection;
  ou: string | undefined;
}

export interface ProfileChoice {
  name: string;
  baseUrl: string;
  current: boolean;
}

/** Where profiles come from: the config file, read again each time so a `dpx profile add` elsewhere shows up. */
export interface ProfileSource {
  list(): Promise<ProfileChoice[]>;
  connect(name: string): Promise<Connection>;
}

export function connectionFromSettings(
  settings: Settings & { baseUrl: string },
  hooks: SessionHooks,
  label?: string,
): Connection {
  const profile = settings.offline ? undefined : (settings.profile ?? label);
  return {
    session: sessionFromSettings(settings, hooks),
    ...(settings.offline ? { offline: settings.offline.label } : {}),
    ...(profile === undefined ? {} : { profile }),
    // A token from a command is known once it ran.
    get token() {
      return settings.token ?? settings.tokenCommand?.known;
    },
    ...(settings.tokenRef === undefined ? {} : { tokenRef: settings.tokenRef }),
    ...(settings.writesLocked === undefined ? {} : { writesLocked: settings.writesLocked }),
    ...(settings.schemaDir === undefined ? {} : { schemaDir: settings.schemaDir }),
    ...(settings.pageSize === undefined ? {} : { pageSize: settings.pageSize }),
  };
}

/**
 * Profiles of the config file at `configPath`. A profile's settings are resolved exactly as
 * `dpx --profile NAME` resolves them (token file or variable, default OU, read-only), so the
 * environment's DPX_* variables apply here as they do on the command line.
 */
export function configProfiles(configPath: string, env: NodeJS.ProcessEnv, hooks: SessionHooks): ProfileSource {
  return {
    async list() {
      return (await listProfiles(configPath)).map(({ name, profile, current }) => ({
        name,
        baseUrl: profile.baseUrl,
        current,
      }));
    },
    async connect(name) {
      const { settings } = await Resolved.of({ profile: name }, env, configPath);
      // A profile always has a base URL; the environment may override it, as on the command line.
      const baseUrl = settings.baseUrl ?? '';
      return connectionFromSettings({ ...settings, baseUrl }, hooks);
    },
  };
}
