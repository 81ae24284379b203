// `list --ou all --all` reads the root's list once, at its largest page, and places each record in its
// own unit, instead of reading every unit's scope (where each ancestor repeats its descendants' records).
import { describe, expect, it } from 'vitest';
import { demoPages, useDemo } from '../../helpers/demo.js';
import { dpx } from './harness.js';

const demo = useDemo({ tenants: 6, taskSpeed: 1e-9 });

describe('a merged list read once', () => {
  it("costs the root's pages, in the server's order, each record in its own unit", async () => {
    const root = await demoPages(demo.region, '/tasks?limit=100');
    const units = new Map(
      (await demoPages(demo.region, '/organizational-units?limit=100')).map((unit) => [
        unit.id as string,
        unit.name as string,
      ]),
    );
    const before = demo.region.requestCount();
    const { code, stdout, stderr } = await dpx(['list', 'tasks', '--ou', 'all', '--all', '-o', 'json'], {
      env: { DPX_BASE_URL: demo.region.baseUrl, DPX_TOKEN: demo.region.tokens.personal },
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("read once: the root's list, each record in the unit its organizational_unit_id names");
    const items = (
      JSON.parse(stdout) as {
        items: { id: string; organizational_unit_id: string; _context: { ou: string; ou_name: string } }[];
      }
    ).items;
    expect(items.map((item) => item.id)).toEqual(root.map((task) => task.id));
    for (const item of items)
      expect(item._context).toMatchObject({
        ou: item.organizational_unit_id,
        ou_name: units.get(item.organizational_unit_id),
      });
    // The index, the unit list's pages, the refused large page, the root's pages of 100, and the root
    // unit's own count, which shows that the root's list held every unit's records.
    expect(stderr).toContain(
      "read once: the root's list held every unit's records (checked against 1 unit's own count)",
    );
    const unitPages = Math.ceil(units.size / 100);
    const listRequests = demo.region.requestCount() - before - 1 - unitPages;
    const rootPages = Math.ceil(root.length / 100);
    expect(listRequests).toBe(1 + rootPages + 1);
    expect(listRequests).toBeLessThanOrEqual(Math.ceil(1.1 * rootPages) + 1);
  });
});
