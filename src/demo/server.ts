import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenAuthority, type MintRequest } from './auth.js';
import type { RegionData } from './behaviours.js';
import { handleRequest, type RegionEngine } from './engine.js';
import { generateWorld, unitTree, world, type UnitDef } from './generate.js';
import { LiveTasks } from './live.js';
import { RateLimiter } from './rate-limit.js';
import { Store, subtreeOf } from './store.js';
import { resources } from './catalog.js';

export interface DemoOptions {
  host?: string;
  /** First region's port; 0 (default) = ephemeral for both; N → N and N+1. */
  port?: number;
  scale?: number;
  seed?: number;
  /** Requests per second per token; 0 or undefined = off. */
  rateLimit?: number;
  /** Whether answers announce the limit in RateLimit headers (default true); false: only a 429 says so. */
  rateLimitHeaders?: boolean;
  vendor?: string;
  /** Index list hrefs as plain paths ('/tasks', templated false), for client tests. */
  plainListHrefs?: boolean;
  /** Time multiplier for live tasks; default 1. */
  taskSpeed?: number;
  /**
   * Generated tenants, each with 1–3 levels of sub-units, instead of the fixture's tree; the data grows
   * with the units. Each region has its own.
   */
  tenants?: number;
  /** Live tasks stand still: no status or progress changes on its own (actions still act). */
  frozen?: boolean;
  /**
   * Lists (resource names) whose pages carry `next`, `prev`, `first` and `last` only in an RFC 8288 `Link`
   * header, with no `_links` in the body, as GitHub-style APIs page. The others keep `_links`.
   */
  linkHeaderPaging?: readonly string[];
  /**
   * Tenants (the last N of the region's) whose records a request without the OU header does not see, as
   * if the provider's own list left out a tenant it manages apart: the unit list still shows them, and a
   * request in their context, or in an ancestor's, sees their records. What the root's list cannot hold.
   */
  hiddenTenants?: number;
}

export interface DemoRegion {
  name: string;
  baseUrl: string;
  tokens: { personal: string; service: string; expired: string };
  /** The region's organizational units, root first. */
  units: readonly UnitDef[];
  /** The tenants hidden from requests without the OU header (DemoOptions.hiddenTenants), in the units' order. */
  hiddenTenants: readonly UnitDef[];
  requestCount(): number;
  /** Requests to one path (no query), as the server saw them: what a test counts a client's requests to one list by. */
  requestsTo(pathname: string): number;
  /** The requests received so far, in the order they arrived: method and path with its query (at most the last 10,000). */
  requestLog(): readonly string[];
  mintToken(claims: { subject?: string; type?: 'personal' | 'service'; expiresInSeconds?: number }): Promise<string>;
}

export interface DemoHandle {
  regions: DemoRegion[];
  close(): Promise<void>;
}

const LOG_LIMIT = 10_000;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the demo control plane: one HTTP listener per region, each with its own data and signing key. */
export async function startDemo(options: DemoOptions = {}): Promise<DemoHandle> {
  const host = options.host ?? '127.0.0.1';
  const scale = options.scale ?? 1;
  const seed = options.seed ?? 42;
  const vendor = (options.vendor ?? 'service').toLowerCase();
  const speed = options.taskSpeed && options.taskSpeed > 0 ? options.taskSpeed : 1;
  if (!(scale > 0)) throw new Error(`scale must be a positive number, got ${scale}`);
  if (options.tenants !== undefined && !(Number.isInteger(options.tenants) && options.tenants > 0))
    throw new Error(`tenants must be a positive whole number, got ${options.tenants}`);
  if (options.hiddenTenants !== undefined && !(Number.isInteger(options.hiddenTenants) && options.hiddenTenants >= 0))
    throw new Error(`hiddenTenants must be a whole number, got ${options.hiddenTenants}`);
  for (const name of options.linkHeaderPaging ?? []) {
    if (!Object.hasOwn(resources, name))
      throw new Error(
        `the demo has no list ${JSON.stringify(name)} to page by Link header; its lists: ${Object.keys(resources).join(', ')}`,
      );
  }
  const servers: Server[] = [];
  const regions: DemoRegion[] = [];
  try {
    for (const [i, regionDef] of world.regions.entries()) {
      const units = unitTree(seed + i, options.tenants);
      const tenants = units.filter((unit) => unit.kind === 'tenant');
      const hiddenTenants = options.hiddenTenants
        ? tenants.slice(Math.max(0, tenants.length - options.hiddenTenants))
        : [];
      const hidden = subtreeOf(
        units,
        hiddenTenants.map((tenant) => tenant.id),
      );
      // A region's records are made when it is first asked, not at start: a run that uses one region (the
      // explorer's usual session, most tests) never pays for the other's (at scale 100, 0.5–0.8 s of CPU each).
      let data: RegionData | undefined;
      const regionData = (): RegionData => {
        if (data === undefined) {
          const now = Date.now();
          const generated = generateWorld(seed + i, scale, now, units);
          const store = new Store(generated.records);
          const live = new LiveTasks(store, speed, options.frozen === true);
          for (const pending of generated.pending) live.track(pending, now);
          data = { store, live };
        }
        return data;
      };

      let requests = 0;
      const byPath = new Map<string, number>();
      const log: string[] = [];
      // The engine needs the base URL, known only once the listener has its port.
      const engine: { current?: RegionEngine } = {};
      const server = createServer((request, response) => {
        requests++;
        const pathname = (request.url ?? '/').split('?')[0]!;
        byPath.set(pathname, (byPath.get(pathname) ?? 0) + 1);
        // A log that a long demo run cannot grow without end.
        if (log.push(`${request.method ?? ''} ${request.url ?? ''}`) > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
        // The records are made before the request reads the clock: it never sees them before they were made.
        if (engine.current) {
          regionData();
          void handleRequest(engine.current, request, response);
        } else response.writeHead(503, { 'Retry-After': '1' }).end();
      });
      servers.push(server);
      const port = await listen(server, options.port ? options.port + i : 0, host);
      const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      const auth = new TokenAuthority(baseUrl, regionDef.name, {
        personal: world.people.personal_token_subject,
        service: world.people.service_token_subject,
      });
      engine.current = {
        baseUrl,
        vendor,
        plainListHrefs: options.plainListHrefs ?? false,
        linkHeaderPaging: new Set(options.linkHeaderPaging ?? []),
        auth,
        limiter: new RateLimiter(options.rateLimit ?? 0, options.rateLimitHeaders !== false),
        get data() {
          return regionData();
        },
        ...(hidden.size > 0 ? { hidden } : {}),
      };
      regions.push({
        name: regionDef.name,
        baseUrl,
        tokens: {
          personal: await auth.mint({ type: 'personal' }),
          service: await auth.mint({ type: 'service' }),
          expired: await auth.mint({ type: 'personal', expiresInSeconds: -3600 }),
        },
        units,
        hiddenTenants,
        requestCount: () => requests,
        requestsTo: (pathname: string) => byPath.get(pathname) ?? 0,
        requestLog: () => log,
        mintToken: (claims: MintRequest) => auth.mint(claims),
      });
    }
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    throw error;
  }
  return {
    regions,
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}
