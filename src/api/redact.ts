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
const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie|set-cookie)$|token|secret|password|api-?key|session/i;

/**
 * Replaces every occurrence of each secret (also as it appears percent-encoded in a URL) and every
 * JWT-looking string with `***`. Longer secrets go first so that one secret containing another is
 * masked whole. A secret made only of `*` would match the mask itself, so none is expected to be.
 */
export function redactText(text: string, secrets: string[]): string {
  let result = text.replace(JWT_PATTERN, MASK);
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    result = result.split(form).join(MASK);
  }
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
