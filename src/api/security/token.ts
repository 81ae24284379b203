// What a bearer token says about itself. Decoded only, never verified: the client holds no key, and the
// server is the judge. This exists to explain a 401 before it happens.
// jose's decoder from its own entry: the package's index would bring the demo's signing and verifying
// code into every command's start.
import { decodeJwt } from 'jose/jwt/decode';
import type { JWTPayload } from 'jose';

export interface TokenInfo {
  subject?: string;
  type?: string;
  issuer?: string;
  issuedAt?: Date;
  expiresAt?: Date;
  warnings: string[];
}

const NEAR_EXPIRY_MS = 10 * 60 * 1000;
const TYPE_CLAIMS = ['token_type', 'tokenType', 'typ', 'type', 'token_use'];

export function describeToken(token: string, baseUrl: string, now: number = Date.now()): TokenInfo {
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token.trim());
  } catch {
    // The decoder's message may quote the token; say only that it is unreadable.
    return { warnings: ['the token is not a readable JWT (three base64url parts with a JSON payload)'] };
  }
  const info: TokenInfo = { warnings: [] };
  if (typeof claims.sub === 'string') info.subject = claims.sub;
  const type = TYPE_CLAIMS.map((name) => claims[name]).find((value): value is string => typeof value === 'string');
  if (type !== undefined) info.type = type;
  if (typeof claims.iss === 'string') info.issuer = claims.iss;
  const issuedAt = claimDate(claims, 'iat', info.warnings);
  if (issuedAt) info.issuedAt = issuedAt;
  const expiresAt = claimDate(claims, 'exp', info.warnings);
  if (expiresAt) info.expiresAt = expiresAt;

  if (info.expiresAt) {
    const remaining = info.expiresAt.getTime() - now;
    if (remaining <= 0)
      info.warnings.push(`the token expired ${formatDuration(-remaining)} ago (${info.expiresAt.toISOString()})`);
    else if (remaining <= NEAR_EXPIRY_MS)
      info.warnings.push(`the token expires in ${formatDuration(remaining)} (${info.expiresAt.toISOString()})`);
  }
  const issuerOrigin = info.issuer === undefined ? undefined : originOf(info.issuer);
  const baseOrigin = originOf(baseUrl);
  if (issuerOrigin && baseOrigin && issuerOrigin !== baseOrigin) {
    info.warnings.push(
      `the token was issued by ${issuerOrigin}, not by this control plane (${baseOrigin}); it will likely be refused`,
    );
  }
  return info;
}

/**
 * A NumericDate claim (seconds since the epoch) as a Date. A number beyond what a Date can hold
 * (±8.64e12 s) would make an Invalid Date that fails whoever prints it; it is left out with a warning.
 */
function claimDate(claims: JWTPayload, name: 'iat' | 'exp', warnings: string[]): Date | undefined {
  const value = claims[name];
  if (typeof value !== 'number') return undefined;
  const date = new Date(value * 1000);
  if (!Number.isNaN(date.getTime())) return date;
  warnings.push(`the token's ${name} claim (${value}) is not a time a date can hold; ignored`);
  return undefined;
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.round(ms / 1000))} s`;
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}
