// "Nothing listens here", made true by the test itself: a port on 127.0.0.1 that this process bound and closed
// again, so a connection to it is refused. A fixed port (9, "discard") is not enough: any process on the machine
// may listen there, and a test that expected a refusal then got an answer.
import { type AddressInfo, createServer } from 'node:net';

/** A port on 127.0.0.1 that was free a moment ago and that nothing listens on now. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `http://127.0.0.1:PORT` for a closed port: a control plane that does not answer. */
export async function unreachableOrigin(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}
