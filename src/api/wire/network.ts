// How a session reaches its control plane beyond Node's defaults: through a proxy (chosen as curl
// chooses one, proxy.ts), trusting further certificate authorities (--ca-file), or both.
import { proxyFor, type ProxyEnvironment } from './proxy.js';
import { routedTransport, type Transport } from './transport.js';

export interface NetworkOptions {
  /** A proxy given on purpose (--proxy, a profile's): it wins over the environment's; '' for none at all. */
  proxy?: string;
  /** The proxy variables of the environment (HTTPS_PROXY, NO_PROXY, …), read as curl reads them. */
  proxyEnvironment?: ProxyEnvironment;
  /** PEM texts of the certificate authorities to trust instead of Node's defaults (which they include). */
  ca?: string[];
  /** PEM texts of the authorities an https:// proxy's own certificate is checked against; else `ca`'s. */
  proxyCa?: string[];
}

/** The transport for `origin`; undefined for the defaults (no proxy, Node's authorities). */
export function networkTransport(origin: string, network: NetworkOptions | undefined): Transport | undefined {
  if (network === undefined) return undefined;
  const proxy = proxyFor(origin, {
    ...(network.proxy === undefined ? {} : { proxy: network.proxy }),
    ...(network.proxyEnvironment ? { environment: network.proxyEnvironment } : {}),
  });
  if (proxy === undefined && network.ca === undefined) return undefined;
  return routedTransport({
    ...(proxy === undefined ? {} : { proxy }),
    ...(network.ca === undefined ? {} : { ca: network.ca }),
    ...(proxy === undefined || network.proxyCa === undefined ? {} : { proxyCa: network.proxyCa }),
  });
}
