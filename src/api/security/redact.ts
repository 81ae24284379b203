// Removes credentials from anything dpx shows or records: request previews, the trail, error text.

const MASK = '***';

/**
 * A JWT: a header segment that is base64url JSON (`eyJ` = `{"`), then two more segments (JWS; the
 * signature is empty when unsigned) or four (JWE, whose last segment, the tag, is never empty — so a
 * full stop after a token is not taken for a segment).
 */
const JWT_PATTERN = /eyJ[\w-]*\.[\w-]*\.[\w-]*(?:\.[\w-]*\.[\w-]+)?/g;

/** Only well-known schemes are kept: an unknown first word may itself be the credential. */
const AUTH_SCHEME = /^(Bearer|Basic|Digest|Negotiate|NTLM|DPoP|Token)\s/i;

/** Headers that carry credentials by their very name. */
const SECRET_HEADER =
  /^(?:authorization|proxy-authorization|cookie|set-cookie)$|token|secret|password|api-?key|session/i;

/**
 * Replaces every occurrence of each secret (also as it appears percent-encoded in a URL) and every
 * JWT-looking string with `***`. Longer secrets go first so that one secret containing another is
 * masked whole. A secret made only of `*` would match the mask itself, so none is expected to be.
 */
export function redactText(text: string, secrets: string[]): string {
  return maskForms(text, secretForms(secrets));
}

/**
 * The forms of the secrets last asked for: a trail masks every header and body of every exchange with
 * the same secrets, and making their forms anew for each string was a third of a traced export's CPU.
 */
let lastForms: { secrets: string[]; forms: string[] } | undefined;

/** Each secret and its percent-encoded form, longest first. */
function secretForms(secrets: string[]): string[] {
  if (lastForms !== undefined && sameStrings(lastForms.secrets, secrets)) return lastForms.forms;
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  lastForms = { secrets: [...secrets], forms: [...forms].sort((a, b) => b.length - a.length) };
  return lastForms.forms;
}

function sameStrings(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

function maskForms(text: string, forms: string[]): string {
  let result = text.replace(JWT_PATTERN, MASK);
  // A search is a scan; split and join copy the whole text even when the secret is not in it, which
  // for a trail's response bodies (100 KB a page) cost more than the scan.
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(MASK);
  return result;
}

/**
 * Authorization keeps its scheme (`Bearer ***`) so a reader still sees how the request authenticated;
 * other credential headers are masked whole; any other value loses only its secrets and JWTs.
 */
export function redactHeaders(headers: Record<string, string>, secrets: string[] = []): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[redactText(name, secrets)] = redactHeaderValue(name, value, secrets);
  }
  return result;
}

function redactHeaderValue(name: string, value: string, secrets: string[]): string {
  if (/^(?:proxy-)?authorization$/i.test(name)) {
    const scheme = AUTH_SCHEME.exec(value)?.[1];
    return scheme === undefined ? MASK : `${scheme} ${MASK}`;
  }
  if (SECRET_HEADER.test(name)) return MASK;
  return redactText(value, secrets);
}

/** Every string in a parsed value, wherever it sits (keys included), loses its secrets and JWT-looking values. */
export function redactValue<T>(value: T, secrets: string[]): T {
  return redactWith(value, secretForms(secrets));
}

function redactWith<T>(value: T, forms: string[]): T {
  if (typeof value === 'string') return maskForms(value, forms) as T;
  if (Array.isArray(value)) return value.map((item) => redactWith(item, forms)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [maskForms(key, forms), redactWith(item, forms)]),
    ) as T;
  }
  return value;
}

/** The credential part of an Authorization header (after its scheme), so a token nobody named is masked too. */
export function authorizationCredential(headers: Record<string, string>): string | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const credential = value?.trim().split(/\s+/).slice(1).join(' ');
  return credential ? credential : undefined;
}

/**
 * What a record kept for later (a case file) must not hold of a token besides the token itself: each
 * segment of a JWT on its own (the signature alone, the claims), and the token base64-encoded (as in
 * Basic credentials or a body that wraps it), standard and URL-safe, at each of the three byte
 * alignments it can take inside a longer encoded text — the characters that depend on the token alone.
 * Parts shorter than 16 characters are left out: they could be anything.
 */
export function tokenParts(secret: string): string[] {
  if (secret.length < 16) return [secret];
  const parts = new Set<string>([secret]);
  const segments = secret.split('.');
  // The header of a JWT is shared by every token of its issuer: it is not a part of this one.
  if (segments.length >= 3) for (const segment of segments.slice(1)) if (segment.length >= 16) parts.add(segment);
  const bytes = Buffer.from(secret, 'utf8');
  for (let shift = 0; shift < 3; shift += 1) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Characters wholly made of the token's bits: from the first after the shifted-in bytes to the last before the end.
    const first = Math.ceil((8 * shift) / 6);
    const last = Math.floor((8 * (shift + bytes.length)) / 6);
    const middle = encoded.slice(first, last);
    if (middle.length < 16) continue;
    parts.add(middle);
    parts.add(middle.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...parts];
}
