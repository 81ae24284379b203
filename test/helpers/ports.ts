// "Nothing listens here", made true by the test itself: a port on 127.0.0.1 that this process bound and closed
// again, so a connection to it is refused. A fixed port (9, "discard") is not enough: any process on the machine
// may listen there, and a test that expected a refusal then got an answer. Nor is a port the system handed out
// (listen on 0): closed, it goes back to the pool every test server draws from, and a demo that another fork
// started took one while a test still counted on the refusal. So the port is drawn from below the systems'
// ephemeral ranges (Linux from 32768, macOS and Windows from 49152), where no server of the suite is put.
import { createServer } from 'node:net';

const BELOW_EPHEMERAL = { from: 20_000, to: 32_000 };

/** Whether this process could listen on `port` of 127.0.0.1 just now (it listened and closed again). */
async function wasFree(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  return listening;
}

/** A port on 127.0.0.1 that was free a moment ago, that nothing listens on now, and that no test server is given. */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = BELOW_EPHEMERAL.from + Math.floor(Math.random() * (BELOW_EPHEMERAL.to - BELOW_EPHEMERAL.from));
    if (await wasFree(port)) return port;
  }
}

/** `http://127.0.0.1:PORT` for a closed port: a control plane that does not answer. */
export async function unreachableOrigin(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}
