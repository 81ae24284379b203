// The scan at its floor, counted at the server: on the 40-tenant demo, `count --plan scan` reads the
// root's list once at its largest page (the index and the unit list beside it), learns the values it
// counts from those records, and sends no page twice; what it sends beyond that is the verification
// (each tenant's total and 3 cells). Every cell equals the per-cell plan's.
import { describe, expect, it } from 'vitest';
import { demoRequest, useDemo } from '../../helpers/demo.js';
import { dpx } from './harness.js';

const demo = useDemo({ tenants: 40, frozen: true });
const env = () => ({ DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal, DPX_RATE: '100000' });

interface Counted {
  rows: { ou: string; counts: Record<string, number>; other: number | null; total: number }[];
  plan: { chosen: string; verification: string | null; verified: unknown[] };
}

/** The command's document and the requests the server received for it. */
async function count(plan: string): Promise<{ document: Counted; sent: string[] }> {
  const before = demo.region.requestLog().length;
  const { code, stdout, stderr } = await dpx(
    ['count', 'tasks', '--by', 'status', '--ou', 'all', '--plan', plan, '--output', 'json'],
    { env: env() },
  );
  expect(code, stderr).toBe(0);
  return { document: JSON.parse(stdout) as Counted, sent: demo.region.requestLog().slice(before) };
}

describe('count --plan scan on 40 tenants', () => {
  it('reads no page twice and sends at most 2 requests beyond its floor and its verification', async () => {
    const total = (await demoRequest(demo.region, '/tasks?limit=1')).body.total_count as number;
    const scan = await count('scan');
    const cells = await count('cells');
    expect(scan.document.plan).toMatchObject({ chosen: 'scan', verification: 'verified' });
    expect(scan.document.rows.length).toBeGreaterThan(40);
    // Every cell, by its column's name: the scan's columns are those the per-cell plan asked for.
    expect(scan.document.rows).toEqual(cells.document.rows);

    // A verification asks for one record in a unit's context; every other request reads data.
    const verifying = scan.sent.filter((line) => /[?&](limit|page_size)=1(&|$)/.test(line));
    expect(verifying).toHaveLength(scan.document.plan.verified.length);
    const reading = scan.sent.filter((line) => !verifying.includes(line));
    const taskPages = reading.filter((line) => /^GET \/tasks(\?|$)/.test(line));
    const unitPages = reading.filter((line) => !taskPages.includes(line) && line !== 'GET /');
    const floor = Math.ceil(total / 100) + unitPages.length + 1;
    expect(new Set(taskPages).size, 'a page read twice').toBe(taskPages.length);
    expect(reading.length, reading.join('\n')).toBeLessThanOrEqual(floor + 2);
    // The per-cell plan on 40 tenants is thousands of requests: on a loaded machine that takes a while.
  }, 120_000);
});
