// Where this run's bearer token comes from, and the origin it belongs to. The token never comes from a
// command-line argument: argv is visible to every user in `ps`.
//
// A token belongs to an origin, and is sent nowhere else (checked here, before the first request):
// - a profile's token (its file, variable or command) belongs to the profile's base URL;
// - a token from DPX_TOKEN or --token-file whose JWT `iss` or `aud` is the origin of a control plane dpx
//   knows (a profile's base URL) belongs to that origin; other values of those claims are ignored, since
//   an identity provider usually names itself there;
// - any other token belongs to the base URL it was given with.

import type { TokenReference } from '../api/security/curl.js';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
// jose's decoder from its own entry: the package's index would bring the demo's signing and verifying
// code into every command's start.
import { decodeJwt } from 'jose/jwt/decode';
import { SafetyError, UsageError } from '../api/errors.js';
import type { Profile } from './profiles.js';
import { TOKEN_COMMAND_TIMEOUT_MS, TokenCommand } from './token-command.js';
import { oneToken, readTokenFile } from './token-file.js';

/** Where a token came from, for `whoami` and messages: never the token itself. */
export type TokenKind = 'file' | 'variable' | 'command' | 'demo';

export interface ResolvedToken {
  /** Known at once (a file or a variable). */
  token?: string;
  /** Had when first needed (a command). */
  command?: TokenCommand;
  kind: TokenKind;
  /** `--token-file /path`, `DPX_TOKEN`, `token file /path`, `MY_TOKEN`, `token command of profile eu`. */
  source: string;
  /** Where the token came from in the order of precedence: the flags and environment, or the profile. */
  fromProfile: boolean;
  /** Where a copied curl reads it from: the same file, variable or command. */
  ref: TokenReference;
}

export interface TokenPlaces {
  /** --token-file, DPX_TOKEN: left out for a profile of several, whose token is its own. */
  tokenFile?: string;
  env: NodeJS.ProcessEnv;
  /** The profile's variables are read from here (the same environment). */
  profileEnv: NodeJS.ProcessEnv;
  profile: Partial<Profile>;
  profileName?: string;
  profileDir: string;
}

export async function resolveToken(places: TokenPlaces): Promise<ResolvedToken | undefined> {
  const { tokenFile, env, profile, profileDir, profileEnv, profileName } = places;
  if (tokenFile !== undefined) {
    const path = resolve(expandHome(tokenFile));
    return {
      token: await readTokenFile(path),
      kind: 'file',
      source: `--token-file ${path}`,
      fromProfile: false,
      ref: { kind: 'file', path },
    };
  }
  const fromEnv = env['DPX_TOKEN'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return {
      token: oneToken(fromEnv, 'DPX_TOKEN', 'export DPX_TOKEN=<token>, the token alone'),
      kind: 'variable',
      source: 'DPX_TOKEN',
      fromProfile: false,
      ref: { kind: 'env', name: 'DPX_TOKEN' },
    };
  }
  if (profile.tokenFile !== undefined) {
    const path = localPath(profile.tokenFile, profileDir);
    return {
      token: await readTokenFile(path),
      kind: 'file',
      source: `token file ${path}`,
      fromProfile: true,
      ref: { kind: 'file', path },
    };
  }
  if (profile.tokenEnv !== undefined) {
    const value = profileEnv[profile.tokenEnv];
    if (value === undefined || value.trim() === '') {
      throw new UsageError(
        `the profile's token variable ${profile.tokenEnv} is not set`,
        `export ${profile.tokenEnv}=<token>, or set DPX_TOKEN`,
      );
    }
    return {
      token: oneToken(value, profile.tokenEnv, `export ${profile.tokenEnv}=<token>, the token alone`),
      kind: 'variable',
      source: profile.tokenEnv,
      fromProfile: true,
      ref: { kind: 'env', name: profile.tokenEnv },
    };
  }
  if (profile.tokenCommand !== undefined) {
    // The command itself is not repeated in messages: it may carry a vault's address or options.
    const where = `the token command of ${profileName === undefined ? 'the profile' : `profile ${profileName}`}`;
    const command = new TokenCommand(profile.tokenCommand, {
      where,
      env: profileEnv,
      timeoutMs: commandTimeout(profileEnv),
    });
    return {
      command,
      kind: 'command',
      source: where,
      fromProfile: true,
      ref: { kind: 'command', command: profile.tokenCommand },
    };
  }
  return undefined;
}

/**
 * The origins `token` belongs to (see the top of this file). `givenWith` is the base URL in effect when
 * the token came from the flags or the environment; `profileBaseUrl` the profile's, for a profile's own.
 */
export function tokenOrigins(
  token: ResolvedToken,
  known: string[],
  givenWith: string | undefined,
  profileBaseUrl: string | undefined,
): string[] {
  if (token.fromProfile) return profileBaseUrl === undefined ? [] : [originOf(profileBaseUrl)];
  const claimed =
    token.token === undefined ? [] : claimedOrigins(token.token).filter((origin) => known.includes(origin));
  if (claimed.length > 0) return [...new Set(claimed)];
  return givenWith === undefined ? [] : [originOf(givenWith)];
}

/**
 * Refuses, before anything is sent, a run that would send the token to an origin it does not belong to,
 * unless --trust-origin names that origin.
 */
export function checkTokenOrigin(
  baseUrl: string,
  origins: string[],
  source: string,
  trusted: string | undefined,
): void {
  const target = originOf(baseUrl);
  if (origins.length === 0 || origins.includes(target) || trusted === target) return;
  throw new SafetyError(
    `refused to send the token (${source}) to ${target}: it belongs to ${origins.join(' and ')}`,
    `add a profile for ${target} (dpx profile add NAME --base-url ${target} --token-file FILE), ` +
      "give that control plane's own token with --token-file FILE, " +
      `or pass --trust-origin ${target} to send this one there on purpose`,
  );
}

/** The origin --trust-origin names; a usage error when it names none. */
export function trustedOrigin(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // Said below.
  }
  throw new UsageError(
    `--trust-origin takes an origin such as https://dpm.example.com, not '${text}'`,
    'give the scheme, host and port the token may go to',
  );
}

/** The http(s) origins a JWT's `iss` and `aud` claims name; none for a token that is not a JWT. */
function claimedOrigins(token: string): string[] {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token);
  } catch {
    return [];
  }
  const audience = claims['aud'];
  const values = [claims['iss'], ...(Array.isArray(audience) ? audience : [audience])];
  return values.flatMap((value) => {
    if (typeof value !== 'string') return [];
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? [url.origin] : [];
    } catch {
      return [];
    }
  });
}

function commandTimeout(env: NodeJS.ProcessEnv): number {
  const text = env['DPX_TOKEN_COMMAND_TIMEOUT']?.trim();
  if (!text) return TOKEN_COMMAND_TIMEOUT_MS;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `DPX_TOKEN_COMMAND_TIMEOUT must be a positive number of seconds, not '${text}'`,
      'unset it, or set e.g. DPX_TOKEN_COMMAND_TIMEOUT=30',
    );
  }
  return Math.round(seconds * 1000);
}

export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

export function localPath(path: string, relativeTo: string): string {
  const expanded = expandHome(path);
  return isAbsolute(expanded) ? expanded : resolve(relativeTo, expanded);
}

export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}
