// A failure to reach a host, said in words with Node's code in brackets: "nothing is listening at
// 127.0.0.1:4011 (ECONNREFUSED)". A code alone tells a newcomer nothing; the words alone hide what to search
// for. The words come from the code and the address the error carries, never from the server.
import { messageOf } from '../errors.js';

/** Where the connection was going, for the words when the error does not carry its address. */
export interface NetworkTarget {
  host: string;
  port: string;
}

const NOT_TRUSTED = 'its TLS certificate is signed by an authority not trusted here';
const UNREADABLE = 'its TLS certificate could not be checked';

/**
 * Every certificate code Node's TLS gives (its X509 codes and its own host-name check), in words: each is
 * fixed with the certificate or the authority, never with another base URL.
 */
const CERTIFICATE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed, and not trusted here',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain ends in an authority not trusted here',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: NOT_TRUSTED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: NOT_TRUSTED,
  UNABLE_TO_GET_ISSUER_CERT: NOT_TRUSTED,
  CERT_UNTRUSTED: NOT_TRUSTED,
  CERT_REJECTED: 'its TLS certificate is refused by the authorities trusted here',
  INVALID_CA: 'its TLS certificate chain holds a certificate that may not sign others',
  PATH_LENGTH_EXCEEDED: 'its TLS certificate chain is longer than its authority allows',
  CERT_CHAIN_TOO_LONG: 'its TLS certificate chain is too long',
  INVALID_PURPOSE: 'its TLS certificate is not meant for a server',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  ERROR_IN_CERT_NOT_BEFORE_FIELD: 'its TLS certificate has an unreadable start date',
  ERROR_IN_CERT_NOT_AFTER_FIELD: 'its TLS certificate has an unreadable end date',
  CERT_REVOKED: 'its TLS certificate has been revoked',
  CERT_SIGNATURE_FAILURE: "its TLS certificate's signature is not valid",
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: "its TLS certificate's signature could not be read",
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: "its TLS certificate's authority has an unreadable key",
  UNABLE_TO_GET_CRL: UNREADABLE,
  UNABLE_TO_DECRYPT_CRL_SIGNATURE: UNREADABLE,
  CRL_SIGNATURE_FAILURE: UNREADABLE,
  CRL_NOT_YET_VALID: UNREADABLE,
  CRL_HAS_EXPIRED: UNREADABLE,
  ERROR_IN_CRL_LAST_UPDATE_FIELD: UNREADABLE,
  ERROR_IN_CRL_NEXT_UPDATE_FIELD: UNREADABLE,
  HOSTNAME_MISMATCH: 'its TLS certificate is for another host name',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
  ERR_TLS_CERT_ALTNAME_FORMAT: 'its TLS certificate names its hosts in a form that cannot be read',
};

/** The error's code, looked for down its chain of causes (fetch and the proxy wrap Node's). */
export function networkCode(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether the failure is a TLS certificate refused here: its fix is the certificate or an authority, not
 * another URL. The one test of it: the wire's hint, the proxy's and the discovery index's all ask here.
 */
export function isCertificateProblem(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && Object.hasOwn(CERTIFICATE, code);
}

/**
 * What to do about a failure to reach a control plane. A certificate Node does not trust is most often a
 * company's own authority, which Node reads from NODE_EXTRA_CA_CERTS.
 */
export function networkHint(error: unknown): string {
  if (isCertificateProblem(error)) {
    return (
      "the control plane's TLS certificate is not trusted here; if your organisation signs its own, give its CA " +
      "certificate file with --ca-file (or a profile's caFile), or set NODE_EXTRA_CA_CERTS to it"
    );
  }
  const code = networkCode(error);
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER')
    return "check the base URL's scheme: http:// for a server without TLS";
  return 'check the base URL, the network and any proxy';
}

/** The failure in words, its code in brackets; an error with no code is its own message. */
export function describeNetworkError(error: unknown, target?: NetworkTarget): string {
  const code = networkCode(error);
  if (code === undefined) return messageOf(error);
  const words = wordsFor(code, addressOf(error) ?? target);
  return words ? `${words} (${code})` : code;
}

function wordsFor(code: string, target: NetworkTarget | undefined): string | undefined {
  const where = target ? (target.port ? `${target.host}:${target.port}` : target.host) : 'that address';
  const host = target?.host ?? 'the host';
  if (Object.hasOwn(CERTIFICATE, code)) return CERTIFICATE[code];
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing is listening at ${where}`;
    case 'ENOTFOUND':
      return `no host is named ${host}`;
    case 'EAI_AGAIN':
      return `the name ${host} could not be looked up just now`;
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'EPIPE':
      return 'the connection was closed while dpx was sending';
    case 'ETIMEDOUT':
      return `no connection to ${where} in time`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `there is no route to ${host}`;
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return `${where} does not speak TLS: an https:// base URL for a server that speaks plain http?`;
    default:
      return undefined;
  }
}

/** The address Node's error names (`address`/`port` for a refused connection, `hostname` for DNS). */
function addressOf(error: unknown): NetworkTarget | undefined {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    const { address, port, hostname } = cause as { address?: unknown; port?: unknown; hostname?: unknown };
    if (typeof address === 'string' && (typeof port === 'number' || typeof port === 'string'))
      return { host: address, port: String(port) };
    if (typeof hostname === 'string') return { host: hostname, port: '' };
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
