// A demo region behind a proxy that can hold answers back: what the explorer's tests use to make a unit, or
// every request, slow on cue (no clock: a busy machine only waits longer).
import type { DemoRegion } from '../../src/demo/server.js';
import { type RecordedRequest, startServer, type TestServer } from './servers.js';

const OU_HEADER = 'x-service-organizationalunit-context';
const FORWARDED = ['authorization', 'accept', OU_HEADER];

/** Forwards each GET to `region` (its token, accept and unit headers) once what `hold` returns has settled. */
export function startHoldingProxy(
  region: DemoRegion,
  hold: (request: RecordedRequest) => Promise<void> | undefined,
): Promise<TestServer> {
  return startServer(async (request, response) => {
    await hold(request);
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => FORWARDED.includes(name)),
    ) as Record<string, string>;
    const upstream = await fetch(`${region.baseUrl}${request.url}`, { headers });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(await upstream.text());
  });
}
