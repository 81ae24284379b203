// A run's configuration, resolved once: the config file read once, this run's own control plane (its
// profile, settings and token), every other profile a command may open (`--profiles`), and the sessions
// made from them. The command line and the explorer are handed this one value and ask it; they do not
// go back to the profiles, the settings or the session factory themselves.

import type { Session } from '../api/session/session.js';
import { loadConfig, type ConfigFile } from './profiles.js';
import { sessionFromSettings, type SessionHooks } from './session.js';
import { settingsFrom, type GlobalFlags, type Settings } from './settings.js';

export type { SessionHooks } from './session.js';

export class Resolved {
  private constructor(
    readonly configPath: string,
    private readonly config: ConfigFile,
    private readonly flags: GlobalFlags,
    private readonly env: NodeJS.ProcessEnv,
    /** This run's own control plane; the demo, when started, writes its base URL and token here. */
    readonly settings: Settings,
  ) {}

  /** Reads the config file and resolves this run's settings: flags > environment > profile > defaults. */
  static async of(flags: GlobalFlags, env: NodeJS.ProcessEnv, configPath: string): Promise<Resolved> {
    const config = await loadConfig(configPath);
    return new Resolved(configPath, config, flags, env, await settingsFrom(config, flags, env, configPath, false));
  }

  /** The profiles of the config file, by name. */
  get profileNames(): string[] {
    return Object.keys(this.config.profiles).sort((a, b) => a.localeCompare(b));
  }

  /** A profile's base URL as the config file gives it: what names the row of a profile that cannot be opened. */
  profileBaseUrl(name: string): string | undefined {
    return this.config.profiles[name]?.baseUrl;
  }

  /**
   * One profile's settings in a run over several: its control plane — base URL, token, unit — from the
   * profile alone, since --base-url, --token-file and the DPX_* variables name only one.
   */
  profile(name: string): Promise<Settings> {
    return settingsFrom(this.config, { ...this.flags, profile: name }, this.env, this.configPath, true);
  }

  /** A session with the control plane of `settings` (this run's own, or a profile's). */
  session(settings: Settings & { baseUrl: string }, hooks: SessionHooks): Session {
    return sessionFromSettings(settings, hooks);
  }
}

/** The secrets settings hold: the token (a command's once it ran) and a proxy's credentials. */
export function secretsOf(settings: Settings): string[] {
  const secrets: string[] = [];
  if (settings.token) secrets.push(settings.token);
  const fromCommand = settings.tokenCommand?.known;
  if (fromCommand) secrets.push(fromCommand);
  const network = settings.network;
  for (const proxy of [network?.proxy, ...Object.values(network?.proxyEnvironment ?? {})]) {
    if (proxy) secrets.push(...proxyCredentials(proxy));
  }
  return secrets;
}

/** `user:password` of a proxy URL and the password alone (as written and decoded), when long enough to mask safely. */
function proxyCredentials(proxy: string): string[] {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`);
  } catch {
    return [];
  }
  if (!url.password) return [];
  const decoded = safeDecode(url.password);
  return [`${url.username}:${url.password}`, ...new Set([url.password, decoded])].filter(
    (secret) => secret.length >= 4,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
