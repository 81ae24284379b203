// How this run reaches its control plane, when not with Node's defaults: a forward proxy (--proxy, the
// profile's `proxy`, else the environment's HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY, as curl
// reads them) and further certificate authorities (--ca-file, the profile's `caFile`; --proxy-ca-file for an
// https:// proxy's own certificate). The proxy is only
// chosen here; which one a control plane goes through is decided by src/api/wire/proxy.ts.

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../api/errors.js';
import type { NetworkOptions } from '../api/session/session-options.js';
import { PROXY_VARIABLES, shownProxy, type ProxyEnvironment } from '../api/wire/proxy.js';
import type { Profile } from './profiles.js';
import { expandHome, localPath } from './tokens.js';

export async function networkSettings(
  flags: { proxy?: string; caFile?: string; proxyCaFile?: string },
  profile: Partial<Profile>,
  profileDir: string,
  env: NodeJS.ProcessEnv,
): Promise<NetworkOptions | undefined> {
  const network: NetworkOptions = {};
  const proxy = flags.proxy ?? profile.proxy;
  if (proxy !== undefined)
    network.proxy = checkedProxy(proxy, flags.proxy !== undefined ? '--proxy' : "the profile's proxy");
  const environment: ProxyEnvironment = {};
  for (const name of PROXY_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') environment[name] = value.trim();
  }
  if (Object.keys(environment).length > 0) network.proxyEnvironment = environment;
  if (flags.caFile !== undefined) network.ca = await authorities(resolve(expandHome(flags.caFile)), '--ca-file', env);
  else if (profile.caFile !== undefined)
    network.ca = await authorities(localPath(profile.caFile, profileDir), "the profile's caFile", env);
  if (flags.proxyCaFile !== undefined)
    network.proxyCa = await authorities(resolve(expandHome(flags.proxyCaFile)), '--proxy-ca-file', env);
  return Object.keys(network).length > 0 ? network : undefined;
}

/** A proxy URL dpx can use: http or https, a bare `host:port` taken as http, as curl does; "" for none. */
function checkedProxy(proxy: string, where: string): string {
  const text = proxy.trim();
  if (text === '') return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(
      `${where} is not a URL`,
      'give it as http://host:port, with http://USER:PASSWORD@host:port when the proxy asks for credentials',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${where} ${shownProxy(withScheme)} is not an http or https proxy`,
      'dpx goes through HTTP proxies (CONNECT for https control planes): give it as http://host:port',
    );
  }
  return withScheme;
}

/**
 * The authorities to trust: Node's own, NODE_EXTRA_CA_CERTS' (which a `ca` option would otherwise leave
 * out), and the file's. Read now, so that a missing or unreadable file fails before anything is sent.
 */
async function authorities(file: string, where: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const pem = await readPem(file, where);
  const extraFile = env['NODE_EXTRA_CA_CERTS'];
  const extra = extraFile ? await readPem(extraFile, 'NODE_EXTRA_CA_CERTS').catch(() => undefined) : undefined;
  const { rootCertificates } = await import('node:tls');
  return [...rootCertificates, ...(extra === undefined ? [] : [extra]), pem];
}

async function readPem(file: string, what: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read the certificate file ${file} (${what}): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      "give the path of a PEM file holding your organisation's CA certificate",
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(
      `the certificate file ${file} (${what}) holds no PEM certificate`,
      'give a PEM file: the certificate between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE----- lines',
    );
  }
  return text;
}
