import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, decodeJwt, errors as joseErrors } from 'jose';
import { DemoError } from './errors.js';

export type TokenType = 'personal' | 'service';

export interface TokenClaims {
  sub: string;
  token_type: TokenType;
  iss: string;
  iat: number;
  exp: number;
  jti: string;
  region: string;
}

export interface MintRequest {
  subject?: string;
  type?: TokenType;
  /** Negative values mint a token that has already expired. */
  expiresInSeconds?: number;
}

const DEFAULT_LIFETIME_SECONDS: Record<TokenType, number> = { personal: 8 * 3600, service: 30 * 86400 };
const VERIFIED_CACHE_LIMIT = 1000;

/**
 * One region's token authority: an HS256 key made at start-up, so tokens never outlive the process
 * and a token of one region fails the other region's signature check.
 */
export class TokenAuthority {
  private readonly key = randomBytes(32);
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    readonly issuer: string,
    readonly region: string,
    private readonly defaultSubjects: Record<TokenType, string>,
  ) {}

  async mint(request: MintRequest = {}): Promise<string> {
    const type = request.type ?? 'personal';
    const now = Math.floor(Date.now() / 1000);
    const lifetime = request.expiresInSeconds ?? DEFAULT_LIFETIME_SECONDS[type];
    // An expired token was issued an hour before it expired, as a real one would have been.
    const issuedAt = lifetime > 0 ? now : now + lifetime - 3600;
    return new SignJWT({ token_type: type, region: this.region })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(request.subject ?? this.defaultSubjects[type])
      .setIssuer(this.issuer)
      .setIssuedAt(issuedAt)
      .setExpirationTime(now + lifetime)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The claims of the request's bearer token, or a 401 DemoError saying what is wrong with it. */
  async authenticate(authorization: string | undefined): Promise<TokenClaims & { token: string }> {
    if (!authorization)
      throw unauthorized('missing_token', 'The Authorization header is missing; send "Authorization: Bearer <token>"');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = bearer?.[1];
    if (!token) throw unauthorized('malformed_token', 'The Authorization header is not of the form "Bearer <token>"');
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.exp * 1000 <= Date.now())
        throw unauthorized('token_expired', `The token expired at ${new Date(cached.exp * 1000).toISOString()}`);
      return { ...cached, token };
    }
    const claims = await this.verify(token);
    if (this.verified.size >= VERIFIED_CACHE_LIMIT) this.verified.clear();
    this.verified.set(token, claims);
    return { ...claims, token };
  }

  private async verify(token: string): Promise<TokenClaims> {
    let unverifiedIssuer: unknown;
    try {
      unverifiedIssuer = decodeJwt(token).iss;
    } catch {
      throw unauthorized('malformed_token', 'The bearer token is not a well-formed JSON Web Token');
    }
    if (typeof unverifiedIssuer === 'string' && unverifiedIssuer !== this.issuer) {
      throw unauthorized(
        'token_region_mismatch',
        `The token was issued by ${unverifiedIssuer}; this control plane is ${this.issuer} and accepts only its own tokens`,
      );
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: this.issuer, algorithms: ['HS256'] });
      const type = payload['token_type'];
      if (
        typeof payload.sub !== 'string' ||
        (type !== 'personal' && type !== 'service') ||
        typeof payload.exp !== 'number'
      ) {
        throw unauthorized(
          'invalid_token',
          'The token lacks a subject, a token_type of personal or service, or an expiry',
        );
      }
      return {
        sub: payload.sub,
        token_type: type,
        iss: this.issuer,
        iat: payload.iat ?? 0,
        exp: payload.exp,
        jti: String(payload.jti ?? ''),
        region: this.region,
      };
    } catch (error) {
      if (error instanceof DemoError) throw error;
      if (error instanceof joseErrors.JWTExpired) {
        const exp = decodeJwt(token).exp ?? 0;
        throw unauthorized('token_expired', `The token expired at ${new Date(exp * 1000).toISOString()}`);
      }
      throw unauthorized('invalid_token', 'The token signature or claims could not be verified by this control plane');
    }
  }
}

function unauthorized(code: string, message: string): DemoError {
  return new DemoError(401, code, message, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${code}"`,
  });
}
