// Generators shared by the redaction properties: token-like secrets, JWT-looking strings, and text
// that mixes them with arbitrary noise.

import fc from 'fast-check';
import { anyText } from '../../helpers/any-unicode.js';

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

export function base64url(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...BASE64URL), minLength, maxLength });
}

/** Opaque tokens as control planes issue them; long enough not to occur by chance in HAR structure. */
export const secret = base64url(16, 48);

export const jwt = fc
  .tuple(base64url(1, 40), base64url(1, 60), base64url(0, 43))
  .map(([header, payload, signature]) => `eyJ${header}.${payload}.${signature}`);

/** Text in which the given secrets and some JWTs appear anywhere, between arbitrary characters. */
export function textWith(secrets: string[]): fc.Arbitrary<{ text: string; jwts: string[] }> {
  const piece = fc.oneof(
    anyText({ maxLength: 12 }).map((noise) => ({ noise, jwt: undefined as string | undefined })),
    jwt.map((token) => ({ noise: token, jwt: token as string | undefined })),
    ...(secrets.length > 0 ? [fc.constantFrom(...secrets).map((value) => ({ noise: value, jwt: undefined }))] : []),
  );
  return fc.array(piece, { maxLength: 12 }).map((pieces) => ({
    text: pieces.map((item) => item.noise).join(''),
    jwts: pieces.flatMap((item) => (item.jwt === undefined ? [] : [item.jwt])),
  }));
}
