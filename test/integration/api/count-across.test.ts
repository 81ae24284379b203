// The count asked of both demo regions as one question (api/fanout/count-across.ts), checked against each
// region's numbers asked here of its server over HTTP: every row says its region and holds that region's
// own count for its unit, the tenants of both regions are ranked as one table under the regions' totals,
// and each region's cost is its root's total and the requests its session sent.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { countAcross } from '../../../src/api/fanout/count-across.js';
import type { Source } from '../../../src/api/fanout/scopes.js';
import { Session } from '../../../src/api/session/session.js';
import type { DemoRegion } from '../../../src/demo/server.js';
import { demoRequest, useDemo } from '../../helpers/demo.js';

const demo = useDemo({ tenants: 6, frozen: true });

const sourceOf = (region: DemoRegion): Source => ({
  session: new Session({ baseUrl: region.baseUrl, token: region.tokens.personal, ratePerSecond: 1000 }),
  profile: region.name,
});

/** The server's count of failed tasks in a unit's scope. */
async function failedIn(region: DemoRegion, unit: string | null): Promise<number> {
  const filter = encodeURIComponent(JSON.stringify({ status: { $eq: 'failed' } }));
  const response = await demoRequest(region, `/tasks?limit=1&filter=${filter}`, {
    headers: unit === null ? {} : { 'x-service-organizationalunit-context': unit },
  });
  expect(response.status).toBe(200);
  return response.body.total_count as number;
}

describe('countAcross', () => {
  it("ranks both regions' tenants as one table under the regions' totals, each row with its region's count", async () => {
    const regions = [demo.region, demo.otherRegion];
    const sources = regions.map(sourceOf);
    const filter = JSON.stringify({ status: { $eq: 'failed' } });
    const answer = await countAcross(
      sources,
      { resource: 'tasks', units: 'all', depth: 1, filter },
      { sort: { column: 'total', descending: true }, nonzero: true },
    );
    expect(answer.failed).toBe(false);
    expect(answer.interrupted).toBeUndefined();
    const [roots, tenants] = [answer.rows.slice(0, 2), answer.rows.slice(2)];
    expect(roots.map((row) => [row.scope.source.profile, row.scope.depth])).toEqual(
      regions.map((region) => [region.name, 0]),
    );
    expect(tenants.every((row) => row.scope.depth === 1)).toBe(true);
    expect(new Set(tenants.map((row) => row.scope.source.profile))).toEqual(new Set(regions.map((r) => r.name)));
    const totals = tenants.map((row) => row.total!);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(totals.every((total) => total > 0)).toBe(true);
    for (const row of answer.rows) {
      const region = regions.find((candidate) => candidate.name === row.scope.source.profile)!;
      expect(row.total, `${region.name} ${row.ouName}`).toBe(await failedIn(region, row.scope.ou));
    }
    expect(answer.costs.map(({ source, records, requests, failed }) => [source, records, requests, failed])).toEqual(
      sources.map((source, index) => [source, roots[index]!.total, source.session.traffic.requests, false]),
    );
    expect(answer.requests).toBe(sources.reduce((sum, source) => sum + source.session.traffic.requests, 0));
  });

  it('refuses a sort that names no column of the count', async () => {
    const sources = [demo.region, demo.otherRegion].map(sourceOf);
    await expect(
      countAcross(
        sources,
        { resource: 'tasks', units: 'all', depth: 1 },
        { sort: { column: 'failed', descending: true } },
      ),
    ).rejects.toThrow(UsageError);
  });
});
