// The settings a command runs with, each taken from the first place that has it:
// command-line flags, then the environment, then the profile, then the defaults.

import { basename, dirname, resolve } from 'node:path';
import { UsageError } from '../api/errors.js';
import type { RecordedTrail } from '../api/case/har.js';
import type { NetworkOptions } from '../api/session/session-options.js';
import type { WritesLock } from '../api/security/safety.js';
import type { TokenCommand } from './token-command.js';
import { networkSettings } from './network.js';
import { defaultConfigPath, loadConfig, requireProfile, type ConfigFile, type Profile } from './profiles.js';
import {
  checkTokenOrigin,
  expandHome,
  localPath,
  resolveToken,
  tokenOrigins,
  trustedOrigin,
  type TokenKind,
} from './tokens.js';
import type { TokenReference } from '../api/security/curl.js';

export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  tokenFile?: string;
  ou?: string;
  ouHeader?: string;
  vendor?: string;
  readOnly?: boolean;
  allowWrites?: boolean;
  /** seconds */
  timeout?: number;
  /** Requests in flight at once per control plane. */
  concurrency?: number;
  /** Requests per second per control plane, at most. */
  rate?: number;
  trail?: string;
  demo?: boolean;
  /** A trail (HAR) to answer every request from, instead of a control plane. */
  offline?: string;
  /** The forward proxy, over the profile's and the environment's; "" for none. */
  proxy?: string;
  /** A PEM file of certificate authorities to trust besides Node's own. */
  caFile?: string;
  /** A PEM file of certificate authorities to trust for an https:// proxy's own certificate (else caFile's). */
  proxyCaFile?: string;
  /** An origin the token may be sent to although it belongs to another. */
  trustOrigin?: string;
  /** The saved view this run is (never from argv): it only reads, whatever else the flags say. */
  view?: string;
}

/** Offline: the trail that stands in for the control plane, and how to name it on screen. */
export interface OfflineSource {
  file: string;
  /** `OFFLINE · <file name>`: the explorer's header badge. */
  label: string;
  trail: RecordedTrail;
}

export interface Settings {
  profile?: string;
  baseUrl?: string;
  token?: string;
  /** Where the token came from, for messages (never the token itself). */
  tokenSource?: string;
  /** A file, a variable, a command, or the demo. */
  tokenKind?: TokenKind;
  /** The command whose output is the token, run when it is first needed (then `token` is unset). */
  tokenCommand?: TokenCommand;
  /** The origins the token belongs to: it is sent to no other unless --trust-origin names it. */
  tokenOrigins?: string[];
  /**
   * The run's `now`: what relative windows (`--since 24h`) are read against, and the time its case page
   * records. Offline it is the recorded command's, so that its window is asked again as it was recorded.
   */
  now: Date;
  /** Where the token came from, for a copied curl to read it from the same place. */
  tokenRef?: TokenReference;
  ou?: string;
  ouHeader?: string;
  vendor?: string;
  /** True when --vendor named the vendor: it then wins over the one the index's Content-Type names. */
  vendorOverride?: boolean;
  pageSize?: number;
  readOnly: boolean;
  /**
   * Why writes may not be turned on inside the explorer, when they may not: a profile set to read-only,
   * --read-only, or a trail that answers instead of a control plane.
   */
  writesLocked?: string;
  /** What would lift that lock: said with a write it refused. */
  writesLockHint?: string;
  timeoutMs: number;
  /** Requests in flight at once; the session's default when unset. */
  concurrency?: number;
  /** Requests per second, at most; the session's default when unset. */
  ratePerSecond?: number;
  /** The page guard: the most pages a walk by `next` links reads (DPX_MAX_PAGES); the session's default when unset. */
  pageGuard?: number;
  trail?: string;
  schemaDir?: string;
  /** A proxy, certificate authorities: how the control plane is reached, when not Node's defaults. */
  network?: NetworkOptions;
  /** Set with --offline: requests are answered from this trail and never sent; no token is read. */
  offline?: OfflineSource;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export async function resolveSettings(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  configPath = defaultConfigPath(env),
): Promise<Settings> {
  return settingsFrom(await loadConfig(configPath), flags, env, configPath, false);
}

/**
 * One profile's settings in a run over several profiles at once: its control plane — base URL, token,
 * unit — comes from the profile alone. --base-url, --token-file, DPX_BASE_URL, DPX_TOKEN and DPX_OU each
 * name one control plane, and a token given for one must never be sent to the others.
 */
export async function resolveProfileSettings(
  name: string,
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  configPath = defaultConfigPath(env),
): Promise<Settings> {
  return settingsFrom(await loadConfig(configPath), { ...flags, profile: name }, env, configPath, true);
}

/**
 * The settings of one control plane from a config file already read. `own`: the control plane from the
 * profile alone (see resolveProfileSettings).
 */
export async function settingsFrom(
  config: ConfigFile,
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv,
  configPath: string,
  own: boolean,
): Promise<Settings> {
  if (flags.offline !== undefined) {
    if (flags.demo)
      throw new UsageError(
        '--offline and --demo contradict each other',
        'give one of them: the trail or the demo answers',
      );
    if (flags.baseUrl !== undefined)
      throw new UsageError('--offline takes the base URL from the trail', 'leave out --base-url');
  }
  // The demo and a trail bring their own control plane: no profile applies unless one is asked for by name.
  const ownControlPlane = flags.demo === true || flags.offline !== undefined;
  const profileName = flags.profile ?? (ownControlPlane ? undefined : (nonEmpty(env['DPX_PROFILE']) ?? config.current));
  const profile: Partial<Profile> = profileName === undefined ? {} : requireProfile(config, profileName, configPath);
  // Paths in a profile are relative to the config file, not to wherever dpx happens to be run.
  const profileDir = dirname(configPath);
  const ouHeader = flags.ouHeader ?? profile.ouHeader;
  const offline = flags.offline === undefined ? undefined : await offlineSource(flags.offline, ouHeader);

  const baseUrl = own
    ? profile.baseUrl
    : (offline?.trail.baseUrl ?? flags.baseUrl ?? nonEmpty(env['DPX_BASE_URL']) ?? profile.baseUrl);
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const trusted = trustedOrigin(flags.trustOrigin);

  const lock = writesLock(flags, profile, profileName, configPath, offline !== undefined);
  const settings: Settings = {
    now: new Date(),
    // A trail is read, never written to: nothing it would answer a write with was ever the server's answer to this one.
    readOnly: offline || flags.view !== undefined ? true : resolveReadOnly(flags, profile),
    ...defined({
      writesLocked: lock?.reason,
      writesLockHint: lock?.hint,
      vendorOverride: flags.vendor === undefined ? undefined : true,
    }),
    timeoutMs: resolveTimeout(flags.timeout),
    ...defined({
      profile: profileName,
      baseUrl,
      // Offline, the unit is the one the trail was recorded in unless another recorded one is asked for.
      ou: own
        ? profile.ou
        : offline
          ? (flags.ou ?? offline.trail.ou)
          : (flags.ou ?? nonEmpty(env['DPX_OU']) ?? profile.ou),
      ouHeader,
      // Offline, the trail knows the vendor before the index is read: the unit header is named after it.
      vendor: flags.vendor ?? profile.vendor ?? offline?.trail.vendor,
      pageSize: profile.pageSize,
      concurrency: flags.concurrency ?? envNumber(env, 'DPX_CONCURRENCY', true) ?? profile.concurrency,
      ratePerSecond: flags.rate ?? envNumber(env, 'DPX_RATE', false) ?? profile.rate,
      pageGuard: envNumber(env, 'DPX_MAX_PAGES', true),
      trail: flags.trail,
      schemaDir: profile.schemaDir === undefined ? undefined : localPath(profile.schemaDir, profileDir),
      // Offline nothing goes out, so nothing is reached through anything.
      network: offline ? undefined : await networkSettings(flags, profile, profileDir, env),
      offline,
    }),
  };
  if (ownControlPlane) return settings;
  const token = await resolveToken({
    ...(own || flags.tokenFile === undefined ? {} : { tokenFile: flags.tokenFile }),
    env: own ? {} : env,
    profileEnv: env,
    profile,
    ...(profileName === undefined ? {} : { profileName }),
    profileDir,
  });
  if (token) {
    const known = Object.values(config.profiles)
      .map((entry) => originOrUndefined(entry.baseUrl))
      .filter((origin): origin is string => origin !== undefined);
    const origins = tokenOrigins(token, known, baseUrl, profile.baseUrl);
    // Before anything is sent: a token given for one control plane is not sent to another by mistake.
    if (baseUrl !== undefined) checkTokenOrigin(baseUrl, origins, token.source, trusted);
    Object.assign(
      settings,
      defined({ token: token.token, tokenCommand: token.command, tokenSource: token.source, tokenKind: token.kind }),
    );
    if (origins.length > 0) settings.tokenOrigins = origins;
    settings.tokenRef = token.ref;
  }
  return settings;
}

async function offlineSource(file: string, ouHeader: string | undefined): Promise<OfflineSource> {
  const path = resolve(expandHome(file));
  const { readTrail } = await import('../api/case/har.js');
  const trail = await readTrail(path, ouHeader === undefined ? {} : { ouHeader });
  return { file: path, label: `OFFLINE · ${basename(path)}`, trail };
}

function writesLock(
  flags: GlobalFlags,
  profile: Partial<Profile>,
  profileName: string | undefined,
  configPath: string,
  offline: boolean,
): WritesLock | undefined {
  if (offline)
    return {
      reason: 'a recorded trail answers: nothing is ever sent',
      hint: 'a write goes to a live control plane: run without --offline',
    };
  if (flags.view !== undefined)
    return {
      reason: `the view ${flags.view} only reads`,
      hint: 'a view is a question; to change data, run the command yourself',
    };
  if (flags.readOnly) return { reason: 'started with --read-only', hint: 'leave --read-only out to allow writes' };
  // An explicit "readOnly": true locks the profile: a flag or a key press does not undo what its owner wrote.
  if (profile.readOnly === true)
    return {
      reason: 'the profile is set to read-only',
      hint: `the profile ${profileName} is locked by "readOnly": true in ${configPath}: set it to false there to allow writes`,
    };
  return undefined;
}

function resolveReadOnly(flags: GlobalFlags, profile: Partial<Profile>): boolean {
  if (flags.readOnly || profile.readOnly === true) return true;
  if (flags.allowWrites) return false;
  return profile.readOnly !== false;
}

function resolveTimeout(seconds: number | undefined): number {
  if (seconds === undefined) return DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `invalid timeout ${seconds}`,
      'give --timeout a positive number of seconds, e.g. --timeout 30',
    );
  }
  return Math.round(seconds * 1000);
}

/** A positive number from the environment; a malformed one is an error, not silently the default. */
function envNumber(env: NodeJS.ProcessEnv, name: string, whole: boolean): number | undefined {
  const text = nonEmpty(env[name]?.trim());
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new UsageError(
      `${name} must be a positive ${whole ? 'whole ' : ''}number, not '${text}'`,
      `unset it, or set e.g. ${name}=${whole ? 8 : 50}`,
    );
  }
  return value;
}

function checkBaseUrl(baseUrl: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`invalid base URL "${baseUrl}"`, 'give a full URL such as https://dpm.example.com/api');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `invalid base URL "${baseUrl}": only http and https are supported`,
      'give a full URL such as https://dpm.example.com/api',
    );
  }
}

function originOrUndefined(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
