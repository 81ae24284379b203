// `list --ou all --all` reads the root's list once; where the units' own counts show that it lacks some
// unit's records, the shortfall is traced down the unit tree and only the units found short are read
// from their own scope, after the root's records. Over HTTP, on a control plane that leaves chosen
// units' own records out of its list without a unit: a tenant's child, a tenant's own records (its child
// still listed), and a list with no counts, where nothing can be checked.
import { afterEach, describe, expect, it } from 'vitest';
import { startTaggedPlane, type TaggedPlane } from '../../helpers/tagged-plane.js';
import { dpx } from './harness.js';

const OU_HEADER = 'x-dpm-organizationalunit-context';
let plane: TaggedPlane | undefined;
afterEach(async () => {
  await plane?.close();
  plane = undefined;
});

/** 20 tenants, each with a child: 41 units of 200 tasks each, the root's own among them. */
async function start(hidden: string[], noCounts = false): Promise<TaggedPlane> {
  plane = await startTaggedPlane({ tenants: 20, records: 41 * 200, hidden, ...(noCounts ? { noCounts } : {}) });
  return plane;
}

/** Every task id in a unit's scope (none: the root's list), in the server's order. */
async function ids(server: TaggedPlane, unit?: string): Promise<string[]> {
  const found: string[] = [];
  for (let next: string | undefined = '/tasks?limit=100'; next !== undefined; ) {
    const response = await fetch(new URL(next, server.baseUrl), {
      headers: unit === undefined ? {} : { [OU_HEADER]: unit },
    });
    const body = (await response.json()) as {
      _embedded: { items: { id: string }[] };
      _links: { next?: { href: string } };
    };
    found.push(...body._embedded.items.map((item) => item.id));
    next = body._links.next?.href;
  }
  return found;
}

async function merged(server: TaggedPlane): Promise<{
  stderr: string;
  items: { id: string; organizational_unit_id: string; _context: { ou: string } }[];
  requests: number;
}> {
  // Every request to the task list, the refused ones too.
  const toTasks = () => server.requests.filter((request) => request.url.startsWith('/tasks')).length;
  const before = toTasks();
  const { code, stdout, stderr } = await dpx(['list', 'tasks', '--ou', 'all', '--all', '-o', 'json'], {
    env: { DPX_BASE_URL: server.baseUrl, DPX_TOKEN: 'any', DPX_RATE: '100000' },
  });
  expect(code, stderr).toBe(0);
  return { stderr, items: (JSON.parse(stdout) as { items: never[] }).items, requests: toTasks() - before };
}

describe("a merged list read once, checked against the units' own counts", () => {
  it("a tenant's child the root's list lacks: traced through the tenant to the child, and only the child read", async () => {
    const server = await start(['u-3-a']);
    const root = await ids(server);
    const child = await ids(server, 'u-3-a');
    expect(root).toHaveLength(40 * 200);
    const { stderr, items, requests } = await merged(server);
    expect(items.map((item) => item.id)).toEqual([...root, ...child]);
    for (const item of items) expect(item._context.ou).toBe(item.organizational_unit_id);
    expect(stderr).toContain(
      "read once: the root's list lacks 200 of the 200 records of Global / Tenant 3 / Tenant 3 A: read from its own scope after the root's list",
    );
    // The refused large page, the root's 80 pages, three counts (the root unit, Tenant 3 — the tenant the
    // root's list showed fewest records of — and its child), and the child's 2 pages.
    expect(requests).toBe(1 + 80 + 3 + 2);
    expect(requests).toBeLessThanOrEqual(Math.floor(1.1 * 80) + 2);
  });

  it("a tenant's own records the root's list lacks, its child's not: the tenant read whole, what the root's list gave left out", async () => {
    const server = await start(['u-3']);
    const root = await ids(server);
    const tenant = await ids(server, 'u-3');
    const rootIds = new Set(root);
    const missing = tenant.filter((id) => !rootIds.has(id));
    expect(missing).toHaveLength(200);
    const { stderr, items, requests } = await merged(server);
    expect(items.map((item) => item.id)).toEqual([...root, ...missing]);
    expect(items.slice(root.length).every((item) => item._context.ou === 'u-3')).toBe(true);
    expect(stderr).toContain(
      "read once: the root's list lacks 200 of the 400 records of Global / Tenant 3: read from its own scope after the root's list",
    );
    // The child's count showed its records all in the root's list: the shortfall is the tenant's own.
    expect(requests).toBe(1 + 80 + 3 + 4);
    expect(requests).toBeLessThanOrEqual(Math.floor(1.1 * 80) + 4);
  });

  it("every record in the root's list: one count, the root unit's, says so", async () => {
    const server = await start([]);
    const { stderr, items, requests } = await merged(server);
    expect(items).toHaveLength(41 * 200);
    expect(stderr).toContain(
      "read once: the root's list held every unit's records (checked against 1 unit's own count)",
    );
    expect(requests).toBe(1 + 82 + 1);
  });

  it('a list with no counts cannot be checked, and says so', async () => {
    const server = await start(['u-3-a'], true);
    const { stderr, items } = await merged(server);
    expect(items).toHaveLength(40 * 200);
    expect(stderr).toContain(
      "read once: not checked whether the root's list holds every record of Global (its list reports no total_count)",
    );
  });
});
