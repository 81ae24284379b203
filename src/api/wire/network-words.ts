// A failure to reach a host, said in words with Node's code in brackets: "nothing is listening at
// 127.0.0.1:4011 (ECONNREFUSED)". A code alone tells a newcomer nothing; the words alone hide what to search
// for. The words come from the code and the address the error carries, never from the server.
import { messageOf } from '../errors.js';

/** Where the connection was going, for the words when the error does not carry its address. */
export interface NetworkTarget {
  host: string;
  port: string;
}

const CERTIFICATE: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed, and not trusted here',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain ends in an authority not trusted here',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is signed by an authority not trusted here',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate is signed by an authority not trusted here',
  UNABLE_TO_GET_ISSUER_CERT: 'its TLS certificate is signed by an authority not trusted here',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
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

/** Whether the failure is a TLS certificate not trusted here: its fix is an authority, not another URL. */
export function isCertificateProblem(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && code in CERTIFICATE;
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
  if (code in CERTIFICATE) return CERTIFICATE[code];
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
