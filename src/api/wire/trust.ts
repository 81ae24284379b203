// The certificate authorities a connection is checked against, as one TLS context per set. Given as a
// request's \`ca\`, they would be parsed again for every new connection (Node's ~150 and NODE_EXTRA_CA_CERTS'
// among them): Node makes a context per connection from its options unless it is handed one.
import type { SecureContext } from 'node:tls';

/** What a request or an agent is given to check certificates: nothing (Node's own authorities) or a context. */
export type Trust = { secureContext?: SecureContext };

/** The context of `ca` (PEM texts), made now; none when `ca` is not given. */
export async function trustOf(ca: string[] | undefined): Promise<Trust> {
  if (ca === undefined) return {};
  const { createSecureContext } = await import('node:tls');
  return { secureContext: createSecureContext({ ca }) };
}
