// One answer to "is this a certificate failure?": the wire's hint, the proxy's words and the discovery
// index's hint all follow network-words.ts, for every certificate code Node's TLS gives.
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/api/errors.js';
import { loadIndex } from '../../../src/api/hal/discovery.js';
import { describeNetworkError, isCertificateProblem, networkHint } from '../../../src/api/wire/network-words.js';
import { proxyCertificate } from '../../../src/api/wire/proxied.js';

/** Node's X509 verify codes (its tls docs) and its own host-name check; OUT_OF_MEM is no certificate's. */
const CERTIFICATE_CODES = [
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD',
  'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_CERT_ALTNAME_FORMAT',
];

const CERTIFICATE_HINT = /^the control plane's TLS certificate is not trusted here/;

/** A failure as Node's TLS gives it: an Error with the code, wrapped as the wire's TransportError. */
function nodeError(code: string): Error {
  return Object.assign(new Error(`tls failure ${code}`), { code });
}

function wireFailure(code: string): TransportError {
  const cause = nodeError(code);
  return new TransportError(`could not reach https://dp.example: ${describeNetworkError(cause)}`, networkHint(cause), {
    cause,
  });
}

async function indexHint(error: unknown): Promise<string> {
  const failed = await loadIndex({
    baseUrl: 'https://dp.example/api',
    url: 'https://dp.example/',
    ask: () => Promise.reject(error),
    vendor: 'dpx',
    warn: () => undefined,
  }).catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(TransportError);
  return (failed as TransportError).hint;
}

describe('a certificate failure', () => {
  it.each(CERTIFICATE_CODES)('%s is one, said in words with its code', (code) => {
    expect(isCertificateProblem(nodeError(code))).toBe(true);
    expect(isCertificateProblem(wireFailure(code))).toBe(true);
    expect(networkHint(nodeError(code))).toMatch(CERTIFICATE_HINT);
    expect(describeNetworkError(nodeError(code))).toMatch(new RegExp(`^its TLS certificate.* \\(${code}\\)$`));
  });

  it.each(CERTIFICATE_CODES)("%s on the proxy's own certificate is said in words, as the proxy's", (code) => {
    const error = proxyCertificate('https://proxy.example:3128', 'https://dp.example/api', nodeError(code));
    const proxy = "^the proxy https://proxy\\.example:3128's TLS certificate is not trusted";
    expect(error.message).toMatch(new RegExp(`${proxy} .*: its TLS certificate.* \\(${code}\\)$`));
  });

  it.each(['CERT_REVOKED', 'CERT_SIGNATURE_FAILURE', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID'])(
    '%s on the discovery index keeps the certificate hint, not "check the base URL"',
    async (code) => {
      const hint = await indexHint(wireFailure(code));
      expect(hint).toMatch(CERTIFICATE_HINT);
      expect(hint).not.toMatch(/check the base URL/);
    },
  );

  it('is no other failure: a refused connection or a codeless error keeps the base URL hints', async () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EPROTO', 'CERT', 'toString']) {
      expect(isCertificateProblem(nodeError(code)), code).toBe(false);
      expect(networkHint(nodeError(code)), code).not.toMatch(CERTIFICATE_HINT);
    }
    expect(isCertificateProblem(new Error('no code'))).toBe(false);
    expect(await indexHint(wireFailure('ECONNREFUSED'))).toMatch(
      /^check the base URL: dpx asked https:\/\/dp\.example\//,
    );
  });
});
